// The subroutines RESOLVE is made of (§2.2, Algorithm 1; Lemma 2), on a level
// actor's private scratch, spread over the actor's threads (x.parallel_for, each a
// barrier at its end): MERGE of two value-sorted arrays (merge path),
// DELETEDUPLICATES (one copy per value: the smallest priority, or the DELETE that
// removes it) and the split by a threshold as flags, an exclusive prefix sum and a
// scatter, SELECT (the k-th smallest priority) - Lemma 2's O(log n)-depth
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

// out gets in[i] for every flagged i, in order; returns their count.
template <class X, class In, class Words, class Out>
GPULIN_HD uint32_t compact(X& x, In in, uint32_t n, const OpsScratch<Words>& s, Out out) {
  const uint32_t total = x.exclusive_sum(s.flags, n, s.pos);
  x.parallel_for(n, [&](uint32_t i) {
    if (s.flags[i]) out[s.pos[i]] = in[i];
  });
  return total;
}

// One element per value of the sorted in[0, n) into out: where a DELETE is among a
// value's copies it removes them all and stays (to go on down), or goes too at the
// last level; else the copy of smallest priority stays (§2.1, "remove those with
// larger priority"). Returns the count.
template <class X, class P, class In, class Out, class Words>
GPULIN_HD uint32_t delete_duplicates(X& x, In in, uint32_t n, Out out, bool last_level, const OpsScratch<Words>& s) {
  x.parallel_for(n, [&](uint32_t i) {
    if constexpr (P::mutant == Mutant::KeepDuplicates) {
      s.flags[i] = 1;
      return;
    }
    const uint32_t v = value_of(in[i]);
    const bool first = i == 0 || value_of(in[i - 1]) != v;
    const bool last = i + 1 == n || value_of(in[i + 1]) != v;
    uint32_t end = i;  // a DELETE sorts last among its value's copies
    while (end + 1 < n && value_of(in[end + 1]) == v) ++end;
    const bool deleted = is_del(in[end]);
    s.flags[i] = deleted ? (last && !last_level ? 1u : 0u) : (first ? 1u : 0u);
  });
  return compact(x, in, n, s, out);
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
// down[0, *nd) (one prefix sum: an element's place among those going down is its
// index less the ones staying before it).
template <class X, class In, class Out, class Words>
GPULIN_HD void split_by(X& x, In in, uint32_t n, uint64_t th, Out stay, uint32_t* ns, Out down, uint32_t* nd,
                        const OpsScratch<Words>& s) {
  x.parallel_for(n, [&](uint32_t i) { s.flags[i] = goes_down(in[i], th) ? 0u : 1u; });
  *ns = x.exclusive_sum(s.flags, n, s.pos);
  *nd = n - *ns;
  x.parallel_for(n, [&](uint32_t i) {
    if (s.flags[i]) stay[s.pos[i]] = in[i];
    else down[i - s.pos[i]] = in[i];
  });
}

// Count of elements that stay at a level of threshold th.
template <class X, class In>
GPULIN_HD uint32_t count_staying(X& x, In in, uint32_t n, uint64_t th) {
  return static_cast<uint32_t>(x.sum_of(n, [&](uint32_t i) { return goes_down(in[i], th) ? 0u : 1u; }));
}

}  // namespace gpulin::bucket_heap
