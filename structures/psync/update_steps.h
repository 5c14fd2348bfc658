// The update processes of steps 2 and 3 (§III-B, §IV-C), one level each: an
// insert-update process merges the keys it carries with a node on its path, the
// node keeping the smallest and the process carrying the largest down, until the
// keys join their target node; a delete-update process merges its node with the
// children, keeps the r smallest, gives the next ones to the child whose largest
// key is larger and the largest ones to the other child, and goes on at that one.
#pragma once

#include <cstdint>

#include "structures/exec/memory_order.h"
#include "structures/merge_path/block_merge.h"
#include "structures/psync/psync_tasks.h"
#include "structures/psync/psync_view.h"

namespace gpulin::psync {

template <class X, class P, class Scratch>
GPULIN_HD void insert_update(X& x, const View<typename P::Key>& h, const InsertStep& s, Scratch scratch) {
  using Key = typename P::Key;
  const uint32_t r = h.r;
  const auto node = scratch;             // r
  const auto carried = scratch + r;      // r
  const auto merged = scratch + 2 * r;   // 2r
  Key* buffer = h.insert_buffer(s.slot);
  x.load_block(node, h.node(s.node), s.fill);
  x.load_block(carried, buffer, s.count);
  const auto shape = merge_path::merge_and_sort(x, node, s.fill, carried, s.count, merged);
  if (s.arrives) {
    x.store_block(h.node(s.node), merged, s.fill + s.count);
    return;
  }
  if (shape == merge_path::MergeShape::AlreadyOrdered) return;  // the node keeps its keys
  x.store_block(h.node(s.node), merged, s.fill);
  x.store_block(buffer, merged + s.fill, s.count);
}

// One step of the delete-update process in table slot `slot`; `arrived_end` is
// where the arrived keys end (the children's fills).
template <class X, class P, class Scratch>
GPULIN_HD void delete_update(X& x, const View<typename P::Key>& h, uint32_t slot, uint64_t arrived_end,
                             Scratch scratch) {
  using Key = typename P::Key;
  const uint32_t r = h.r;
  const uint32_t at = x.load(h.delete_table + slot, exec::relaxed);  // the step's kernel boundary orders it
  if (at == 0) return;  // done in an earlier step
  const uint32_t left = 2 * at, right = left + 1;
  const uint32_t nl = h.fill(left, arrived_end), nr = h.fill(right, arrived_end);
  if (nl == 0) {  // the bottom of the heap
    x.store(h.delete_table + slot, 0u, exec::relaxed);
    return;
  }
  const auto keys = scratch;                 // node, left, right: r + nl + nr
  const auto children = scratch + 3 * r;     // nl + nr
  const auto merged = scratch + 5 * r;       // r + nl + nr
  x.load_block(keys, h.node(at), r);
  x.load_block(keys + r, h.node(left), nl);
  if (nr) x.load_block(keys + r + nl, h.node(right), nr);
  const Key top = keys[r - 1];
  // The parallel heap property already holds here: the process ends midway.
  if (!(keys[r] < top) && (nr == 0 || !(keys[r + nl] < top))) {
    x.store(h.delete_table + slot, 0u, exec::relaxed);
    return;
  }
  merge_path::merge_and_sort(x, keys + r, nl, keys + r + nl, nr, children);
  merge_path::merge_and_sort(x, keys, r, children, nl + nr, merged);
  x.store_block(h.node(at), merged, r);
  uint32_t largest = left;
  if (nr == 0) {
    x.store_block(h.node(left), merged + r, nl);
  } else {
    // The child whose largest key is larger takes the next keys: they are all at
    // most that key, so its subtree keeps the property; the other child takes the
    // largest keys and the process goes on there.
    const bool left_second = keys[r + nr + nl - 1] < keys[r + nl - 1];
    const uint32_t second = left_second ? left : right, n_second = left_second ? nl : nr;
    largest = left_second ? right : left;
    x.store_block(h.node(second), merged + r, n_second);
    x.store_block(h.node(largest), merged + r + n_second, nl + nr - n_second);
  }
  const bool below = h.fill(2 * largest, arrived_end) != 0;
  x.store(h.delete_table + slot, below ? largest : 0u, exec::relaxed);
}

}  // namespace gpulin::psync
