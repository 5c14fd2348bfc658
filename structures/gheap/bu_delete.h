// Delete of the BU-INS/TD-DEL heap (Fig. 12 right). Both variants.
#pragma once

#include <cstdint>

#include "structures/gheap/bit_reversal.h"
#include "structures/gheap/root_prologue.h"
#include "structures/gheap/td_delete.h"

namespace gpulin::gheap {

// The state a delete leaves on a node it took from `old` (lines 21-22, 25, 27-28):
// an insert's INSHOLD becomes DELMOD so that the insert knows its batch changed.
GPULIN_HD inline uint32_t release_state(uint32_t old) { return old == INSHOLD ? DELMOD : old; }

// paper lines 17-20: "while (s == INUSE) s = MS_TRYLOCK(x, state(x), INUSE)": the
// read of state(x) and the CAS are two steps.
template <class X, class Key, class P>
GPULIN_HD uint32_t take_child_paper(X& x, const HeapView<Key, P>& h, uint32_t node) {
  for (;;) {
    const uint32_t seen = x.load(h.lock(node));
    const uint32_t old = x.cas(h.lock(node), seen, INUSE);
    if (old != INUSE) {
      if (old == seen) x.record_acq(node);
      return old;
    }
    x.wait_while_equals(h.lock(node), INUSE);
  }
}

// Deletes into s.items; returns the number of keys. The `fixed` heap's inserts never
// leave a batch in the heap for others to find (bu_insert.h), so its delete is the
// TD heap's, hand-off to a walking insert included.
template <exec::CountedWords X, class Key, class P, class Ptr>
  requires exec::PairedWords<X> && exec::BulkData<X> && exec::Recording<X>
GPULIN_HD uint32_t bu_delete(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s) {
  if (h.fixed()) return td_delete(x, h, s);
  uint32_t n = 0, count = 0;
  if (!delete_at_root(x, h, s, &n, &count)) return n;        // lines 1-7
  const uint32_t tar = take_last(x, h, count);               // line 8
  if (tar == 1) {                                            // reading R6, as in td_delete.h
    clear_node(x, h, s, 1);
    ms_unlock(x, h, 1, INUSE, AVAIL);
    return n;
  }
  ms_lock(x, h, tar, AVAIL, INUSE);                          // line 9
  move_to_root(x, h, s, tar);                                // line 10
  ms_unlock(x, h, tar, INUSE, AVAIL);                        // line 11
  merge_root_with_buffer(x, h, s);                           // line 12
  // line 13 prints cstate = INUSE, which would release the root as INUSE and lock
  // it for good after the first delete (reading R7: the root was taken from AVAIL).
  uint32_t cur = 1, cstate = AVAIL;
  for (;;) {                                                 // line 14
    const uint32_t l = 2 * cur, r = 2 * cur + 1;             // line 15
    // lines 16-22: children are taken in any state; empty ones hold MAX_VALUE. No
    // bound is printed: a child beyond the allocated nodes is absent.
    const uint32_t lold = l > h.capacity ? TARGET : take_child_paper(x, h, l);
    const uint32_t rold = r > h.capacity || lold == TARGET ? TARGET : take_child_paper(x, h, r);
    const uint32_t lstate = release_state(lold), rstate = release_state(rold);
    if (lold == TARGET || rold == TARGET) {
      if (lold == TARGET) {
        ms_unlock(x, h, cur, INUSE, cstate);
        return n;
      }
      merge_nodes(x, h, s, cur, l);
      ms_unlock(x, h, cur, INUSE, cstate);
      ms_unlock(x, h, l, INUSE, lstate);
      return n;
    }
    uint32_t big = 0;
    const uint32_t small = merge_children(x, h, s, l, r, &big);  // lines 23-24
    ms_unlock(x, h, big, INUSE, big == r ? rstate : lstate);      // line 25
    const uint32_t small_state = small == l ? lstate : rstate;
    if (property_holds(x, h, s, cur, small)) {               // line 26
      ms_unlock(x, h, cur, INUSE, cstate);                   // line 27
      ms_unlock(x, h, small, INUSE, small_state);            // line 28
      return n;
    }
    x.block_sync();  // line 30 reloads what line 26 compared (bu_insert.h's bubble_step)
    merge_nodes(x, h, s, cur, small);                        // line 30
    ms_unlock(x, h, cur, INUSE, cstate);                     // line 31
    cur = small;                                             // line 32
    cstate = small_state;
  }
}

}  // namespace gpulin::gheap
