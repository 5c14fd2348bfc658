// The subroutines RESOLVE is made of (§2.2, Algorithm 1; Lemma 2), on a level
// actor's private scratch, spread over the actor's threads (x.parallel_for, each a
// barrier at its end): MERGE of two value-sorted arrays (merge path), DELETEDUPLICATES
// (one copy per value: the smallest priority, or the DELETE that removes it) and the
// split by a threshold as flags, an exclusive prefix sum (Hillis-Steele passes) and a
// scatter, SELECT (the k-th smallest priority) by a bitonic sort of the rank keys -
// Lemma 2's O(log n)-depth subroutines, where the paper calls CUB's prefix sums and
// radix sort. A count reaches every thread through `word`, a scratch slot written
// before a barrier.
#pragma once

#include <cstdint>

#include "structures/bucket_heap/config.h"
#include "structures/merge_path/block_merge.h"

namespace gpulin::bucket_heap {

// Scratch a level's subroutines share: four arrays of n words (flags, positions,
// the scan's two), the rank keys (a power of two at least n) and a word.
struct OpsScratch {
  uint32_t* flags;
  uint32_t* pos;
  uint32_t* scan_a;
  uint32_t* scan_b;
  uint64_t* keys;
  uint64_t* word;
};

// out[0, na + nb) = a and b merged by value (then priority).
template <class X>
GPULIN_HD void merge_by_value(X& x, const Element* a, uint32_t na, const Element* b, uint32_t nb, Element* out) {
  merge_path::block_merge(x, a, na, b, nb, out);
}

// pos[i] = flags[0] + ... + flags[i - 1]; returns the sum of all n (through s.word).
template <class X>
GPULIN_HD uint32_t exclusive_scan(X& x, const uint32_t* flags, uint32_t n, uint32_t* pos, const OpsScratch& s) {
  if (n == 0) return 0;
  uint32_t* a = s.scan_a;
  uint32_t* b = s.scan_b;
  x.parallel_for(n, [&](uint32_t i) { a[i] = flags[i]; });
  for (uint32_t off = 1; off < n; off *= 2) {
    x.parallel_for(n, [&](uint32_t i) { b[i] = a[i] + (i >= off ? a[i - off] : 0u); });
    uint32_t* t = a;
    a = b;
    b = t;
  }
  x.parallel_for(n, [&](uint32_t i) {
    pos[i] = a[i] - flags[i];
    if (i == n - 1) *s.word = a[i];
  });
  return static_cast<uint32_t>(*s.word);
}

// out gets in[i] for every flagged i, in order; returns their count.
template <class X>
GPULIN_HD uint32_t compact(X& x, const Element* in, uint32_t n, const OpsScratch& s, Element* out) {
  const uint32_t total = exclusive_scan(x, s.flags, n, s.pos, s);
  x.parallel_for(n, [&](uint32_t i) {
    if (s.flags[i]) out[s.pos[i]] = in[i];
  });
  return total;
}

// One element per value of the sorted in[0, n) into out: where a DELETE is among a
// value's copies it removes them all and stays (to go on down), or goes too at the
// last level; else the copy of smallest priority stays (§2.1, "remove those with
// larger priority"). Returns the count.
template <class X, class P>
GPULIN_HD uint32_t delete_duplicates(X& x, const Element* in, uint32_t n, Element* out, bool last_level,
                                     const OpsScratch& s) {
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

GPULIN_HD inline uint32_t next_pow2(uint32_t n) {
  uint32_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

// keys[0, size) ascending, size a power of two: a bitonic network, a pass each step.
template <class X>
GPULIN_HD void bitonic_sort(X& x, uint64_t* keys, uint32_t size) {
  for (uint32_t run = 2; run <= size; run <<= 1)
    for (uint32_t stride = run >> 1; stride > 0; stride >>= 1)
      x.parallel_for(size, [&](uint32_t i) {
        const uint32_t partner = i ^ stride;
        if (partner <= i) return;
        const bool ascending = (i & run) == 0;
        const uint64_t lo = keys[i], hi = keys[partner];
        if ((lo > hi) == ascending) keys[i] = hi, keys[partner] = lo;
      });
}

// SELECT: the rank key of the k-th smallest (1-based) non-DELETE element of in[0, n),
// or of the largest when there are fewer than k (at least one there). The rank keys
// are sorted by a bitonic network over s.keys (next_pow2(n) of them).
template <class X>
GPULIN_HD uint64_t select_rank(X& x, const Element* in, uint32_t n, uint32_t k, const OpsScratch& s) {
  const uint32_t size = next_pow2(n);
  uint64_t* keys = s.keys;
  x.parallel_for(size, [&](uint32_t i) { keys[i] = i < n && !is_del(in[i]) ? rank_key(in[i]) : ~uint64_t{0}; });
  bitonic_sort(x, keys, size);
  uint32_t m = 0;  // non-DELETE elements: the keys before the first padding
  for (uint32_t i = 0; i < n; ++i) m += is_del(in[i]) ? 0u : 1u;
  return keys[(k < m ? k : m) - 1];
}

// Elements that go down past a level of threshold th: DELETEs always, others of
// larger priority.
GPULIN_HD inline bool goes_down(Element e, uint64_t th) { return is_del(e) || rank_key(e) > th; }

// in[0, n) split, order kept: the ones that stay to stay[0, *ns), the others to
// down[0, *nd).
template <class X>
GPULIN_HD void split_by(X& x, const Element* in, uint32_t n, uint64_t th, Element* stay, uint32_t* ns, Element* down,
                        uint32_t* nd, const OpsScratch& s) {
  x.parallel_for(n, [&](uint32_t i) { s.flags[i] = goes_down(in[i], th) ? 0u : 1u; });
  *ns = compact(x, in, n, s, stay);
  x.parallel_for(n, [&](uint32_t i) { s.flags[i] = goes_down(in[i], th) ? 1u : 0u; });
  *nd = compact(x, in, n, s, down);
}

// Count of elements that stay at a level of threshold th (every thread counts).
GPULIN_HD inline uint32_t count_staying(const Element* in, uint32_t n, uint64_t th) {
  uint32_t c = 0;
  for (uint32_t i = 0; i < n; ++i) c += goes_down(in[i], th) ? 0 : 1;
  return c;
}

}  // namespace gpulin::bucket_heap
