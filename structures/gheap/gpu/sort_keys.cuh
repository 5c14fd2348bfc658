// CUB's radix sort of n keys in a double buffer, ascending or descending, with
// 32-bit counts where they fit: CUB picks its offset type from the count's type,
// and the size query and the sort must use the same one, so both go through here.
// For CUDA sources (device_workload.cu, the heap benchmark's heap_runs.cu).
#pragma once

#include <cub/device/device_radix_sort.cuh>

#include <climits>
#include <cstddef>
#include <cstdint>

namespace gpulin::stress {

template <class Key>
cudaError_t sort_keys(void* temp, size_t& bytes, cub::DoubleBuffer<Key>& db, uint64_t n, bool descending) {
  if (n <= uint64_t(INT_MAX)) {
    return descending ? cub::DeviceRadixSort::SortKeysDescending(temp, bytes, db, static_cast<int>(n))
                      : cub::DeviceRadixSort::SortKeys(temp, bytes, db, static_cast<int>(n));
  }
  return descending ? cub::DeviceRadixSort::SortKeysDescending(temp, bytes, db, static_cast<long long>(n))
                    : cub::DeviceRadixSort::SortKeys(temp, bytes, db, static_cast<long long>(n));
}

}  // namespace gpulin::stress
