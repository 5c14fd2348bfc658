// Bottom-up insert of the BU-INS/TD-DEL heap (§3.3.4, Fig. 12 left; after Hunt,
// Michael, Parthasarathy and Scott 1996). Both variants.
//
// Why the fixed variant names the owner in INSHOLD and DELMOD (finding F5): an
// insert leaves its batch as INSHOLD while it waits for the parent. A delete may
// take that batch (as the last node, or while sifting) and mark the node DELMOD. If
// the state carried no owner, the node could be emptied, reserved again by another
// insert and left INSHOLD by it, and the first insert would take the stranger's
// batch for its own (ABA). Hunt et al. store the owner's pid for this reason; the
// paper says it does not need to. Here the owner is the actor id in the state's
// upper bits, every INSHOLD/DELMOD is resolved by its owner before the owner's
// operation returns, and a node whose claim is another's counts as "moved".
#pragma once

#include <cstdint>

#include "structures/gheap/bit_reversal.h"
#include "structures/gheap/root_prologue.h"
#include "structures/gheap/bu_delete.h"
#include "structures/gheap/td_delete.h"

namespace gpulin::gheap {

// (B[par], B[cur]) = MergeAndSort(B[par], B[cur]) unless property 1 already holds
// between them (line 30). Returns true when it merged.
template <class X, class Key>
GPULIN_HD bool bubble_step(X& x, const HeapView<Key>& h, const Scratch<Key>& s, uint32_t par, uint32_t cur) {
  if (property_holds(x, h, s, par, cur)) return false;       // line 30
  merge_nodes(x, h, s, par, cur);                            // line 33
  return true;
}

template <class X, class Key>
GPULIN_HD void bu_insert_paper(X& x, const HeapView<Key>& h, const Scratch<Key>& s) {
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
      pstate = ms_trylock(x, h, par, AVAIL, INUSE);
      if (pstate == INUSE || pstate == INSHOLD) x.wait_while_equals(h.lock(par), pstate);
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

// Locks `par` for the insert `me`: waits while another operation holds it or
// another insert has claimed it (Hunt et al.: never merge with a parent that holds
// someone's batch in flight, it may still be above its own parent's keys). Returns
// true when the parent was claimed by `me` itself: a delete moved keys of ours up
// into it, so the walk must go on from there.
template <class X, class Key>
GPULIN_HD bool lock_parent_for(X& x, const HeapView<Key>& h, uint32_t par, uint32_t me) {
  for (;;) {
    const uint32_t st = x.load(h.lock(par));
    const bool ours = st == owned(INSHOLD, me) || st == owned(DELMOD, me);
    if (st == AVAIL || ours) {
      if (x.cas(h.lock(par), st, INUSE) == st) {
        x.record_acq(par);
        return ours;
      }
      continue;
    }
    x.wait_while_equals(h.lock(par), st);
  }
}

template <class X, class Key>
GPULIN_HD void bu_insert_fixed(X& x, const HeapView<Key>& h, const Scratch<Key>& s, uint32_t me) {
  uint32_t cur = reserve_target(x, h);
  if (cur != 1) {
    // An emptied node may still carry an old claim (DELMOD of an insert whose batch
    // a refill moved to the root): take it anyway, so that the root holder never
    // waits for an insert that waits for the root.
    take_node(x, h, cur);
    ms_unlock(x, h, 1, INUSE, AVAIL);
  }
  x.store_block(h.node(cur), s.items, h.k);
  const uint32_t mine = owned(INSHOLD, me), modified = owned(DELMOD, me);
  // Invariant of the walk: property 1 holds on every edge except possibly the one
  // above a node this insert has claimed (its own batch, or a node into which a
  // delete moved keys of its batch), and below such a node it holds.
  while (cur != 1) {
    const uint32_t par = cur >> 1;
    ms_unlock(x, h, cur, INUSE, mine);
    const bool par_claimed = lock_parent_for(x, h, par, me);
    enum { Own, Modified, Moved } found = Moved;
    for (;;) {
      const uint32_t st = x.load(h.lock(cur));
      if (st == INUSE) {
        x.wait_while_equals(h.lock(cur), INUSE);
        continue;
      }
      if (st != mine && st != modified) break;  // claimed by another, or emptied and reused
      if (x.cas(h.lock(cur), st, INUSE) == st) {
        x.record_acq(cur);
        found = st == mine || h.mutant == Mutant::IgnoreDelmod ? Own : Modified;
        break;
      }
    }
    bool go_on = par_claimed;
    if (found != Moved) {
      const bool merged = bubble_step(x, h, s, par, cur);
      ms_unlock(x, h, cur, INUSE, AVAIL);
      // A delete that touched our batch (Modified) may have moved some of it into
      // par already, so the walk continues even when this edge holds.
      go_on = go_on || merged || found == Modified;
    }
    // Moved: the batch is someone else's now (the node was emptied by a refill that
    // put our keys in the root, and reused) - nothing of ours is left below par.
    if (!go_on) {
      ms_unlock(x, h, par, INUSE, AVAIL);
      return;
    }
    cur = par;
  }
  ms_unlock(x, h, 1, INUSE, AVAIL);
}

// fixed, a batch formed from the partial buffer (F8): it carries keys of inserts
// that have completed, which must stay visible to deletes, so it goes down from the
// root as in the TD heap (hand over hand, each node on the path keeping the smaller
// keys, the target's parent held until the target is written). Nodes on the path may
// be claimed by bottom-up inserts; they are taken like a delete takes them, and an
// owner whose batch was merged finds DELMOD.
template <class X, class Key>
GPULIN_HD void bu_walk_down(X& x, const HeapView<Key>& h, const Scratch<Key>& s) {
  const uint32_t k = h.k;
  const uint32_t tar = reserve_target(x, h);
  if (tar == 1) {
    x.store_block(h.node(1), s.items, k);
    ms_unlock(x, h, 1, INUSE, AVAIL);
    return;
  }
  // The target is empty; it stays TARGET while this insert walks down, so that a
  // delete sifting past it treats it as absent instead of waiting for us while we
  // wait for the node it holds (an old claim on it is taken over, see bu_insert_fixed).
  for (;;) {
    const uint32_t st = x.load(h.lock(tar));
    if (st == INUSE) {
      x.wait_while_equals(h.lock(tar), INUSE);
    } else if (x.cas(h.lock(tar), st, TARGET) == st) {
      break;
    }
  }
  uint32_t cur = 1, cur_release = AVAIL;
  uint32_t steps_left = floor_log2(tar);
  for (;;) {
    // (B[cur], items) = MergeAndSort(B[cur], items)
    x.load_block(s.a, h.node(cur), k);
    if (merge_and_sort(x, s.a, k, s.items, k, s.merged) != MergeShape::AlreadyOrdered) {
      x.store_block(h.node(cur), s.merged, k);
      block_copy(x, s.items, s.merged + k, k);
    }
    const uint32_t next = tar >> --steps_left;
    if (next == tar) break;
    const uint32_t old = take_node(x, h, next);
    ms_unlock(x, h, cur, INUSE, cur_release);
    cur = next;
    cur_release = release_state(old);
  }
  x.store_block(h.node(tar), s.items, k);
  x.cas(h.lock(tar), TARGET, AVAIL);
  ms_unlock(x, h, cur, INUSE, cur_release);
}

// Inserts s.items[0, n), 1 <= n <= k; `me` is the actor's id (owner of its claims).
template <class X, class Key>
GPULIN_HD void bu_insert(X& x, const HeapView<Key>& h, const Scratch<Key>& s, uint32_t n, uint32_t me) {
  if (!h.fixed()) {
    if (insert_at_root(x, h, s, n)) bu_insert_paper(x, h, s);  // lines 1-10, then 11-36
    return;
  }
  if (n == h.k) {
    // fixed: a full batch goes up from the bottom with only its own keys; the
    // partial buffer stays as it is (property 3 survives: the root only shrinks).
    // Into an empty heap it becomes the root, which must trade with the buffer.
    block_sort(x, s.items, n, s.merged);
    ms_lock(x, h, 1, AVAIL, INUSE);
    if (x.load(h.lastelem) != 0) {
      bu_insert_fixed(x, h, s, me);
      return;
    }
    ms_unlock(x, h, 1, INUSE, AVAIL);
  }
  if (insert_at_root(x, h, s, n)) bu_walk_down(x, h, s);
}

}  // namespace gpulin::gheap
