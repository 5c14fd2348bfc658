// The subroutines RESOLVE is made of (§2.2, Algorithm 1; Lemma 2), on a level
// actor's private scratch: MERGE of two value-sorted arrays (merge path, the whole
// actor), DELETEDUPLICATES (one copy per value: the smallest priority, or the
// DELETE that removes it), SELECT (the k-th smallest priority) and the split of an
// array by a threshold. The paper runs DELETEDUPLICATES and SELECT with CUB's prefix
// sums and radix sort from each level's block; here they are one thread's scans
// and a heap sort (correct on both executors; the GPU's fast form is open). One
// thread computes each count; it reaches the others through `word`, a slot of the
// actor's scratch, after the barrier that ends parallel_for.
#pragma once

#include <cstdint>

#include "structures/bucket_heap/config.h"
#include "structures/merge_path/block_merge.h"

namespace gpulin::bucket_heap {

// out[0, na + nb) = a and b merged by value (then priority).
template <class X>
GPULIN_HD void merge_by_value(X& x, const Element* a, uint32_t na, const Element* b, uint32_t nb, Element* out) {
  merge_path::block_merge(x, a, na, b, nb, out);
}

// One element per value of the sorted in[0, n) into out: where a DELETE is among a
// value's copies it removes them all and stays (to go on down), or goes too at the
// last level; else the copy of smallest priority stays (§2.1, "remove those with
// larger priority"). Returns the count.
template <class X, class P>
GPULIN_HD uint32_t delete_duplicates(X& x, const Element* in, uint32_t n, Element* out, bool last_level, uint64_t* word) {
  x.parallel_for(1, [&](uint32_t) {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n;) {
      uint32_t j = i + 1;
      while (j < n && value_of(in[j]) == value_of(in[i])) ++j;
      if constexpr (P::mutant == Mutant::KeepDuplicates) {
        for (uint32_t k = i; k < j; ++k) out[kept++] = in[k];
      } else if (is_del(in[j - 1])) {  // a DELETE sorts last among its value's copies
        if (!last_level) out[kept++] = in[j - 1];
      } else {
        out[kept++] = in[i];
      }
      i = j;
    }
    *word = kept;
  });
  return static_cast<uint32_t>(*word);
}

GPULIN_HD inline void heap_sort(uint64_t* a, uint32_t n) {
  auto sift = [a](uint32_t i, uint32_t end) {
    for (;;) {
      uint32_t c = 2 * i + 1;
      if (c >= end) return;
      if (c + 1 < end && a[c] < a[c + 1]) ++c;
      if (!(a[i] < a[c])) return;
      const uint64_t t = a[i];
      a[i] = a[c];
      a[c] = t;
      i = c;
    }
  };
  for (uint32_t i = n / 2; i-- > 0;) sift(i, n);
  for (uint32_t end = n; end-- > 1;) {
    const uint64_t t = a[0];
    a[0] = a[end];
    a[end] = t;
    sift(0, end);
  }
}

// SELECT: the rank key of the k-th smallest (1-based) non-DELETE element of in[0, n),
// or of the largest when there are fewer than k. `keys` holds n.
template <class X>
GPULIN_HD uint64_t select_rank(X& x, const Element* in, uint32_t n, uint32_t k, uint64_t* keys, uint64_t* word) {
  x.parallel_for(1, [&](uint32_t) {
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; ++i)
      if (!is_del(in[i])) keys[m++] = rank_key(in[i]);
    heap_sort(keys, m);
    *word = m == 0 ? 0 : keys[(k < m ? k : m) - 1];
  });
  return *word;
}

// Elements that go down past a level of threshold th: DELETEs always, others of
// larger priority.
GPULIN_HD inline bool goes_down(Element e, uint64_t th) { return is_del(e) || rank_key(e) > th; }

// in[0, n) split, order kept: the ones that stay to stay[0, *ns), the others to
// down[0, *nd).
template <class X>
GPULIN_HD void split_by(X& x, const Element* in, uint32_t n, uint64_t th, Element* stay, uint32_t* ns, Element* down,
                        uint32_t* nd, uint64_t* word) {
  x.parallel_for(1, [&](uint32_t) {
    uint32_t a = 0, b = 0;
    for (uint32_t i = 0; i < n; ++i) (goes_down(in[i], th) ? down[b++] : stay[a++]) = in[i];
    *word = (uint64_t{a} << 32) | b;
  });
  *ns = static_cast<uint32_t>(*word >> 32);
  *nd = static_cast<uint32_t>(*word);
}

// Count of elements that stay at a level of threshold th.
GPULIN_HD inline uint32_t count_staying(const Element* in, uint32_t n, uint64_t th) {
  uint32_t c = 0;
  for (uint32_t i = 0; i < n; ++i) c += goes_down(in[i], th) ? 0 : 1;
  return c;
}

}  // namespace gpulin::bucket_heap
