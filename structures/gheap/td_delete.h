// Delete of the TD-INS/TD-DEL heap (§3.2.1, §3.3.2, Fig. 10 right). Both variants.
#pragma once

#include <cstdint>

#include "structures/gheap/bit_reversal.h"
#include "structures/gheap/root_prologue.h"

namespace gpulin::gheap {

// The two children of a node, merged: s.merged[0, k) is the small half (for
// `small`), s.merged[k, 2k) the large half (for `big`). `moved`: a node's batch
// changes (not when the left already held the small half).
struct ChildSplit {
  uint32_t small, big;
  bool moved;
};

// "Suppose right child batch has the largest item" (line 30): the larger half goes
// to the child whose maximum was larger (§3.2.1); the walk continues down the other.
// Loads and merges; the caller stores (when, differs between the deletes).
template <class X, class Key, class P, class Ptr>
GPULIN_HD ChildSplit split_children(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t l, uint32_t r) {
  const uint32_t k = h.k;
  load_node_pair(x, h, s, l, r);
  const bool left_bigger = P::mutant != Mutant::FixedBigChild && s.b[k - 1] < s.a[k - 1];
  const MergeShape shape = merge_and_sort(x, s.a, k, s.b, k, s.merged);
  return {left_bigger ? r : l, left_bigger ? l : r, !(shape == MergeShape::AlreadyOrdered && !left_bigger)};
}

// split_children with both halves stored at once (the BU paper delete, lines 23-24).
template <class X, class Key, class P, class Ptr>
GPULIN_HD uint32_t merge_children(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t l,
                                  uint32_t r, uint32_t* big_out) {
  const ChildSplit c = split_children(x, h, s, l, r);
  if (c.moved) {
    x.store_block(h.node(c.small), s.merged, h.k);
    x.store_block(h.node(c.big), s.merged + h.k, h.k);
  }
  *big_out = c.big;
  return c.small;
}

// True when B[parent] and B[child] already satisfy property 1 (line 33, early stop).
template <class X, class Key, class P, class Ptr>
GPULIN_HD bool property_holds(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t parent,
                              uint32_t child) {
  load_node_pair(x, h, s, parent, child);
  return !(s.b[0] < s.a[h.k - 1]);
}

// Writes the sifting batch s.c back to its node (it lives in block-private memory
// while the delete holds the node, and is stored once, before the node's release).
template <class X, class Key, class P, class Ptr>
GPULIN_HD void flush_cur(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t cur, bool changed) {
  if (changed) x.store_block(h.node(cur), s.c, h.k);
}

// The sift-down of a delete (lines 17-38), with B[cur] kept in s.c: per level it
// loads the two children once and stores each changed node once.
template <class X, class Key, class P, class Ptr>
GPULIN_HD void td_sift_down(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, bool changed) {
  const uint32_t k = h.k;
  uint32_t cur = 1;
  for (;;) {                                                 // line 17
    const uint32_t l = 2 * cur, r = 2 * cur + 1;             // line 18
    // A child beyond the allocated nodes is absent (the figure has no bound).
    uint32_t lstate = TARGET, rstate = TARGET;
    if (h.fixed() && r <= h.capacity) {
      // fixed: both children are tried whatever the left one's state, so both
      // CASes go out together (ms_lock.h says why their order cannot matter).
      const exec::WordPair both = ms_trylock_both_while_inuse(x, h, l, r, AVAIL);
      lstate = both.first;
      rstate = both.second;
    } else {
      lstate = l <= h.capacity ? ms_trylock_while_inuse(x, h, l, AVAIL) : TARGET;
      if (!h.fixed() && lstate != AVAIL) {                   // lines 20-24
        flush_cur(x, h, s, cur, changed);
        ms_unlock(x, h, cur, INUSE, AVAIL);
        return;
      }
      rstate = r <= h.capacity ? ms_trylock_while_inuse(x, h, r, AVAIL) : TARGET;  // lines 25-26
    }
    if (lstate != AVAIL && rstate != AVAIL) {
      flush_cur(x, h, s, cur, changed);
      ms_unlock(x, h, cur, INUSE, AVAIL);
      return;
    }
    if (lstate != AVAIL || rstate != AVAIL) {
      // One child present (lines 27-29 for a missing right child). fixed: a missing
      // LEFT child (an insert's TARGET) does not hide a present right child, whose
      // batch may now be smaller than B[cur] (finding F3).
      const uint32_t only = lstate == AVAIL ? l : r;
      x.load_block(s.a, h.node(only), k);
      if (merge_and_sort(x, s.c, k, s.a, k, s.merged) == MergeShape::AlreadyOrdered) {  // line 28
        flush_cur(x, h, s, cur, changed);
        ms_unlock_pair(x, h, cur, only);                     // lines 37-38
        return;
      }
      x.store_block(h.node(cur), s.merged, k);
      if (!h.fixed()) {
        x.store_block(h.node(only), s.merged + k, k);
        ms_unlock(x, h, cur, INUSE, AVAIL);                  // line 37
        ms_unlock(x, h, only, INUSE, AVAIL);                 // line 38
        return;
      }
      // fixed: the figure stops here, as if `only` had no children: true while
      // inserts reach their targets in reservation order, but the fixed BU insert
      // starts below inserts still walking down (bu_insert.h), so `only` may have
      // children filled beside its sibling's empty TARGET. Sift on (finding F10).
      ms_unlock(x, h, cur, INUSE, AVAIL);
      block_copy(x, s.c, s.merged + k, k);
      changed = true;
      cur = only;
      continue;
    }
    // line 31: (B[small], B[big]) = MergeAndSort(B[l], B[r]); B[big] is stored now,
    // B[small] only if the walk stops here (else it merges with B[cur] first).
    const auto [small, big, moved] = split_children(x, h, s, l, r);
    if (moved) x.store_block(h.node(big), s.merged + k, k);
    const bool stops = !(s.merged[0] < s.c[k - 1]);          // line 33: property holds
    // fixed: unless the walk stops here, B[big] is released with B[cur] (line 35),
    // in one release: only an operation holding B[cur] could go on to B[big], so
    // nothing that waits for it waits longer, and a hold ends one fence sooner.
    // (A delete taking B[big] as its last node, or an insert claiming it, would
    // wait one merge longer: only where big is among the last nodes.)
    if (!h.fixed() || stops) ms_unlock(x, h, big, INUSE, AVAIL);  // line 32
    if (stops) {
      flush_cur(x, h, s, cur, changed);
      if (moved) x.store_block(h.node(small), s.merged, k);
      ms_unlock_pair(x, h, cur, small);                      // lines 37-38
      return;
    }
    // line 34: (B[cur], B[small]) = MergeAndSort(B[cur], B[small]); a and b are free
    // now and together hold the 2k outputs.
    merge_and_sort(x, s.c, k, s.merged, k, s.a);
    x.store_block(h.node(cur), s.a, k);
    if (h.fixed())
      ms_unlock_pair(x, h, cur, big);                        // line 35 (and line 32, fixed)
    else
      ms_unlock(x, h, cur, INUSE, AVAIL);                    // line 35
    block_copy(x, s.c, s.a + k, k);
    changed = true;                                          // B[small] is now s.c, not yet stored
    cur = small;                                             // line 36
  }
}

// Deletes into s.items; returns the number of keys.
template <exec::CountedWords X, class Key, class P, class Ptr>
  requires exec::PairedWords<X> && exec::BulkData<X> && exec::Recording<X>
GPULIN_HD uint32_t td_delete(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s) {
  const uint32_t k = h.k;
  uint32_t n = 0, count = 0, psize = 0;
  // fixed: line 7's read of B[1] waits until the last node is locked too, so that
  // both come in one step (the root's hold is what bounds deletes, §5).
  // (The early-root-release mutant reads it first: it releases a root it has read.)
  constexpr bool read_root_later = P::variant == Variant::Fixed && P::mutant != Mutant::EarlyRootRelease;
  if (!delete_at_root(x, h, s, &n, &count, !read_root_later, &psize)) return n;  // lines 1-7
  // fixed: psize came with lastelem (the root's words, read once a hold).
  bool have_psize = h.fixed();
  if constexpr (P::mutant == Mutant::EarlyRootRelease) {
    // Mutant: the root is released with the old batch still in it, then retaken.
    ms_unlock(x, h, 1, INUSE, AVAIL);
    ms_lock(x, h, 1, AVAIL, INUSE);
    count = 0;  // read again: they may have changed while the root was free
    have_psize = false;
  }
  const uint32_t tar = take_last(x, h, count);               // line 8
  if (tar == 1) {
    // Reading R6 (both): Fig. 4(c) line 5 returns when the root was the last node;
    // Fig. 10 would MS_LOCK the root it holds and wait forever.
    if (read_root_later) x.load_block(s.items, h.node(1), k);
    clear_node(x, h, s, 1);
    ms_unlock(x, h, 1, INUSE, AVAIL);
    return n;
  }
  // lines 9-10. Reading R4: MS_TRYLOCK returns the old state, so the hand-off branch
  // is the CAS's success (old == TARGET); line 10's "== MARKED" would never hold.
  // fixed: a last node free at once is read together with B[1]; otherwise B[1] is
  // read first, before a hand-off can overwrite it.
  const bool read_both = read_root_later && ms_trylock(x, h, tar, AVAIL, INUSE) == AVAIL;
  if (read_root_later && !read_both) x.load_block(s.items, h.node(1), k);
  if (!read_both && ms_trylock(x, h, tar, TARGET, MARKED) == TARGET) {
    wait_for_state(x, h, tar, AVAIL);                        // line 11: the insert put its batch in B[1]
    x.load_block(s.c, h.node(1), k);
  } else {
    if (!read_both) ms_lock(x, h, tar, AVAIL, INUSE);        // line 13
    if (read_both)
      x.load_two_blocks(s.c, h.node(tar), h.node(1), k);    // s.c = B[tar], s.items = B[1] (adjacent)
    else
      x.load_block(s.c, h.node(tar), k);                     // line 14: B[1] = B[tar] (stored by the sift)
    clear_node(x, h, s, tar);
    ms_unlock(x, h, tar, INUSE, AVAIL);                      // line 15
  }
  // line 16: (B[1], pBuffer) = MergeAndSort(B[1], pBuffer), B[1] still in s.c
  // (stored by the sift).
  const uint32_t p = have_psize ? buffered_keys(h, psize) : buffered_keys(x, h);
  if (p != 0 && merge_with_buffer(x, h, s, s.c, p)) {
    block_copy(x, s.c, s.merged, k);
    x.store_block(h.pbuffer, s.merged + k, p);
  }
  td_sift_down(x, h, s, /*changed=*/true);
  return n;
}

}  // namespace gpulin::gheap
