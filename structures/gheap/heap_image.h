// A copy of a heap's memory as plain arrays: what the checks of a heap at rest read,
// whichever executor the heap lived in (host memory for the simulator, device
// memory for the GPU).
#pragma once

#include <cstdint>
#include <vector>

namespace gpulin::gheap {

template <class Key = uint32_t>
struct HeapImage {
  uint32_t k = 0;
  uint32_t capacity = 0;
  uint32_t lastelem = 0;
  uint32_t psize = 0;
  std::vector<uint32_t> state;    // [capacity + 1]
  std::vector<Key> keys;          // [(capacity + 1) * k]
  std::vector<Key> pbuffer;       // [k]
};

}  // namespace gpulin::gheap
