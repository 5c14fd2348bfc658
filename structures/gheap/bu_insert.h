// Bottom-up insert of the BU-INS/TD-DEL heap (§3.3.4, Fig. 12 left; after Hunt,
// Michael, Parthasarathy and Scott 1996). The `paper` variant follows the figure:
// the batch waits in the heap as INSHOLD for its parent, and a delete that touches
// it marks it DELMOD. The `fixed` variant keeps the batch out of the heap until it
// is merged under held locks (docs/findings.md, F5-F9 say why).
#pragma once

#include <cstdint>

#include "structures/gheap/bit_reversal.h"
#include "structures/gheap/root_prologue.h"
#include "structures/gheap/td_delete.h"
#include "structures/gheap/td_insert.h"

namespace gpulin::gheap {

// (B[par], B[cur]) = MergeAndSort(B[par], B[cur]) unless property 1 already holds
// between them (line 30). Returns true when it merged.
template <class X, class Key, class P, class Ptr>
GPULIN_HD bool bubble_step(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t par, uint32_t cur) {
  if (property_holds(x, h, s, par, cur)) return false;       // line 30
  // Line 33 loads the two batches line 30 compared again: every thread's
  // comparison first (without the barrier the reload races with it).
  x.block_sync();
  merge_nodes(x, h, s, par, cur);                            // line 33
  return true;
}

template <class X, class Key, class P, class Ptr>
GPULIN_HD void bu_insert_paper(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s) {
  uint32_t cur = reserve_target(x, h);                       // line 11
  if (cur != 1) {                                            // line 12
    ms_lock(x, h, cur, AVAIL, INUSE);                        // line 13
    ms_unlock(x, h, 1, INUSE, AVAIL);                        // line 14
  }
  x.store_block(h.node(cur), s.items, h.k);                  // line 15
  while (cur != 1) {                                         // line 16
    const uint32_t par = cur >> 1;
    ms_unlock(x, h, cur, INUSE, INSHOLD);                    // line 17
    uint32_t pstate = INUSE;                                 // lines 18-20
    while (pstate == INUSE || pstate == INSHOLD) {
      uint32_t seen = 0;  // the word (the root's has its count)
      pstate = ms_trylock(x, h, par, AVAIL, INUSE, &seen);
      if (pstate == INUSE || pstate == INSHOLD) x.wait_while_equals(h.lock(par), seen);
    }
    if (pstate != AVAIL) return;                             // line 21: leaves cur INSHOLD
    const uint32_t cstate = ms_trylock_while_inuse(x, h, cur, INSHOLD);  // lines 22-23
    if (cstate == DELMOD) {                                  // line 24
      // Lines 25-29 are lost; §3.3.4: "the insert operation can move to the parent
      // batch". Nothing shown clears the DELMOD left on cur (finding F4).
      cur = par;
      continue;
    }
    // cstate is INSHOLD (now INUSE) or, with no owner in the state, anything a
    // stranger left: the figure proceeds as if the batch were its own.
    if (!bubble_step(x, h, s, par, cur)) {                   // lines 30-32 (lost): both released
      ms_unlock(x, h, cur, INUSE, AVAIL);
      ms_unlock(x, h, par, INUSE, AVAIL);
      return;
    }
    ms_unlock(x, h, cur, INUSE, AVAIL);                      // lines 34-35 (lost): move up
    cur = par;
  }
  ms_unlock(x, h, cur, INUSE, AVAIL);                        // line 36
}

// fixed: where the insert path starts. Fig. 4(b) moves the batch up from the target
// until its parent's batch is no larger than the batch's smallest key (line 5),
// which never changes on the way up (the smaller half stays with the batch). Heap
// order makes the ancestors' maxima grow downwards, so that stopping node is the
// deepest ancestor p of tar with max(B[p]) <= items[0]. The ancestors' last keys
// are read in one gather (no locks: a hint only, and one step, because the root is
// held meanwhile); the candidate is then taken with a try-lock, so that the root's
// holder never waits, and checked again under its lock. A node that is held, or
// changed under the hint, makes the walk try its parent; the root, already held,
// always qualifies. Returns the start, held INUSE.
// An ancestor still empty (MAX_VALUE: the TARGET of an insert walking down to it)
// sends the batch to the root: starting below that insert, on its path, would let
// each wait for the other (it for our start, we for its target). From the root we
// follow it hand over hand, as the TD heap does. While the root is held no node on
// the path can become such a target (targets are reserved under the root lock).
template <class X, class Key, class P, class Ptr>
GPULIN_HD uint32_t bu_start_node(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t tar) {
  const uint32_t last = h.k - 1;
  const Key least = s.items[0];
  constexpr bool compare = P::mutant != Mutant::StartAtParent;
  // Ancestor i (from 0) is tar >> (i + 1); those below the root are read k at a
  // time, into s.a and s.b in turn (one gather when the heap is at most k + 1
  // levels deep). Every thread scans them after the gather's barrier, and nothing
  // orders the scan before the block's next writes but a later barrier: the next
  // gather goes to the other buffer, whose scan ended before this gather's
  // barrier, and when the start is the root the block next merges into s.merged
  // with no barrier first, so the maxima are never there: a thread still scanning
  // would read merged keys and branch apart from its block (docs/findings.md M3).
  // s.a and s.b are next written after a lock's barrier.
  const uint32_t below_root = floor_log2(tar) - 1, room = h.k;
  const Ptr buffers[2] = {s.a, s.b};
  uint32_t i = 0;
  for (uint32_t round = 0; compare && i < below_root; ++round) {
    const Ptr maxima = P::mutant == Mutant::MaximaInMerged ? s.merged : buffers[round % 2];
    const uint32_t n = below_root - i < room ? below_root - i : room;
    x.load_gather(maxima, n, [&](uint32_t j) { return h.node(tar >> (i + j + 1)) + last; });
    uint32_t j = 0;
    for (; j < n && least < maxima[j]; ++j)                  // the batch must go higher
      if (maxima[j] == KeyLimits<Key>::max_value) return 1;
    i += j;
    if (j < n) break;
  }
  for (; i < below_root; ++i) {
    const uint32_t p = tar >> (i + 1);
    if (ms_trylock(x, h, p, AVAIL, INUSE) != AVAIL) continue;
    if (!compare) return p;
    x.load_block(s.a, h.node(p) + last, 1);
    if (!(least < s.a[0])) return p;
    ms_unlock(x, h, p, INUSE, AVAIL);
  }
  return 1;
}

// fixed (finding F9): a full batch finds bottom-up where it belongs and is placed
// top-down from there. The batch stays in the operation's own memory until it is
// merged under locks held hand over hand, as in the TD heap; no batch is ever left
// in the heap out of order waiting for its parent (the INSHOLD state), because a
// delete that merges two such batches spreads their keys where neither owner looks.
// The root is held only to reserve the target and take the start node, so
// inserts do not queue behind each other at the top (the point of §3.3.4).
template <class X, class Key, class P, class Ptr>
GPULIN_HD void bu_insert_fixed(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t n) {
  uint32_t last = 0;
  if (!insert_at_root(x, h, s, n, &last)) return;            // lines 1-10 (partial buffer)
  const uint32_t tar = reserve_and_claim_target(x, h, last, true);
  uint32_t start = 1;
  if (tar != 1) {
    start = bu_start_node(x, h, s, tar);
    if (start != 1) ms_unlock(x, h, 1, INUSE, AVAIL);
  }
  insert_descend(x, h, s, tar, start, start == 1 ? s.c : nullptr);  // s.c: B[1] (insert_at_root)
}

// Inserts s.items[0, n), 1 <= n <= k.
template <exec::CountedWords X, class Key, class P, class Ptr>
  requires exec::PairedWords<X> && exec::BulkData<X> && exec::Recording<X>
GPULIN_HD void bu_insert(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s, uint32_t n) {
  if (!h.fixed()) {
    if (insert_at_root(x, h, s, n)) bu_insert_paper(x, h, s);  // lines 1-10, then 11-36
    return;
  }
  bu_insert_fixed(x, h, s, n);
}

}  // namespace gpulin::gheap
