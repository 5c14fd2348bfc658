// A prefix sum whose every element is then handed its place: emit(i, before, v)
// for each i < n, v = value(i) and before = value(0) + ... + value(i - 1). A
// partition's scatter (structures/bucket_heap/level_ops.h) and the relaxation's
// move (apps/sssp/pardijkstra.h) are such emits: an element goes to `before` in
// its output when v says it goes at all.
//
// A context with x.scan_then (the GPU's block actors, cuda/cuda_context.cuh) emits
// in the pass that takes the values: one pass over the elements. Any other (the
// simulator) takes the contract's exclusive_sum_of into `places` (n words of 64
// bits, the actor's private memory), then a parallel_for that reads each place and
// the next one back: two passes.
#pragma once

#include <cstdint>

#include "common/host_device.h"

namespace gpulin::exec {

template <class X, class F, class Places, class Emit>
GPULIN_HD uint64_t exclusive_sum_then(X& x, uint32_t n, F&& value, Places places, Emit&& emit) {
  if constexpr (requires { x.scan_then(n, value, emit); }) {
    return static_cast<uint64_t>(x.scan_then(n, value, emit));
  } else {
    const uint64_t total = x.exclusive_sum_of(n, value, places);
    x.parallel_for(n, [&](uint32_t i) {
      const uint64_t at = places[i], next = i + 1 < n ? static_cast<uint64_t>(places[i + 1]) : total;
      emit(i, at, next - at);
    });
    return total;
  }
}

}  // namespace gpulin::exec
