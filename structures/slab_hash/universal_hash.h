// The slab hash's bucket function (§III-C): h(k; a, b) = ((a·k + b) mod p) mod B,
// a universal hash with a, b drawn at random and p prime.
#pragma once

#include <cstdint>

#include "common/host_device.h"

namespace gpulin::slab_hash {

struct UniversalHash {
  static constexpr uint64_t kPrime = 4294967291ull;  // the largest prime below 2^32
  uint32_t a = 1, b = 0, buckets = 1;

  GPULIN_HD uint32_t operator()(uint32_t key) const { return mod_prime(uint64_t{a} * key + b) % buckets; }
  // x mod p for p = 2^32 - 5 without a 64-bit division (slow on GPUs): with
  // x = hi·2^32 + lo, 2^32 ≡ 5, so x ≡ 5·hi + lo. From x < 2^64 the first fold
  // leaves x < 6·2^32, the second x < 5·5 + 2^32 = p + 30, so one subtraction ends
  // it (branch-free).
  GPULIN_HD static uint32_t mod_prime(uint64_t x) {
    x = (x >> 32) * 5 + (x & 0xFFFFFFFFull);
    x = (x >> 32) * 5 + (x & 0xFFFFFFFFull);
    return static_cast<uint32_t>(x >= kPrime ? x - kPrime : x);
  }
  // a in [1, p), b in [0, p) from a seed (splitmix64).
  static UniversalHash from_seed(uint64_t seed, uint32_t buckets) {
    auto next = [&seed] {
      uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      return z ^ (z >> 31);
    };
    UniversalHash h;
    h.a = static_cast<uint32_t>(1 + next() % (kPrime - 1));
    h.b = static_cast<uint32_t>(next() % kPrime);
    h.buckets = buckets;
    return h;
  }
};

}  // namespace gpulin::slab_hash
