// The multi-state lock macros of Fig. 10, with the recording the proofs need:
// `acq` right after a node is won into INUSE, `rel` right before it leaves INUSE
// (../shared/design.md, Recording). Only INUSE is a hold: TARGET, MARKED, INSHOLD
// and DELMOD are claims on a node that other operations may act on.
#pragma once

#include <cstdint>

#include "structures/gheap/config.h"

namespace gpulin::gheap {

// MS_TRYLOCK(x, A, B): one CAS; returns the OLD state (success iff it equals A).
// Taking a node (to INUSE) is an acquire only (exec::acquire): it publishes nothing.
template <class X, class Key, class P>
GPULIN_HD uint32_t ms_trylock(X& x, const HeapView<Key, P>& h, uint32_t node, uint32_t from, uint32_t to) {
  uint32_t old = to == INUSE ? x.cas(h.lock(node), from, to, exec::acquire) : x.cas(h.lock(node), from, to);
  if (old == from && to == INUSE && from != INUSE) x.record_acq(node);
  return old;
}

// MS_LOCK(x, A, B): while (CAS(state(x), A, B) != A). Between attempts the actor
// waits for the word to change, so a blocked actor is visibly blocked. Every lock
// but the root's is taken while the operation holds the root or a parent, which
// others queue behind: such a waiter re-tries without sleeping (exec::holding).
template <class X, class Key, class P>
GPULIN_HD void ms_lock(X& x, const HeapView<Key, P>& h, uint32_t node, uint32_t from, uint32_t to) {
  const auto won = [from](uint32_t old) { return old == from; };
  if (to == INUSE) {  // taking the node: acquire only (ms_trylock)
    if (node == 1)
      x.cas_until(h.lock(node), from, to, won, exec::acquire);
    else
      x.cas_until(h.lock(node), from, to, won, exec::holding, exec::acquire);
  } else if (node == 1) {
    x.cas_until(h.lock(node), from, to, won);
  } else {
    x.cas_until(h.lock(node), from, to, won, exec::holding);
  }
  if (to == INUSE) x.record_acq(node);
}

// "while (s == INUSE) s = MS_TRYLOCK(x, A, INUSE)": try until the node is not held
// by someone else; returns the state seen when the attempt stopped (A on success).
// Always below a node the caller holds (a child in the sift-down).
template <class X, class Key, class P>
GPULIN_HD uint32_t ms_trylock_while_inuse(X& x, const HeapView<Key, P>& h, uint32_t node, uint32_t from) {
  const uint32_t old =
      x.cas_until(h.lock(node), from, INUSE, [](uint32_t o) { return o != INUSE; }, exec::holding, exec::acquire);
  if (old == from) x.record_acq(node);
  return old;
}

// Two children at once (the fixed heaps' sift-down, lines 19-26): both CASes in one
// round trip, each then retried alone while its node is held (INUSE). Returns the
// states seen as ms_trylock_while_inuse does. The GPU may perform the two CASes in
// either order; no other actor can tell: only the holder of their parent tries to
// lock both siblings, and every other access to one of them (an insert's TARGET
// claim, a delete's take of the last node, a descent from the parent) concerns that
// node alone. Holding one child while waiting for the other keeps the locks' order
// (top-down; a waiter never holds a node above the one it waits for), so no cycle.
template <class X, class Key, class P>
GPULIN_HD exec::WordPair ms_trylock_both_while_inuse(X& x, const HeapView<Key, P>& h, uint32_t a, uint32_t b,
                                                    uint32_t from) {
  exec::WordPair s = x.cas_pair(h.lock(a), from, INUSE, h.lock(b), from, INUSE, exec::acquire);
  if (s.first == from) x.record_acq(a);
  if (s.second == from) x.record_acq(b);
  if (s.first == INUSE) s.first = ms_trylock_while_inuse(x, h, a, from);
  if (s.second == INUSE) s.second = ms_trylock_while_inuse(x, h, b, from);
  return s;
}

// MS_UNLOCK(x, A, B): CAS(state(x), A, B). In the fixed heaps a release that finds
// the node in another state is an impossible state and fails the run loudly (a
// release of INUSE is x.release, whose simulator check fails it there; the GPU
// stores without reading).
template <class X, class Key, class P>
GPULIN_HD void ms_unlock(X& x, const HeapView<Key, P>& h, uint32_t node, uint32_t from, uint32_t to) {
  if constexpr (P::mutant == Mutant::LostRootRelease)
    if (node == 1 && from == INUSE) return;  // mutant: the root stays held, and every later operation waits on it
  if (from == INUSE) x.record_rel(node);
  if constexpr (P::variant == Variant::Fixed) {
    // Only the holder changes an INUSE word in the fixed heaps (every other
    // access is a CAS from another state), so the release needs no CAS and the
    // actor does not wait for it: a hold ends one round trip sooner (the
    // simulator still checks the word, exec/context.h).
    if (from == INUSE) {
      x.release(h.lock(node), INUSE, to);
      x.after_release(node);
      return;
    }
  }
  uint32_t old = x.cas(h.lock(node), from, to);
  if (from == INUSE) x.after_release(node);
  if (old != from && h.fixed()) x.fail("lock release found the node in an unexpected state");
}

// MS_UNLOCK(a, INUSE, AVAIL); MS_UNLOCK(b, INUSE, AVAIL). fixed: in one release
// (one fence for both, exec/context.h's release_pair).
template <class X, class Key, class P>
GPULIN_HD void ms_unlock_pair(X& x, const HeapView<Key, P>& h, uint32_t a, uint32_t b) {
  if constexpr (P::variant == Variant::Fixed && P::mutant != Mutant::LostRootRelease) {
    x.record_rel(a);
    x.record_rel(b);
    x.release_pair(h.lock(a), h.lock(b), INUSE, AVAIL);
    x.after_release(a);
    x.after_release(b);
  } else {
    ms_unlock(x, h, a, INUSE, AVAIL);
    ms_unlock(x, h, b, INUSE, AVAIL);
  }
}

// Waits until the node's state is `want` (a delete holding the root, for the
// insert it handed the root's batch to).
template <class X, class Key, class P>
GPULIN_HD void wait_for_state(X& x, const HeapView<Key, P>& h, uint32_t node, uint32_t want) {
  for (;;) {
    uint32_t s = x.load(h.lock(node));
    if (s == want) return;
    x.wait_while_equals(h.lock(node), s, exec::holding);
  }
}

}  // namespace gpulin::gheap
