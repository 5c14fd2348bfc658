// Seeds derived from one seed (SplitMix64's finaliser, Steele, Lea and Flood 2014):
// the part `index` of a run seeded `seed` gets a generator of its own, so that
// neighbouring indices, and neighbouring seeds, share nothing (under `seed + index`
// seed 2's part i would be seed 1's part i + 1). A `stream` keeps two families of
// parts of one run (its programs and its schedules, say) apart.
#pragma once

#include <cstdint>

#include "common/host_device.h"

namespace gpulin {

GPULIN_HD inline uint64_t splitmix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

GPULIN_HD inline uint64_t derived_seed(uint64_t seed, uint64_t index, uint64_t stream = 0) {
  return splitmix64((seed ^ stream) + 0x9e3779b97f4a7c15ULL * (index + 1));
}

// Streams in use (odd constants, digits of square roots of primes as SHA-2 takes them).
constexpr uint64_t kProgramStream = 0x6a09e667f3bcc909ULL;
constexpr uint64_t kDeviceStream = 0xbb67ae8584caa73bULL;

}  // namespace gpulin
