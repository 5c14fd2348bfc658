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

namespace gpulin::merge_path {

struct Less {
  template <class T>
  GPULIN_HD bool operator()(const T& a, const T& b) const { return a < b; }
};

// Number of elements of A among the first `diag` outputs of the stable merge
// (on equal keys the element of A comes first). Binary search on the diagonal:
// O(log min(na, nb)).
template <class KeyA, class KeyB, class Comp = Less>
GPULIN_HD uint64_t diagonal_split(const KeyA* a, uint64_t na, const KeyB* b, uint64_t nb,
                                  uint64_t diag, Comp comp = Comp()) {
  uint64_t lo = diag > nb ? diag - nb : 0;
  uint64_t hi = diag < na ? diag : na;
  while (lo < hi) {
    uint64_t i = lo + (hi - lo) / 2;  // candidate: take A[0, i], i.e. i+1 from A
    // Stability: A[i] precedes B[diag - i - 1] unless B's element is strictly smaller.
    if (!comp(b[diag - i - 1], a[i]))
      lo = i + 1;
    else
      hi = i;
  }
  return lo;
}

// Serially merges `count` outputs starting at A[ai], B[bi] into out[0, count).
template <class Key, class Comp = Less>
GPULIN_HD void serial_merge(const Key* a, uint64_t na, uint64_t ai, const Key* b, uint64_t nb,
                            uint64_t bi, Key* out, uint64_t count, Comp comp = Comp()) {
  for (uint64_t k = 0; k < count; ++k) {
    bool take_a = bi >= nb || (ai < na && !comp(b[bi], a[ai]));
    out[k] = take_a ? a[ai++] : b[bi++];
  }
}

// Merges the output range [d0, d1) of merge(A, B) into out[0, d1 - d0).
template <class Key, class Comp = Less>
GPULIN_HD void merge_range(const Key* a, uint64_t na, const Key* b, uint64_t nb, uint64_t d0,
                           uint64_t d1, Key* out, Comp comp = Comp()) {
  uint64_t ai = diagonal_split(a, na, b, nb, d0, comp);
  serial_merge(a, na, ai, b, nb, d0 - ai, out, d1 - d0, comp);
}

}  // namespace gpulin::merge_path
