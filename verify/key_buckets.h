// Tuples (key, position) grouped by key, each key's in position order, without a
// comparison sort: the host side of the per-key checks of rule-ordered histories
// (pq_linear/: a pq-batch history's inserted and returned keys; keyed_linear/: a
// map's, set's or multimap's operations by their key). A position is an op's
// place in the rule's order; the caller says which tuples each position has.
//
// A tuple is one word: the key's offset from the smallest key above the
// position's bits. The words are scattered into at most 2^kMaxBucketBits
// buckets by the key's top bits, every thread taking a range of positions and a
// slice of every bucket (after the slices of the threads before it), so a bucket
// keeps position order. A key's tuples all fall in one bucket: each bucket is
// then sorted by its remaining key bits with stable counting passes and walked
// straight away, while it is in the cache. A bucket stores only the bits below
// its own (the bucket index gives the rest), so the words are 32 bits wide
// whenever those fit: half the memory, and on a VM every fresh page costs.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "histories/huge_pages.h"
#include "histories/on_threads.h"

namespace gpulin::key_buckets {

// Runs body(begin, end, thread) over [0, n) in `threads` contiguous chunks.
template <class F>
void parallel_chunks(uint64_t n, unsigned threads, F&& body) {
  threads = static_cast<unsigned>(std::max<uint64_t>(1, std::min<uint64_t>(threads, n / 4096 + 1)));
  on_threads(threads, [&](unsigned t) { body(n * t / threads, n * (t + 1) / threads, t); });
}

inline uint64_t low_bits(uint32_t n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }

// How keys and positions share a word, and how the words are bucketed. The
// caller checks that the keys' span leaves room beside the position's bits.
struct Packing {
  int64_t min_key = 0;
  uint32_t pos_bits = 0;
  uint32_t key_bits = 0;     // bits of the largest key offset
  uint32_t bucket_bits = 0;  // the key's top bits that pick a bucket
  // A bucket's words keep the bits below `shift`: the low key bits and the position.
  uint32_t shift() const { return tag_bits() + key_bits - bucket_bits; }
  // Below the key: the position, then one bit for "a delete's result".
  uint32_t tag_bits() const { return pos_bits + 1; }
  bool fits_32_bits() const { return shift() <= 32; }

  // is_del: the flag bit below the position (a pq delete's tuple; 0 elsewhere).
  uint64_t pack(int64_t key, uint64_t pos, bool is_del) const {
    return (static_cast<uint64_t>(key) - static_cast<uint64_t>(min_key)) << tag_bits() | pos << 1 | is_del;
  }
  uint64_t key_bits_of(uint64_t w) const { return w >> tag_bits(); }
  int64_t key(uint64_t bucket, uint64_t w) const {
    const uint64_t offset = bucket << (key_bits - bucket_bits) | key_bits_of(w);
    return static_cast<int64_t>(offset + static_cast<uint64_t>(min_key));
  }
  uint64_t pos(uint64_t w) const { return w >> 1 & low_bits(pos_bits); }
  static bool is_del(uint64_t w) { return w & 1; }
};

// At most 2^11 buckets: the scatter's write streams stay within the TLB and the
// cache (more streams measured slower on the 2-core VM), and a bucket of a
// 37-million-key history (18 K words) still sorts inside L2. Digits of at most 8
// bits inside a bucket: 256 counters.
constexpr uint32_t kMaxBucketBits = 11, kMaxDigitBits = 8;

// The packing for keys in [min_key, max_key], m positions and `total` tuples:
// about 2^10 tuples a bucket on average.
inline Packing plan_packing(int64_t min_key, int64_t max_key, uint64_t m, uint64_t total) {
  Packing pk;
  pk.min_key = min_key;
  uint32_t pos = 0;
  while ((m + 1) >> pos) ++pos;
  pk.pos_bits = pos;
  const uint64_t span = static_cast<uint64_t>(max_key) - static_cast<uint64_t>(min_key);
  pk.key_bits = span ? 64 - static_cast<uint32_t>(__builtin_clzll(span)) : 0;
  while (pk.bucket_bits < kMaxBucketBits && pk.bucket_bits < pk.key_bits && (total >> (pk.bucket_bits + 10)) != 0)
    ++pk.bucket_bits;
  return pk;
}

// An array of n words, neither zero-filled (every word is written before it is
// read) nor on 4 KiB pages when it is large: page faults are most of the cost of
// a fresh array of a hundred megabytes.
template <class Word>
std::unique_ptr<Word[]> uninitialized_words(uint64_t n) {
  std::unique_ptr<Word[]> w(new Word[std::max<uint64_t>(n, 1)]);
  advise_huge(w.get(), n * sizeof(Word));
  return w;
}

template <class Word>
struct Buckets {
  Packing pk;
  std::unique_ptr<Word[]> words;
  std::vector<uint64_t> start;  // bucket b holds [start[b], start[b + 1])
  size_t count() const { return start.size() - 1; }
};

// The one parallel, stable scatter of the `total` tuples of positions [0, m):
// tuples_of(p, emit) calls emit(word) with pk.pack(key, p, flag) for each tuple
// of position p, the same ones both times it is asked (once to count, once to
// place them).
template <class Word, class TuplesOf>
Buckets<Word> bucket_tuples(uint64_t m, const Packing& pk, uint64_t total, unsigned threads, TuplesOf&& tuples_of) {
  const uint32_t shift = pk.shift();
  const uint64_t low = low_bits(shift);
  const size_t buckets = size_t{1} << pk.bucket_bits;
  threads = std::max(1u, threads);
  std::vector<std::vector<uint64_t>> slot(threads, std::vector<uint64_t>(buckets, 0));
  auto for_positions = [&](unsigned t, auto&& f) {
    for (uint64_t p = m * t / threads; p < m * (t + 1) / threads; ++p) tuples_of(p, f);
  };
  // shift is 64 only with no bucket bits: every word goes to bucket 0.
  auto bucket_of = [&](uint64_t w) { return shift >= 64 ? 0 : w >> shift; };
  on_threads(threads, [&](unsigned t) { for_positions(t, [&](uint64_t w) { ++slot[t][bucket_of(w)]; }); });
  Buckets<Word> b;
  b.pk = pk;
  b.start.resize(buckets + 1);
  uint64_t at = 0;
  for (size_t k = 0; k < buckets; ++k) {
    b.start[k] = at;
    for (unsigned t = 0; t < threads; ++t) {
      const uint64_t c = slot[t][k];
      slot[t][k] = at;
      at += c;
    }
  }
  b.start[buckets] = at;
  b.words = uninitialized_words<Word>(total);
  Word* out = b.words.get();
  on_threads(threads, [&](unsigned t) {
    for_positions(t, [&](uint64_t w) { out[slot[t][bucket_of(w)]++] = static_cast<Word>(w & low); });
  });
  return b;
}

// One stable counting pass by the `width`-bit digit at `lo`, from `in` to `out`.
template <class Word>
void counting_pass(const Word* in, Word* out, size_t n, uint32_t lo, uint32_t width, uint32_t* count) {
  const Word mask = static_cast<Word>(low_bits(width));
  std::fill(count, count + size_t{mask} + 2, 0u);
  for (size_t i = 0; i < n; ++i) ++count[(in[i] >> lo & mask) + 1];
  for (size_t d = 1; d <= mask; ++d) count[d] += count[d - 1];
  for (size_t i = 0; i < n; ++i) out[count[in[i] >> lo & mask]++] = in[i];
}

// Sorts one bucket by its key bits below the bucket's: LSD counting passes of
// at most kMaxDigitBits bits, of equal width, stable, so equal keys keep
// position order. `scratch` grows to n words.
template <class Word>
void sort_bucket(Word* data, size_t n, const Packing& pk, std::vector<Word>& scratch) {
  const uint32_t lo = pk.tag_bits(), hi = pk.shift();
  if (n < 2 || hi <= lo) return;
  if (scratch.size() < n) scratch.resize(n);
  uint32_t count[(1u << kMaxDigitBits) + 1];
  const uint32_t bits = hi - lo;
  const uint32_t passes = (bits + kMaxDigitBits - 1) / kMaxDigitBits, width = (bits + passes - 1) / passes;
  Word *from = data, *to = scratch.data();
  for (uint32_t at = lo; at < hi; at += width) {
    counting_pass(from, to, n, at, std::min(width, hi - at), count);
    std::swap(from, to);
  }
  if (from != data) std::copy(from, from + n, data);
}

// Walks bucket `b`'s sorted words w[0, n) of positions [0, m): f(key, pos,
// is_del, c_after, next_pos) for each tuple, c_after the key's copies present
// after it (+1 per tuple without the flag, -1 per flagged one: a pq's count),
// next_pos the position of the key's next tuple (m when none: the key's last).
template <class Word, class F>
void walk_bucket(uint64_t b, const Word* w, size_t n, const Packing& pk, uint64_t m, F&& f) {
  int64_t c = 0;
  for (size_t j = 0; j < n; ++j) {
    const uint64_t kb = pk.key_bits_of(w[j]);
    if (j == 0 || kb != pk.key_bits_of(w[j - 1])) c = 0;
    const uint64_t pos = pk.pos(w[j]);
    const bool del = Packing::is_del(w[j]);
    c += 1 - 2 * int64_t{del};
    const bool last = j + 1 == n || pk.key_bits_of(w[j + 1]) != kb;
    f(pk.key(b, w[j]), pos, del, c, last ? m : pk.pos(w[j + 1]));
  }
}

// Every bucket walked by one of `threads` threads: f(t, key, pos, is_del,
// c_after, next_pos). With `sort`, a bucket is sorted just before its walk (in
// the cache). With `in_key_order`, thread t takes a contiguous run of buckets,
// in order, so the keys it sees ascend; otherwise threads take buckets as they
// come free.
template <class Word, class F>
void walk_buckets(Buckets<Word>& b, uint64_t m, unsigned threads, bool sort, bool in_key_order, F&& f) {
  const size_t count = b.count();
  threads = static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(threads, count)));
  std::atomic<size_t> next{0};
  on_threads(threads, [&](unsigned t) {
    std::vector<Word> scratch;
    auto visit = [&](size_t k) {
      Word* data = b.words.get() + b.start[k];
      const size_t n = b.start[k + 1] - b.start[k];
      if (sort) sort_bucket(data, n, b.pk, scratch);
      walk_bucket(k, data, n, b.pk, m, [&](int64_t key, uint64_t pos, bool del, int64_t c, uint64_t next_pos) {
        f(t, key, pos, del, c, next_pos);
      });
    };
    if (in_key_order) {
      for (size_t k = count * t / threads; k < count * (t + 1) / threads; ++k) visit(k);
    } else {
      for (size_t k; (k = next.fetch_add(1, std::memory_order_relaxed)) < count;) visit(k);
    }
  });
}

}  // namespace gpulin::key_buckets
