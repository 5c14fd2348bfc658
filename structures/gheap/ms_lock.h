// The multi-state lock macros of Fig. 10, with the recording the proofs need:
// `acq` right after a node is won into INUSE, `rel` right before it leaves INUSE
// (docs/design.md, Recording). Only INUSE is a hold: TARGET, MARKED, INSHOLD
// and DELMOD are claims on a node that other operations may act on.
#pragma once

#include <cstdint>

#include "structures/gheap/config.h"

namespace gpulin::gheap {

// Whether the word of `node` counts its holds under executor X (config.h).
template <class X>
GPULIN_HD constexpr bool counts(uint32_t node) {
  return X::kCountsHolds && counted_lock(node);
}

// The acq of a node just won from the word `old`: the root's with its number.
template <class X>
GPULIN_HD void record_won(X& x, uint32_t node, uint32_t old) {
  if (counts<X>(node))
    x.record_acq(node, exec::counted_holds(old));
  else
    x.record_acq(node);
}

// MS_TRYLOCK(x, A, B): one CAS; returns the OLD state (success iff it equals A),
// and in *word_out the old word (the root's has its count: config.h), for a
// caller that waits for it to change. Taking a node (to INUSE) is an acquire only
// (exec::acquire): it publishes nothing. A claim (TARGET, MARKED, ...) keeps both
// halves: a delete's MARKED passes on what it acquired with the root (the B[1] of
// the deletes before it), which the insert it hands off to overwrites (td_insert.h,
// line 22); without the release that insert's B[1] is not ordered after theirs
// (docs/findings.md, "Which orderings each structure needs"). No caller tries a node
// from INUSE (that is a release: ms_unlock).
template <class X, class Key, class P>
GPULIN_HD uint32_t ms_trylock(X& x, const HeapView<Key, P>& h, uint32_t node, uint32_t from, uint32_t to,
                              uint32_t* word_out = nullptr) {
  uint32_t old = 0;
  if (counts<X>(node))
    old = to == INUSE ? x.cas(h.lock(node), from, to, exec::counted, exec::acquire)
                      : x.cas(h.lock(node), from, to, exec::counted);
  else
    old = to == INUSE ? x.cas(h.lock(node), from, to, exec::acquire) : x.cas(h.lock(node), from, to);
  if (word_out) *word_out = old;
  const uint32_t state = lock_state(old);
  if (state == from && to == INUSE && from != INUSE) record_won(x, node, old);
  return state;
}

// MS_LOCK(x, A, B): while (CAS(state(x), A, B) != A). Between attempts the actor
// waits for the word to change, so a blocked actor is visibly blocked. Every lock
// but the root's is taken while the operation holds the root or a parent, which
// others queue behind: such a waiter re-tries without sleeping (exec::holding).
// Taking a node is an acquire only (as ms_trylock); a claim below a held node
// (TARGET, MARKED) orders nothing: the claimer reads the node only after it takes
// it to INUSE, with its own acquire.
template <class X, class Key, class P>
GPULIN_HD void ms_lock(X& x, const HeapView<Key, P>& h, uint32_t node, uint32_t from, uint32_t to) {
  const auto won = [from](uint32_t old) { return lock_state(old) == from; };
  uint32_t old = 0;
  if (counts<X>(node)) {  // the root: never taken while holding another node
    if (to == INUSE)  // taking the node: acquire only (ms_trylock)
      old = x.cas_until(h.lock(node), from, to, won, exec::counted, exec::acquire);
    else
      old = x.cas_until(h.lock(node), from, to, won, exec::counted);
  } else if (to == INUSE) {
    if (node == 1)
      old = x.cas_until(h.lock(node), from, to, won, exec::acquire);
    else
      old = x.cas_until(h.lock(node), from, to, won, exec::holding, exec::acquire);
  } else if (node == 1) {
    old = x.cas_until(h.lock(node), from, to, won);
  } else {
    old = x.cas_until(h.lock(node), from, to, won, exec::holding, exec::relaxed);
  }
  if (to == INUSE) record_won(x, node, old);
}

// "while (s == INUSE) s = MS_TRYLOCK(x, A, INUSE)": try until the node is not held
// by someone else; returns the state seen when the attempt stopped (A on success).
// Always below a node the caller holds (a child in the sift-down): never the root.
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
      if (counts<X>(node))
        x.release(h.lock(node), INUSE, to, exec::counted);
      else
        x.release(h.lock(node), INUSE, to);
      x.after_release(node);
      return;
    }
  }
  const uint32_t old =
      counts<X>(node) ? lock_state(x.cas(h.lock(node), from, to, exec::counted)) : x.cas(h.lock(node), from, to);
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
    if (counts<X>(a))
      x.release_pair(h.lock(a), h.lock(b), INUSE, AVAIL, exec::first_counted);
    else if (counts<X>(b))
      x.release_pair(h.lock(a), h.lock(b), INUSE, AVAIL, exec::second_counted);
    else
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
    const uint32_t seen = x.load(h.lock(node));
    if (lock_state(seen) == want) return;
    x.wait_while_equals(h.lock(node), seen, exec::holding);
  }
}

}  // namespace gpulin::gheap
