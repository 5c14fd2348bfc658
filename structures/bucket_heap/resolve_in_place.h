// RESOLVE(i)'s lines 1-5 (§2.2, Algorithm 1: MERGE, DELETEDUPLICATES, the split at
// p_i) without a pass over B_i, for the RESOLVEs that leave every element of B_i
// where it is. B_i holds one element a value, no DELETE, all at or below p_i; a
// short S_i then changes it only at its own values. Each survivor of S_i's
// DELETEDUPLICATES (S_i alone: a DELETE wins over every copy, else the least
// priority, whichever copies are where) is looked up in B_i by value and
//   - goes down (S_{i+1}) when it is a DELETE of a value B_i does not hold, or a
//     value B_i does not hold of priority past p_i;
//   - replaces B_i's copy in place when it holds the value at a larger priority
//     (the survivor stays: its rank key is below the copy's, at or below p_i);
//   - is dropped when B_i's copy is the smaller;
//   - and otherwise (a DELETE of a value B_i holds, removing it; a new value at or
//     below p_i, taking a place) needs the merge: nothing is written and false
//     comes back, for RESOLVE's merge_then_partition.
// The result is the merge's, element for element: B_i with the replacements is
// the partition's first part, the down-going survivors in value order its second
// (tests/structures/bucket_level_ops_test.cpp checks both against the merge).
// PARDIJKSTRA's RESOLVE(0)s are nearly all such: an EXTRACTMIN's DELETE of the
// value it took, and BULKUPDATEs of distances that improve on B_0's or go down.
#pragma once

#include <cstdint>

#include "structures/bucket_heap/level_ops.h"

namespace gpulin::bucket_heap {

// What a survivor of S_i does to B_i (the high half of its word in `looked`, its
// index in B_i the low half).
enum InPlace : uint32_t { kInPlaceDropped = 0, kInPlaceDown = 1, kInPlaceReplaces = 2, kInPlaceMoves = 3 };
GPULIN_HD inline uint32_t in_place_kind(uint64_t looked) { return static_cast<uint32_t>(looked >> 32); }

// The first index of B's sorted b[0, n) whose value is not below v.
template <class In>
GPULIN_HD uint32_t lower_bound_by_value(In b, uint32_t n, uint32_t v) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (value_of(b[mid]) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The survivor s[j]'s effect on B (nb elements), packed: kind << 32 | its index in B.
template <class P, class Bucket, class Signal>
GPULIN_HD uint64_t in_place_effect(Bucket bucket, uint32_t nb, Signal s, uint32_t ns, uint32_t j, uint64_t th) {
  if (!survives_dedup<P>(s, ns, j, false)) return uint64_t{kInPlaceDropped} << 32;
  const Element e = s[j];
  const uint32_t at = lower_bound_by_value(bucket, nb, value_of(e));
  const bool held = at < nb && value_of(bucket[at]) == value_of(e);
  uint32_t kind;
  if (is_del(e)) kind = held ? kInPlaceMoves : kInPlaceDown;
  else if (held) kind = prio_of(e) < prio_of(bucket[at]) ? kInPlaceReplaces : kInPlaceDropped;
  else kind = goes_down(e, th) ? kInPlaceDown : kInPlaceMoves;
  return (uint64_t{kind} << 32) | at;
}

// B_i = bucket[0, nb) and S_i = s[0, ns) (sorted by value, then priority) at
// threshold th, above the last level. True: done in place (replacements written
// into `bucket`), the down-going survivors in down[0, *down_n). False: nothing
// written. `looked` holds ns words; `places` is the scan's (level_ops.h).
template <class X, class P, class Bucket, class Signal, class Looked, class Down, class Places>
GPULIN_HD bool resolve_in_place(X& x, Bucket bucket, uint32_t nb, Signal s, uint32_t ns, uint64_t th, Looked looked,
                                Down down, Places places, uint32_t* down_n) {
  x.parallel_for(ns, [&](uint32_t j) { looked[j] = in_place_effect<P>(bucket, nb, s, ns, j, th); });
  if (x.sum_of(ns, [&](uint32_t j) { return in_place_kind(looked[j]) == kInPlaceMoves ? 1u : 0u; }) > 0) return false;
  const auto goes = [&](uint32_t j) -> uint64_t { return in_place_kind(looked[j]) == kInPlaceDown ? 1 : 0; };
  *down_n = static_cast<uint32_t>(exec::exclusive_sum_then(x, ns, goes, places, [&](uint32_t j, uint64_t at, uint64_t to) {
    if (to) down[static_cast<uint32_t>(at)] = s[j];
    else if (in_place_kind(looked[j]) == kInPlaceReplaces) bucket[static_cast<uint32_t>(looked[j])] = s[j];
  }));
  return true;
}

}  // namespace gpulin::bucket_heap
