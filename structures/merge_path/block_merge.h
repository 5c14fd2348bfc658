// Block-cooperative merging of two sorted batches in actor-private memory, over
// the execution context (structures/exec/context.h): merge path's even split of
// the output among the actor's threads, each merging its slice serially (GPU Merge
// Path §2.2). Shared by the structures whose nodes are sorted batches (the
// generalized heap's MergeAndSort, the P-Sync heap's update processes).
#pragma once

#include <cstdint>

#include "structures/merge_path/merge_path_core.h"

namespace gpulin::merge_path {

// Merges sorted a[0, na) and b[0, nb) into out[0, na + nb) with the whole block:
// each thread finds its slice of the output by the merge-path diagonal search and
// merges it serially (GPU Merge Path §2.2, the same core as structures/merge_path).
// The pointers are to private memory (structures/exec/private_memory.h): the
// context's Private<Key>, or Key*.
template <exec::ActorLoops X, class In, class Out>
GPULIN_HD void block_merge(X& x, In a, uint32_t na, In b, uint32_t nb, Out out) {
  const uint32_t total = na + nb;
  const uint32_t parts = x.threads();
  x.parallel_for(parts, [&](uint32_t t) {
    uint64_t d0 = static_cast<uint64_t>(total) * t / parts;
    uint64_t d1 = static_cast<uint64_t>(total) * (t + 1) / parts;
    merge_path::merge_range(a, na, b, nb, d0, d1, out + d0);
  });
}

template <exec::ActorLoops X, class Dst, class Src>
GPULIN_HD void block_copy(X& x, Dst dst, Src src, uint32_t n) {
  if constexpr (requires { x.copy_private(dst, src, n); }) x.copy_private(dst, src, n);  // the simulator's, one pass
  else x.parallel_for(n, [&](uint32_t i) { dst[i] = src[i]; });
}

// How a MergeAndSort came out (§4.3 "Remove Redundant MergeAndSort Operations").
enum class MergeShape : uint32_t {
  AlreadyOrdered,  // max(a) <= min(b): nothing moves
  Swapped,         // max(b) < min(a): the two batches trade places
  Merged,          // a real merge
};

// (lo, hi) = MergeAndSort(a, b): after the call `merged[0, na + nb)` holds the
// sorted union, so the caller stores merged[0, n_lo) as the low part and the rest as
// the high part. Returns the shape so that callers can skip stores that change
// nothing.
template <exec::ActorLoops X, class In, class Out>
GPULIN_HD MergeShape merge_and_sort(X& x, In a, uint32_t na, In b, uint32_t nb, Out merged) {
  if (na == 0 || nb == 0 || !(b[0] < a[na - 1])) {
    block_copy(x, merged, a, na);
    block_copy(x, merged + na, b, nb);
    return MergeShape::AlreadyOrdered;
  }
  if (b[nb - 1] < a[0]) {
    block_copy(x, merged, b, nb);
    block_copy(x, merged + nb, a, na);
    return MergeShape::Swapped;
  }
  block_merge(x, a, na, b, nb, merged);
  return MergeShape::Merged;
}

}  // namespace gpulin::merge_path
