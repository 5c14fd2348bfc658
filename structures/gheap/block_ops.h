// Block-cooperative building blocks of the heap (§4.1-4.2): the batch sort of an
// insert, MergeAndSort by merge path, and loading/storing node batches. All work on
// block-private memory (shared memory on the GPU); loads and stores of node batches
// go through the execution context, so each is one observable step.
#pragma once

#include <cstdint>

#include "structures/exec/block_sort.h"
#include "structures/gheap/config.h"
#include "structures/merge_path/block_merge.h"

namespace gpulin::gheap {

using exec::next_pow2;

// Sorts keys[0, n) ascending (§4.1: the paper sorts insert batches by parallel
// bitonic sort in shared memory). `work` holds next_pow2(n) keys (at most 2k): the
// input is padded there with MAX_VALUE.
template <class X, class Ptr>
GPULIN_HD void block_sort(X& x, Ptr keys, uint32_t n, Ptr work) {
  exec::block_sort(x, keys, n, work, KeyLimits<exec::private_element_t<Ptr>>::max_value);
}

using merge_path::block_copy;
using merge_path::block_merge;
using merge_path::merge_and_sort;
using merge_path::MergeShape;

// s.a = B[first], s.b = B[second] (adjacent: s.b == s.a + k), both nodes held by
// the caller; on the GPU both loads are in flight together.
template <class X, class Key, class P, class Ptr>
GPULIN_HD void load_node_pair(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t first, uint32_t second) {
  x.load_two_blocks(s.a, h.node(first), h.node(second), h.k);
}

// (B[lo_node], B[hi_node]) = MergeAndSort(B[lo_node], B[hi_node]) on two full nodes,
// both already held by the caller. Stores only what changed.
template <class X, class Key, class P, class Ptr>
GPULIN_HD void merge_nodes(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t lo_node,
                           uint32_t hi_node) {
  const uint32_t k = h.k;
  load_node_pair(x, h, s, lo_node, hi_node);
  if (merge_and_sort(x, s.a, k, s.b, k, s.merged) == MergeShape::AlreadyOrdered) return;
  x.store_block(h.node(lo_node), s.merged, k);
  x.store_block(h.node(hi_node), s.merged + k, k);
}

}  // namespace gpulin::gheap
