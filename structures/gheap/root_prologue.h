// The part both heaps share at the root (Fig. 10 and Fig. 12, lines 1-10 of insert
// and 1-7 of delete): the partial buffer, guarded by the root's lock (§3.3.2).
#pragma once

#include <cstdint>

#include "structures/gheap/block_ops.h"
#include "structures/gheap/ms_lock.h"

namespace gpulin::gheap {

// Insert lines 1-10. s.items[0, n) holds the new keys. Returns true when a full
// batch (k keys, in s.items) must now go into the heap, with the root still held;
// false when the keys were absorbed by the partial buffer and the root released.
// fixed: psize, lastelem and B[1] are read in one round trip (all three are the
// root's: nothing changes them while it is held); *lastelem_out gets lastelem for
// the reservation that follows under the same hold, and s.c keeps B[1] for the
// descent (insert_descend's start_batch).
template <class X, class Key, class P, class Ptr>
GPULIN_HD bool insert_at_root(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t n,
                              uint32_t* lastelem_out = nullptr) {
  const uint32_t k = h.k;
  block_sort(x, s.items, n, s.merged);                       // line 1
  ms_lock(x, h, 1, AVAIL, INUSE);                            // line 2
  uint32_t p = 0, last = 0;
  bool have_last = false;
  if constexpr (P::variant == Variant::Fixed) {
    const exec::WordPair w = x.load_block_and_guarded_pair(s.c, h.node(1), k, h.psize, h.lastelem);
    p = w.first;
    last = w.second;
    have_last = true;
    if (lastelem_out) *lastelem_out = last;
    // A full batch and an empty buffer: the batch goes down as it is, the buffer
    // stays empty (lines 3-4 with nothing to merge).
    if (p == 0 && n == k) return true;
  } else {
    p = x.load(h.psize);
  }
  x.load_block(s.a, h.pbuffer, p);
  merge_and_sort(x, s.items, n, s.a, p, s.merged);           // lines 4 and 6 merge the same two
  if (p + n >= k) {                                          // line 3
    // line 4: the k smallest go down as a batch, the rest stay partial.
    block_copy(x, s.items, s.merged, k);
    x.store_block(h.pbuffer, s.merged + k, p + n - k);
    // A full batch leaves psize as it was; the paper variant still writes it, as the
    // figure does (its counterexamples' schedules count that step).
    if (!(h.fixed() && n == k)) x.store_guarded(h.psize, p + n - k);
    return true;
  }
  // lines 6-8: the buffer takes every key, then trades with the root so that the
  // root keeps the k smallest (property 3).
  const uint32_t total = p + n;
  if ((have_last ? last : x.load(h.lastelem)) != 0) {
    block_copy(x, s.a, s.merged, total);
    Ptr root = s.c;  // fixed: read with the root's words
    if (!have_last) {
      x.load_block(s.b, h.node(1), k);
      root = s.b;
    }
    if (merge_and_sort(x, root, k, s.a, total, s.merged) != MergeShape::AlreadyOrdered)
      x.store_block(h.node(1), s.merged, k);
    x.store_block(h.pbuffer, s.merged + k, total);
  } else {
    x.store_block(h.pbuffer, s.merged, total);
  }
  x.store_guarded(h.psize, total);
  ms_unlock(x, h, 1, INUSE, AVAIL);                          // line 9
  return false;
}

// Delete lines 1-7. On return s.items holds the deleted keys and *n_out their
// number. Returns true when the root batch was taken and the heap must be refilled
// (root still held); false when the heap had no full node and the partial buffer
// was returned (root released). Both readings clear what they return: the figure's
// `deleteItems = pBuffer[...]` does not say so, but a delete that leaves its keys
// behind fails even sequentially (docs/findings.md, reading R5).
// *count_out gets lastelem as read under the root lock (for take_last).
// With load_root false the caller reads B[1] into s.items itself (later, still
// under the root's lock). fixed: psize is read with lastelem, in one round trip
// (both are the root's: nothing changes them while it is held, and the root's
// acquire ordered the last holder's writes of them: the loads are relaxed), into
// *psize_out.
template <class X, class Key, class P, class Ptr>
GPULIN_HD bool delete_at_root(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t* n_out,
                              uint32_t* count_out, bool load_root = true, uint32_t* psize_out = nullptr) {
  ms_lock(x, h, 1, AVAIL, INUSE);                            // line 1
  bool have_psize = false;
  if constexpr (P::variant == Variant::Fixed) {
    const exec::WordPair w = x.load_pair(h.lastelem, h.psize, exec::relaxed);
    *count_out = w.first;
    if (psize_out) *psize_out = w.second;
    have_psize = true;
  } else {
    *count_out = x.load(h.lastelem);
  }
  if (*count_out == 0) {                                     // line 2
    const uint32_t p = have_psize ? *psize_out : x.load(h.psize);  // lines 3-4
    x.load_block(s.items, h.pbuffer, p);
    if (p != 0) x.store_guarded(h.psize, 0);
    *n_out = p;
    ms_unlock(x, h, 1, INUSE, AVAIL);                        // line 5
    return false;
  }
  if (load_root) x.load_block(s.items, h.node(1), h.k);      // line 7
  *n_out = h.k;
  return true;
}

// Takes the last node in fill order (Fig. 4(c) line 3: tar = lastelem--). `count`
// is lastelem as read under the same hold of the root lock (0: read it now).
template <class X, class Key, class P>
GPULIN_HD uint32_t take_last(X& x, const HeapView<Key, P>& h, uint32_t count = 0) {
  if (count == 0) count = x.load(h.lastelem);
  // Callers hold the root and saw lastelem != 0; zero here means another operation
  // changed it under the root lock (the early-root-release mutant does).
  if (count == 0) x.fail("delete found no full node to take (lastelem is 0 under the root lock)");
  x.store_guarded(h.lastelem, count - 1);
  return node_of<P::mutant>(count);
}

// Reserves the next node in fill order for an insert (line 11: tar = lastelem++,
// read as the new count because nodes are 1-indexed and the root is node 1).
// `known`: lastelem + 1 as read already under this hold of the root (0: read it).
template <class X, class Key, class P>
GPULIN_HD uint32_t reserve_target(X& x, const HeapView<Key, P>& h, uint32_t known = 0) {
  const uint32_t count = known != 0 ? known : x.load(h.lastelem) + 1;
  const uint32_t node = node_of<P::mutant>(count);
  if (node > h.capacity || count > h.capacity) x.fail("heap capacity exhausted");
  x.store_guarded(h.lastelem, count);
  return node;
}

// The partial buffer's size when a refilled root must merge with it (root held;
// 0 under the mutant that skips the merge).
template <class X, class Key, class P>
GPULIN_HD uint32_t buffered_keys(X& x, const HeapView<Key, P>& h) {
  if constexpr (P::mutant == Mutant::SkipPartialMerge) return 0;
  return x.load(h.psize);
}
// The same with psize read already under this hold of the root.
template <class Key, class P>
GPULIN_HD uint32_t buffered_keys(const HeapView<Key, P>&, uint32_t psize_read) {
  if constexpr (P::mutant == Mutant::SkipPartialMerge) return 0;
  return psize_read;
}

// (batch, pBuffer) = MergeAndSort(batch, pBuffer) for a root batch in block-private
// memory and the buffer's p > 0 keys: after a refill the root must hold the k
// smallest of itself and the buffer (property 3; TD delete line 16, BU line 12).
// Returns whether anything moved: then s.merged[0, k) is the root's new batch and
// s.merged[k, k + p) the buffer's, for the caller to store.
template <class X, class Key, class P, class Ptr>
GPULIN_HD bool merge_with_buffer(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, Ptr batch, uint32_t p) {
  x.load_block(s.b, h.pbuffer, p);
  return merge_and_sort(x, batch, h.k, s.b, p, s.merged) != MergeShape::AlreadyOrdered;
}

// The same for B[1] in the heap (the BU paper delete, after move_to_root).
template <class X, class Key, class P, class Ptr>
GPULIN_HD void merge_root_with_buffer(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s) {
  const uint32_t p = buffered_keys(x, h);
  if (p == 0) return;
  x.load_block(s.a, h.node(1), h.k);
  if (!merge_with_buffer(x, h, s, s.a, p)) return;
  x.store_block(h.node(1), s.merged, h.k);
  x.store_block(h.pbuffer, s.merged + h.k, p);
}

// Fills node `x_node` with MAX_VALUE (an emptied node, Fig. 4(c) line 4).
template <class X, class Key, class P, class Ptr>
GPULIN_HD void clear_node(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t x_node) {
  x.parallel_for(h.k, [&](uint32_t i) { s.a[i] = KeyLimits<Key>::max_value; });
  x.store_block(h.node(x_node), s.a, h.k);
}

// B[1] = B[tar]; B[tar] = MAX_VALUE (the refill, both heaps).
template <class X, class Key, class P, class Ptr>
GPULIN_HD void move_to_root(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t tar) {
  x.load_block(s.b, h.node(tar), h.k);
  x.store_block(h.node(1), s.b, h.k);
  clear_node(x, h, s, tar);
}

}  // namespace gpulin::gheap
