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

template <class X, class Key>
GPULIN_HD void bu_insert_fixed(X& x, const HeapView<Key>& h, const Scratch<Key>& s, uint32_t me) {
  uint32_t cur = reserve_target(x, h);
  if (cur != 1) {
    // An emptied node may still carry an old claim (DELMOD of an insert that has not
    // come back): take it anyway, so that the root holder never waits for an insert
    // that waits for the root.
    take_node(x, h, cur);
    ms_unlock(x, h, 1, INUSE, AVAIL);
  }
  x.store_block(h.node(cur), s.items, h.k);
  const uint32_t mine = owned(INSHOLD, me), modified = owned(DELMOD, me);
  while (cur != 1) {
    const uint32_t par = cur >> 1;
    ms_unlock(x, h, cur, INUSE, mine);
    ms_lock(x, h, par, AVAIL, INUSE);                        // waits through INUSE, INSHOLD, DELMOD
    bool own_batch = false;
    for (;;) {
      const uint32_t st = x.load(h.lock(cur));
      if (st == INUSE) {
        x.wait_while_equals(h.lock(cur), INUSE);
      } else if (st == mine || (st == modified && h.mutant == Mutant::IgnoreDelmod)) {
        if (x.cas(h.lock(cur), st, INUSE) == st) {
          x.record_acq(cur);
          own_batch = true;
          break;
        }
      } else if (st == modified) {
        // A delete changed the batch: keys of ours may now sit in par, so continue
        // from there (§3.3.4 case 2). This insert owns the mark and clears it.
        if (x.cas(h.lock(cur), st, AVAIL) == st) break;
      } else {
        break;  // the node was emptied and claimed by someone else: our batch moved up
      }
    }
    if (own_batch) {
      const bool merged = bubble_step(x, h, s, par, cur);
      ms_unlock(x, h, cur, INUSE, AVAIL);
      if (!merged) {
        ms_unlock(x, h, par, INUSE, AVAIL);
        return;
      }
    }
    cur = par;
  }
  ms_unlock(x, h, 1, INUSE, AVAIL);
}

// Inserts s.items[0, n), 1 <= n <= k; `me` is the actor's id (owner of its claims).
template <class X, class Key>
GPULIN_HD void bu_insert(X& x, const HeapView<Key>& h, const Scratch<Key>& s, uint32_t n, uint32_t me) {
  if (!insert_at_root(x, h, s, n)) return;                   // lines 1-10
  if (h.fixed())
    bu_insert_fixed(x, h, s, me);
  else
    bu_insert_paper(x, h, s);
}

}  // namespace gpulin::gheap
