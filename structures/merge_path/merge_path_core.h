// The merge-path core (Green, McColl, Bader: GPU Merge Path, §2.1-2.3), written once
// and used by the standalone merge and by the heaps' block-level MergeAndSort.
//
// Merging sorted A (length na) and sorted B (length nb) is a walk on a grid from the
// top-left to the bottom-right corner. The cross diagonal d (0 <= d <= na + nb)
// meets the path at one point (i, d - i): the first d outputs are A[0, i) and
// B[0, d - i). A thread given output range [d0, d1) finds both points by binary
// search on its diagonals and merges its slice serially, with no communication.
#pragma once

#include <cstdint>

#include "structures/exec/context.h"
#include "structures/exec/private_memory.h"

namespace gpulin::merge_path {

struct Less {
  template <class T>
  GPULIN_HD bool operator()(const T& a, const T& b) const { return a < b; }
};

// Number of elements of A among the first `diag` outputs of the stable merge
// (on equal keys the element of A comes first). Binary search on the diagonal:
// O(log min(na, nb)). `Index` is the unsigned type of the positions: 64-bit for
// global arrays, 32-bit where all positions are small (a window in shared memory).
// A and B are pointers (or private-memory pointers, structures/exec/private_memory.h)
// indexed as arrays.
template <class Index, class PtrA, class PtrB, class Comp = Less>
GPULIN_HD Index diagonal_split_t(PtrA a, Index na, PtrB b, Index nb, Index diag, Comp comp = Comp()) {
  Index lo = diag > nb ? diag - nb : 0;
  Index hi = diag < na ? diag : na;
  while (lo < hi) {
    Index i = lo + (hi - lo) / 2;  // candidate: take A[0, i], i.e. i+1 from A
    // Stability: A[i] precedes B[diag - i - 1] unless B's element is strictly smaller.
    if (!comp(b[diag - i - 1], a[i]))
      lo = i + 1;
    else
      hi = i;
  }
  return lo;
}

template <class PtrA, class PtrB, class Comp = Less>
GPULIN_HD uint64_t diagonal_split(PtrA a, uint64_t na, PtrB b, uint64_t nb, uint64_t diag, Comp comp = Comp()) {
  return diagonal_split_t<uint64_t>(a, na, b, nb, diag, comp);
}

// The serial merge (the per-thread step of §2.3): `count` outputs starting at A[ai],
// B[bi], in order, each handed to emit(k, key, from_a, pos) with k the output's rank
// in this slice and pos the element's index in its own input (so that callers can
// carry values along). The head of each input is held in a register and each input
// element is read once; a step has no branches (the comparison is evaluated on both
// heads, a head past its array's end is never taken, the taken side reloads with a
// bounds-checked load). With MaxCount > 0 (count <= MaxCount) the loop is fully
// unrolled, so that `k` is a constant and emit can fill a register array. With
// ReadPastEnd the caller guarantees that a[na] and b[nb] may be read (the value is
// never used), and the reload skips its bounds check.
template <uint32_t MaxCount, bool ReadPastEnd = false, class Index, class Ptr, class Comp, class Emit>
GPULIN_HD void serial_merge_emit(Ptr a, Index na, Index ai, Ptr b, Index nb, Index bi, Index count, Comp comp,
                                 Emit&& emit) {
  using Key = exec::private_element_t<Ptr>;
  Key ka{}, kb{};
  if (ai < na) ka = a[ai];
  if (bi < nb) kb = b[bi];
  auto step = [&](Index k) {
    // Stability: A's head goes first unless B's is strictly smaller.
    const bool take_a = (bi >= nb) | ((ai < na) & !comp(kb, ka));
    emit(k, take_a ? ka : kb, take_a, take_a ? ai : bi);
    const Index next = (take_a ? ai : bi) + 1;
    ai = take_a ? next : ai;
    bi = take_a ? bi : next;
    const Ptr src = take_a ? a : b;
    if (ReadPastEnd || next < (take_a ? na : nb)) {
      const Key v = src[next];
      ka = take_a ? v : ka;
      kb = take_a ? kb : v;
    }
  };
  if constexpr (MaxCount > 0) {
    if (count == MaxCount) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (uint32_t k = 0; k < MaxCount; ++k) step(static_cast<Index>(k));
    } else {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (uint32_t k = 0; k < MaxCount; ++k)
        if (k < count) step(static_cast<Index>(k));
    }
  } else {
    for (Index k = 0; k < count; ++k) step(k);
  }
}

// Serially merges `count` outputs starting at A[ai], B[bi] into out[0, count).
template <class In, class Out, class Comp = Less>
GPULIN_HD void serial_merge(In a, uint64_t na, uint64_t ai, In b, uint64_t nb, uint64_t bi, Out out, uint64_t count,
                            Comp comp = Comp()) {
  serial_merge_emit<0>(a, na, ai, b, nb, bi, count, comp,
                       [out](uint64_t k, const auto& key, bool, uint64_t) { out[k] = key; });
}

// Merges the output range [d0, d1) of merge(A, B) into out[0, d1 - d0).
template <class In, class Out, class Comp = Less>
GPULIN_HD void merge_range(In a, uint64_t na, In b, uint64_t nb, uint64_t d0, uint64_t d1, Out out,
                           Comp comp = Comp()) {
  uint64_t ai = diagonal_split(a, na, b, nb, d0, comp);
  serial_merge(a, na, ai, b, nb, d0 - ai, out, d1 - d0, comp);
}

}  // namespace gpulin::merge_path
