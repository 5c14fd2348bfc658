// Sorted test and benchmark inputs for the merge, made on the device: a running sum
// of random increments, so that duplicates come in runs. Shared by the GPU tests and
// the merge benchmark.
#pragma once

#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform.h>

#include <cstdint>
#include <type_traits>

namespace gpulin::merge_path::test_inputs {

// Random increments in [0, spread): their running sum is sorted, with duplicates
// where the increment is 0 (spread 1: all equal).
struct Increment {
  uint64_t seed;
  uint32_t spread;
  __host__ __device__ uint32_t operator()(uint64_t i) const {
    uint64_t z = (i + 1) * 0x9e3779b97f4a7c15ull ^ seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return static_cast<uint32_t>(z % spread);
  }
};

template <class T>
struct ToKey {
  int64_t offset;
  bool negate;  // descending sequences
  __host__ __device__ T operator()(uint64_t s) const {
    const int64_t v = static_cast<int64_t>(s) + offset;
    return static_cast<T>(negate ? -v : v);
  }
};

// n sorted keys (descending if asked) on the device.
template <class T>
thrust::device_vector<T> sorted_keys(uint64_t n, uint64_t seed, uint32_t spread, bool descending = false) {
  thrust::device_vector<uint64_t> sums(n);
  thrust::transform(thrust::counting_iterator<uint64_t>(0), thrust::counting_iterator<uint64_t>(n), sums.begin(),
                    Increment{seed, spread});
  thrust::inclusive_scan(sums.begin(), sums.end(), sums.begin());
  thrust::device_vector<T> keys(n);
  const int64_t offset = std::is_signed_v<T> ? -static_cast<int64_t>(n) * spread / 4 : 0;
  thrust::transform(sums.begin(), sums.end(), keys.begin(), ToKey<T>{offset, descending});
  return keys;
}

}  // namespace gpulin::merge_path::test_inputs
