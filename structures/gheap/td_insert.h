// Top-down insert of the TD-INS/TD-DEL heap (§3.3.2, Fig. 10 left; line numbers as
// in ../shared/papers/generalized-heap-figures.md). Both variants are here, side by
// side; docs/findings.md says why they differ.
#pragma once

#include <cstdint>

#include "structures/gheap/bit_reversal.h"
#include "structures/gheap/root_prologue.h"

namespace gpulin::gheap {

// Line 11 and lines 12-13: reserves the next node in fill order (root held) and
// claims it as TARGET, empty until the insert arrives.
// `lastelem`: as read under this hold of the root (fixed), else read here.
template <class X, class Key, class P>
GPULIN_HD uint32_t reserve_and_claim_target(X& x, const HeapView<Key, P>& h, uint32_t lastelem_read, bool have_read) {
  const uint32_t tar = reserve_target(x, h, have_read ? lastelem_read + 1 : 0);  // line 11
  // Reading R2: line 13 prints MS_LOCK(tar, AVAIL, INUSE) but line 21 expects the
  // target in TARGET; with INUSE even a one-actor run writes the root (both variants
  // read TARGET).
  if (tar != 1) ms_lock(x, h, tar, AVAIL, TARGET);           // lines 12-13
  return tar;
}

// Lines 14-26: the batch s.items goes down the insert path from `start` (held
// INUSE, an ancestor of tar or tar == start == 1) to the claimed target, hand over
// hand, each node keeping the smaller half. The TD insert starts at the root; the
// fixed BU insert (bu_insert.h) starts lower, where the bottom-up insert would stop.
// `start_batch`: B[start] as read already under this hold (fixed, from the root),
// or null to read it here.
template <class X, class Key, class P, class Ptr>
GPULIN_HD void insert_descend(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t tar, uint32_t start,
                              Ptr start_batch = nullptr) {
  const uint32_t k = h.k;
  uint32_t cur = start;
  uint32_t steps_left = floor_log2(tar) - floor_log2(start);  // cur = tar >> steps_left
  while (cur != tar) {                                       // line 14
    // line 15. fixed: not at the root: only a delete holding the root can mark the
    // target, and this insert holds it there. Relaxed: the walk only leaves on it;
    // the acquire that orders this insert after the delete that marked the target
    // is line 21's CAS, which reads the MARKED.
    if (!(h.fixed() && cur == 1) && x.load(h.lock(tar), exec::relaxed) == MARKED) break;
    // line 16: (B[cur], items) = MergeAndSort(B[cur], items)
    Ptr batch = s.a;
    if (cur == start && start_batch)
      batch = start_batch;
    else
      x.load_block(s.a, h.node(cur), k);
    if (merge_and_sort(x, batch, k, s.items, k, s.merged) != MergeShape::AlreadyOrdered) {
      x.store_block(h.node(cur), s.merged, k);
      block_copy(x, s.items, s.merged + k, k);
    }
    const uint32_t next = tar >> --steps_left;               // line 17
    if (next != tar) {                                       // line 18
      if constexpr (P::mutant == Mutant::UnlockBeforeLock) {
        ms_unlock(x, h, cur, INUSE, AVAIL);
        ms_lock(x, h, next, AVAIL, INUSE);
      } else {
        ms_lock(x, h, next, AVAIL, INUSE);                   // line 19
        ms_unlock(x, h, cur, INUSE, AVAIL);                  // line 20
      }
    } else if (!h.fixed()) {
      // Reading R3 (paper): line 20 also runs at the step that reaches the target,
      // so the target's parent is released before the target is written.
      ms_unlock(x, h, cur, INUSE, AVAIL);
    }
    // fixed: at the target the parent stays held until B[tar] is written, so no
    // delete can sift larger keys into the parent in between (finding F2).
    cur = next;
  }
  const uint32_t tstate = ms_trylock(x, h, tar, TARGET, INUSE);   // line 21
  const uint32_t dest = tstate == TARGET ? tar : 1;               // line 22
  x.store_block(h.node(dest), s.items, k);                        // line 23
  if (!h.fixed()) {
    // Lines 24-26 as printed: on a hand-off dest is the root, held by the waiting
    // delete; CAS(state(1), state(1), AVAIL) releases it, and the target stays
    // MARKED, which that delete waits on (finding F1).
    if (dest != cur) {
      uint32_t* root = h.lock(dest);
      if (counts<X>(dest))  // dest is the root
        x.cas(root, lock_state(x.load(root)), AVAIL, exec::counted);
      else
        x.cas(root, x.load(root), AVAIL);
    }
    ms_unlock(x, h, cur, INUSE, AVAIL);
    return;
  }
  // fixed: release what this operation holds. On a hand-off (dest == 1) the target is
  // MARKED and the delete waits for it to become AVAIL; B[1] is written before that.
  if (tar == 1) {
    ms_unlock(x, h, 1, INUSE, AVAIL);
    return;
  }
  // cur is the target's parent when the walk completed, or the node where the walk
  // saw MARKED.
  const uint32_t parent = cur == tar ? tar >> 1 : cur;
  if (dest == 1) {
    x.cas(h.lock(tar), MARKED, AVAIL, exec::release);  // publishes B[1]; reads nothing after
    ms_unlock(x, h, parent, INUSE, AVAIL);
  } else {
    ms_unlock_pair(x, h, tar, parent);  // both at once (one fence)
  }
}

// Inserts s.items[0, n), 1 <= n <= k.
template <exec::CountedWords X, class Key, class P, class Ptr>
  requires exec::PairedWords<X> && exec::BulkData<X> && exec::Recording<X>
GPULIN_HD void td_insert(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t n) {
  uint32_t last = 0;
  if (!insert_at_root(x, h, s, n, &last)) return;            // lines 1-10
  insert_descend(x, h, s, reserve_and_claim_target(x, h, last, h.fixed()), 1, h.fixed() ? s.c : nullptr);
}

}  // namespace gpulin::gheap
