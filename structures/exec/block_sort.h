// Sorting an actor's private array with all its threads, over the execution context
// (structures/exec/context.h): a bitonic network, one parallel_for (one barrier) a
// step - the generalized heap's insert batches (§4.1: the paper sorts them by parallel
// bitonic sort in shared memory) and PARDIJKSTRA's updates where a graph's rows are
// not sorted.
#pragma once

#include <cstdint>

#include "common/host_device.h"

namespace gpulin::exec {

GPULIN_HD inline uint32_t next_pow2(uint32_t n) {
  uint32_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

// Sorts keys[0, n) ascending. `work` holds next_pow2(n) keys: the input is padded
// there with `pad` (a key no smaller than any of them), sorted, and copied back.
template <class X, class Ptr, class Key>
GPULIN_HD void block_sort(X& x, Ptr keys, uint32_t n, Ptr work, Key pad) {
  const uint32_t size = next_pow2(n);
  x.parallel_for(size, [&](uint32_t i) { work[i] = i < n ? keys[i] : pad; });
  for (uint32_t run = 2; run <= size; run <<= 1) {
    for (uint32_t stride = run >> 1; stride > 0; stride >>= 1) {
      x.parallel_for(size, [&](uint32_t i) {
        const uint32_t partner = i ^ stride;
        if (partner <= i) return;
        const bool ascending = (i & run) == 0;
        const Key lo = work[i], hi = work[partner];
        if ((lo > hi) == ascending) {
          work[i] = hi;
          work[partner] = lo;
        }
      });
    }
  }
  x.parallel_for(n, [&](uint32_t i) { keys[i] = work[i]; });
}

}  // namespace gpulin::exec
