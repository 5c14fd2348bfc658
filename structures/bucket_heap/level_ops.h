// The subroutines RESOLVE is made of (§2.2, Algorithm 1; Lemma 2), on a level
// actor's private scratch, spread over the actor's threads (x.parallel_for, each a
// barrier at its end): MERGE of two value-sorted arrays (merge path),
// DELETEDUPLICATES (one copy per value: the smallest priority, or the DELETE that
// removes it) and the split by a threshold (each a partition: flags, an exclusive
// prefix sum and a scatter), SELECT (the k-th smallest priority) - Lemma 2's O(log n)-depth
// subroutines. The prefix sum, the counts and SELECT are the context's collectives
// (structures/exec/context.h: CUB's on the GPU, where the paper calls CUB's prefix
// sums and radix sort).
#pragma once

#include <cstdint>

#include "structures/bucket_heap/config.h"
#include "structures/exec/block_sort.h"
#include "structures/merge_path/block_merge.h"

namespace gpulin::bucket_heap {

// Scratch a level's subroutines share: two arrays of n words (flags, positions).
// The arrays here are the actor's private memory (structures/exec/
// private_memory.h): Words is the context's Private<uint32_t>, In and Out its
// Private<Element>, or plain pointers.
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

// in[0, n) split, order kept, by keep(at, i) (at(j) reads in[j]): the kept ones to
// kept[0, count), the others, with Drop, to dropped[0, n - count); returns count.
// As flags, an exclusive prefix sum and a scatter (an element's place among those
// dropped is its index less the ones kept before it); a context that does all
// three in one pass over tiles of fast memory (x.partition_tiled: the GPU's block
// actors) does.
template <bool Drop, class X, class In, class Out, class Words, class Keep>
GPULIN_HD uint32_t partition(X& x, In in, uint32_t n, Keep&& keep, const OpsScratch<Words>& s, Out kept, Out dropped) {
  if constexpr (requires { x.partition_tiled(in, n, keep, kept, dropped); }) {
    return x.partition_tiled(in, n, keep, kept, Drop ? dropped : nullptr);
  } else {
    auto at = [&](uint32_t j) -> decltype(auto) { return in[j]; };
    x.parallel_for(n, [&](uint32_t i) { s.flags[i] = keep(at, i) ? 1u : 0u; });
    const uint32_t total = x.exclusive_sum(s.flags, n, s.pos);
    x.parallel_for(n, [&](uint32_t i) {
      if (s.flags[i]) kept[s.pos[i]] = in[i];
      else if constexpr (Drop) dropped[i - s.pos[i]] = in[i];
    });
    return total;
  }
}

// out gets in[i] for every i flagged in s.flags, in order; returns their count.
template <class X, class In, class Words, class Out>
GPULIN_HD uint32_t compact(X& x, In in, uint32_t n, const OpsScratch<Words>& s, Out out) {
  auto flagged = [&](auto&&, uint32_t i) { return s.flags[i] != 0; };
  if constexpr (requires { x.partition_tiled(in, n, flagged, out, out); }) {
    return x.partition_tiled(in, n, flagged, out, nullptr);
  } else {
    const uint32_t total = x.exclusive_sum(s.flags, n, s.pos);
    x.parallel_for(n, [&](uint32_t i) {
      if (s.flags[i]) out[s.pos[i]] = in[i];
    });
    return total;
  }
}

// Whether in[i], of the value-sorted in[0, n), is the copy of its value that
// DELETEDUPLICATES keeps: where a DELETE is among a value's copies it removes them
// all and stays (to go on down), or goes too at the last level; else the copy of
// smallest priority stays (§2.1, "remove those with larger priority").
template <class P, class At>
GPULIN_HD bool keeps_copy(At&& at, uint32_t i, uint32_t n, bool last_level) {
  if constexpr (P::mutant == Mutant::KeepDuplicates) return true;
  const uint32_t v = value_of(at(i));
  const bool first = i == 0 || value_of(at(i - 1)) != v;
  const bool last = i + 1 == n || value_of(at(i + 1)) != v;
  uint32_t end = i;  // a DELETE sorts last among its value's copies
  while (end + 1 < n && value_of(at(end + 1)) == v) ++end;
  const bool deleted = is_del(at(end));
  return deleted ? last && !last_level : first;
}

// One element per value of the sorted in[0, n) into out (keeps_copy); returns the
// count.
template <class X, class P, class In, class Out, class Words>
GPULIN_HD uint32_t delete_duplicates(X& x, In in, uint32_t n, Out out, bool last_level, const OpsScratch<Words>& s) {
  return partition<false>(x, in, n, [&](auto&& at, uint32_t i) { return keeps_copy<P>(at, i, n, last_level); }, s, out,
                          out);
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

// in[0, n) split, order kept: the ones that stay to stay[0, *ns), the others to
// down[0, *nd).
template <class X, class In, class Out, class Words>
GPULIN_HD void split_by(X& x, In in, uint32_t n, uint64_t th, Out stay, uint32_t* ns, Out down, uint32_t* nd,
                        const OpsScratch<Words>& s) {
  *ns = partition<true>(x, in, n, [&](auto&& at, uint32_t i) { return !goes_down(at(i), th); }, s, stay, down);
  *nd = n - *ns;
}

// Count of elements that stay at a level of threshold th.
template <class X, class In>
GPULIN_HD uint32_t count_staying(X& x, In in, uint32_t n, uint64_t th) {
  return static_cast<uint32_t>(x.sum_of(n, [&](uint32_t i) { return goes_down(in[i], th) ? 0u : 1u; }));
}

}  // namespace gpulin::bucket_heap
