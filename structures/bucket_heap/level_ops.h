// The subroutines RESOLVE is made of (§2.2, Algorithm 1; Lemma 2), on a level
// actor's private scratch, spread over the actor's threads (x.parallel_for, each a
// barrier at its end): MERGE of two value-sorted arrays (merge path),
// DELETEDUPLICATES (one copy per value: the smallest priority, or the DELETE that
// removes it) and the split by a threshold, each a partition (a prefix sum that
// decides as it counts, then a scatter), SELECT (the k-th smallest priority) -
// Lemma 2's O(log n)-depth subroutines. The prefix sum, the counts and SELECT are
// the context's collectives (structures/exec/context.h: CUB's on the GPU, where the
// paper calls CUB's prefix sums and radix sort).
#pragma once

#include <cstdint>

#include "structures/bucket_heap/config.h"
#include "structures/exec/block_sort.h"
#include "structures/exec/exclusive_sum_then.h"
#include "structures/merge_path/block_merge.h"

namespace gpulin::bucket_heap {

// Scratch of compact(): two arrays of n words (flags, positions). The arrays here
// are the actor's private memory (structures/exec/private_memory.h): Words is the
// context's Private<uint32_t>, In and Out its Private<Element>, Places its
// Private<uint64_t>, or plain pointers.
template <class Words>
struct OpsScratch {
  Words flags;
  Words pos;
};

// out[0, na + nb) = a and b merged by value (then priority). A context that merges
// through tiles of fast memory (the GPU's block actors, x.merge_tiled) does: a
// level's arrays are many times its block.
template <class X, class In, class Out>
GPULIN_HD void merge_by_value(X& x, In a, uint32_t na, In b, uint32_t nb, Out out) {
  if constexpr (requires { x.merge_tiled(a, na, b, nb, out); }) x.merge_tiled(a, na, b, nb, out);
  else merge_path::block_merge(x, a, na, b, nb, out);
}

// out gets in[i] for every flagged i, in order; returns their count.
template <class X, class In, class Words, class Out>
GPULIN_HD uint32_t compact(X& x, In in, uint32_t n, const OpsScratch<Words>& s, Out out) {
  const uint32_t total = x.exclusive_sum(s.flags, n, s.pos);
  x.parallel_for(n, [&](uint32_t i) {
    if (s.flags[i]) out[s.pos[i]] = in[i];
  });
  return total;
}

// Where partition() sends an element: to its first output, its second, or
// nowhere. Packed so that one 64-bit prefix sum counts both outputs at once: the
// low half of an element's sum is its place in the first, the high half in the
// second (n < 2^32 elements).
inline constexpr uint64_t kToNowhere = 0, kToFirst = 1, kToSecond = uint64_t{1} << 32;
struct Parts {
  uint32_t first, second;
};

// in[0, n) split in order by where(i) (kToFirst, kToSecond or kToNowhere): a
// prefix sum of where that places each element as it counts
// (exec::exclusive_sum_then: one pass on the GPU; elsewhere two, through `places`,
// n words of 64 bits): no flags array between the decision and the move.
template <class X, class In, class Out, class Places, class Where>
GPULIN_HD Parts partition(X& x, In in, uint32_t n, Where&& where, Places places, Out first, Out second) {
  const uint64_t total = exec::exclusive_sum_then(x, n, where, places, [&](uint32_t i, uint64_t at, uint64_t to) {
    if (to == kToFirst) first[static_cast<uint32_t>(at)] = in[i];
    else if (to == kToSecond) second[static_cast<uint32_t>(at >> 32)] = in[i];
  });
  return {static_cast<uint32_t>(total), static_cast<uint32_t>(total >> 32)};
}

// DELETEDUPLICATES' choice for in[i] of the value-sorted in[0, n): one element per
// value stays. Where a DELETE is among a value's copies (it sorts last) it removes
// them all and stays, to go on down, or goes too at the last level; else the copy
// of smallest priority (the first) stays (§2.1, "remove those with larger
// priority").
template <class P, class In>
GPULIN_HD bool survives_dedup(In in, uint32_t n, uint32_t i, bool last_level) {
  if constexpr (P::mutant == Mutant::KeepDuplicates) return true;
  // The three loads first, unconditionally: a collective that decides several
  // elements a thread (exclusive_sum_of on the GPU) may then have them all in flight.
  const Element prev = in[i > 0 ? i - 1 : i], cur = in[i], next = in[i + 1 < n ? i + 1 : i];
  const uint32_t v = value_of(cur);
  const bool first = i == 0 || value_of(prev) != v;
  const bool last = i + 1 == n || value_of(next) != v;
  if (last) return is_del(cur) ? !last_level : first;
  if (!first) return false;
  uint32_t end = i + 1;  // the value's last copy: a DELETE if it has one
  while (end + 1 < n && value_of(in[end + 1]) == v) ++end;
  return !is_del(in[end]);
}

// DELETEDUPLICATES' partition of the sorted in[0, n): the survivors to the first
// output, nothing to the second.
template <class P>
struct DedupWhere {
  bool last_level;
  template <class In>
  GPULIN_HD uint64_t operator()(const In& in, uint32_t n, uint32_t i) const {
    return survives_dedup<P>(in, n, i, last_level) ? kToFirst : kToNowhere;
  }
};

// DELETEDUPLICATES of the sorted in[0, n) into out; returns the count.
template <class X, class P, class In, class Out, class Places>
GPULIN_HD uint32_t delete_duplicates(X& x, In in, uint32_t n, Out out, bool last_level, Places places) {
  const auto where = [&](uint32_t i) { return DedupWhere<P>{last_level}(in, n, i); };
  return partition(x, in, n, where, places, out, out).first;
}

using exec::next_pow2;

// SELECT: the rank key of the k-th smallest (1-based) non-DELETE element of in[0, n),
// or of the largest when there are fewer than k (at least one there). DELETEs count
// as ~0, after every rank key.
template <class X, class In>
GPULIN_HD uint64_t select_rank(X& x, In in, uint32_t n, uint32_t k) {
  auto key = [&](uint32_t i) { return is_del(in[i]) ? ~uint64_t{0} : rank_key(in[i]); };
  const auto m = static_cast<uint32_t>(x.sum_of(n, [&](uint32_t i) { return is_del(in[i]) ? 0u : 1u; }));
  return x.kth_smallest(n, k < m ? k : m, key);
}

// Elements that go down past a level of threshold th: DELETEs always, others of
// larger priority.
GPULIN_HD inline bool goes_down(Element e, uint64_t th) { return is_del(e) || rank_key(e) > th; }

// in[0, n) split, order kept: the ones that stay at threshold th to stay, the
// others to down.
template <class X, class In, class Out, class Places>
GPULIN_HD Parts split_by(X& x, In in, uint32_t n, uint64_t th, Out stay, Out down, Places places) {
  const auto where = [&](uint32_t i) { return goes_down(in[i], th) ? kToSecond : kToFirst; };
  return partition(x, in, n, where, places, stay, down);
}

// DELETEDUPLICATES of the sorted in[0, n) and the split of what survives by th, in
// one partition (RESOLVE(i)'s lines 3-5 above the last level): the survivors that
// stay to the first output, the others (every surviving DELETE among them) to the
// second.
template <class P>
struct DedupSplitWhere {
  uint64_t th;
  template <class In>
  GPULIN_HD uint64_t operator()(const In& in, uint32_t n, uint32_t i) const {
    if (!survives_dedup<P>(in, n, i, false)) return kToNowhere;
    return goes_down(in[i], th) ? kToSecond : kToFirst;
  }
};
template <class X, class P, class In, class Out, class Places>
GPULIN_HD Parts dedup_and_split(X& x, In in, uint32_t n, uint64_t th, Out stay, Out down, Places places) {
  const auto where = [&](uint32_t i) { return DedupSplitWhere<P>{th}(in, n, i); };
  return partition(x, in, n, where, places, stay, down);
}

// a[0, na) and b[0, nb) merged by value into merged[0, na + nb), then partitioned
// by where(in, n, i) (a DedupWhere or DedupSplitWhere over the merged in[0, n)).
template <class X, class InA, class Merged, class Out, class Places, class Where>
GPULIN_HD Parts merge_then_partition(X& x, InA a, uint32_t na, InA b, uint32_t nb, Merged merged, Where where,
                                     Places places, Out first, Out second) {
  const uint32_t n = na + nb;
  merge_by_value(x, a, na, b, nb, merged);
  return partition(x, merged, n, [&](uint32_t i) { return where(merged, n, i); }, places, first, second);
}

// Count of elements that stay at a level of threshold th.
template <class X, class In>
GPULIN_HD uint32_t count_staying(X& x, In in, uint32_t n, uint64_t th) {
  return static_cast<uint32_t>(x.sum_of(n, [&](uint32_t i) { return goes_down(in[i], th) ? 0u : 1u; }));
}

}  // namespace gpulin::bucket_heap
