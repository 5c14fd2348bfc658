#include "verify/pq_linear/linear_check.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>

#include <sys/mman.h>

#include "verify/pq_linear/key_rules.h"
#include "verify/witness/points.h"

namespace gpulin {

namespace {

using namespace pq_linear;

// Runs body(t) for t in [0, threads), the calling thread taking t = 0.
template <class F>
void on_threads(unsigned threads, F&& body) {
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back([&body, t] { body(t); });
  body(0u);
  for (auto& th : pool) th.join();
}

// Runs body(begin, end, thread) over [0, n) in `threads` contiguous chunks.
template <class F>
void parallel_chunks(uint64_t n, unsigned threads, F&& body) {
  threads = static_cast<unsigned>(std::max<uint64_t>(1, std::min<uint64_t>(threads, n / 4096 + 1)));
  on_threads(threads, [&](unsigned t) { body(n * t / threads, n * (t + 1) / threads, t); });
}

// An array of n words, neither zero-filled (every word is written before it is
// read) nor on 4 KiB pages when it is large: page faults are most of the cost of
// a fresh array of a hundred megabytes.
std::unique_ptr<uint64_t[]> uninitialized_words(uint64_t n) {
  std::unique_ptr<uint64_t[]> w(new uint64_t[std::max<uint64_t>(n, 1)]);
  constexpr uintptr_t kPage = 4096;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(w.get()) + kPage - 1) & ~(kPage - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(w.get() + n)) & ~(kPage - 1);
  if (n * sizeof(uint64_t) >= (uint64_t{4} << 20) && end > begin)
    madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  return w;
}

// The ops in the rule's order, as the per-key rules see them.
struct Ordered {
  std::vector<uint32_t> op;        // index into h.ops, by position
  std::vector<uint8_t> is_del;
  std::vector<int64_t> max_res;    // a delete's largest returned key, kNoMax otherwise
  std::vector<uint64_t> present;   // keys present before the position
  uint64_t first_fail = kNoFailWord;  // sorted and size rules
};

// A (key, position) pair in one word: the key's offset from the smallest key above
// the position's bits (the caller checks that the keys' range leaves room).
struct Packing {
  int64_t min_key = 0;
  uint32_t pos_bits = 0;
  uint64_t pack(int64_t key, uint64_t pos) const {
    return (static_cast<uint64_t>(key) - static_cast<uint64_t>(min_key)) << pos_bits | pos;
  }
  uint64_t key_bits_of(uint64_t w) const { return w >> pos_bits; }
  int64_t key(uint64_t w) const { return static_cast<int64_t>(key_bits_of(w) + static_cast<uint64_t>(min_key)); }
  uint64_t pos(uint64_t w) const { return w & ((uint64_t{1} << pos_bits) - 1); }
};

// The tuples of one position: an insert's arguments, a delete's result.
KeySpan tuple_span(const KeyHistory& h, const Ordered& o, uint64_t p) {
  const KeyOp& op = h.ops[o.op[p]];
  return o.is_del[p] ? op.res() : op.args();
}

// At most 2^11 buckets: the scatter's write streams stay within the TLB and the
// cache (more streams measured slower on the 2-core VM), and a bucket of a
// 37-million-key history (18 K words, 144 KB) still sorts inside L2. Digits of at
// most 8 bits inside a bucket: 256 counters.
constexpr uint32_t kMaxBucketBits = 11, kMaxDigitBits = 8;

// The (key, position) words, grouped into buckets by the key's top bits. A key's
// tuples all fall in one bucket, so each bucket is sorted and checked on its own,
// while it is in the cache. Inside a bucket the words are in position order (the
// scatter is stable); sorting it only has to order the key bits below the
// bucket's, [sort_lo, sort_hi) of the word.
struct Buckets {
  std::unique_ptr<uint64_t[]> words;
  std::vector<uint64_t> start;  // bucket b holds [start[b], start[b + 1])
  uint32_t sort_lo = 0, sort_hi = 0;
  size_t count() const { return start.size() - 1; }
};

// One parallel, stable scatter: each thread owns a range of positions and a slice
// of every bucket (after the slices of the threads before it). Two reads of the
// key pool, one write of the words.
Buckets bucket_tuples(const KeyHistory& h, const Ordered& o, const Packing& pk, int64_t max_key, uint64_t total,
                      unsigned threads) {
  const uint64_t m = o.op.size();
  const uint32_t bits = 64 - static_cast<uint32_t>(__builtin_clzll(pk.pack(max_key, m) | 1));
  const uint32_t key_bits = bits > pk.pos_bits ? bits - pk.pos_bits : 0;
  // About 2^10 tuples a bucket on average, at most 2^kMaxBucketBits buckets.
  uint32_t bucket_bits = 0;
  while (bucket_bits < kMaxBucketBits && bucket_bits < key_bits && (total >> (bucket_bits + 10)) != 0) ++bucket_bits;
  const uint32_t shift = pk.pos_bits + key_bits - bucket_bits;
  const size_t buckets = size_t{1} << bucket_bits;
  threads = std::max(1u, threads);
  std::vector<std::vector<uint64_t>> slot(threads, std::vector<uint64_t>(buckets, 0));
  auto for_positions = [&](unsigned t, auto&& f) {
    for (uint64_t p = m * t / threads; p < m * (t + 1) / threads; ++p) {
      const KeySpan s = tuple_span(h, o, p);
      const int64_t* x = h.begin_of(s);
      for (uint32_t i = 0; i < s.len; ++i) f(pk.pack(x[i], p));
    }
  };
  on_threads(threads, [&](unsigned t) { for_positions(t, [&](uint64_t w) { ++slot[t][w >> shift]; }); });
  Buckets b;
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
  b.words = uninitialized_words(total);
  uint64_t* out = b.words.get();
  on_threads(threads, [&](unsigned t) { for_positions(t, [&](uint64_t w) { out[slot[t][w >> shift]++] = w; }); });
  b.sort_lo = pk.pos_bits;
  b.sort_hi = shift;
  return b;
}

// One stable counting pass by the `width`-bit digit at `lo`, from `in` to `out`.
void counting_pass(const uint64_t* in, uint64_t* out, size_t n, uint32_t lo, uint32_t width, uint32_t* count) {
  const uint64_t mask = (uint64_t{1} << width) - 1;
  std::fill(count, count + mask + 2, 0u);
  for (size_t i = 0; i < n; ++i) ++count[(in[i] >> lo & mask) + 1];
  for (size_t d = 1; d <= mask; ++d) count[d] += count[d - 1];
  for (size_t i = 0; i < n; ++i) out[count[in[i] >> lo & mask]++] = in[i];
}

// Sorts one bucket by its remaining key bits: LSD counting passes of at most
// kMaxDigitBits bits, of equal width, stable, so equal keys keep position order. `scratch` holds n words.
void sort_bucket(uint64_t* data, size_t n, const Buckets& b, std::vector<uint64_t>& scratch) {
  if (n < 2 || b.sort_hi <= b.sort_lo) return;
  if (scratch.size() < n) scratch.resize(n);
  uint32_t count[(1u << kMaxDigitBits) + 1];
  const uint32_t bits = b.sort_hi - b.sort_lo;
  const uint32_t passes = (bits + kMaxDigitBits - 1) / kMaxDigitBits, width = (bits + passes - 1) / passes;
  uint64_t *from = data, *to = scratch.data();
  for (uint32_t lo = b.sort_lo; lo < b.sort_hi; lo += width) {
    counting_pass(from, to, n, lo, std::min(width, b.sort_hi - lo), count);
    std::swap(from, to);
  }
  if (from != data) std::copy(from, from + n, data);
}

// Walks the sorted words w[0, n) of one bucket: f(key, pos, is_del, c_after,
// next_pos) for each tuple, c_after the key's copies present after it, next_pos
// the position of the key's next tuple (m when none).
template <class F>
void walk_bucket(const uint64_t* w, size_t n, const Packing& pk, const Ordered& o, F&& f) {
  const uint64_t m = o.op.size();
  int64_t c = 0;
  for (size_t j = 0; j < n; ++j) {
    const uint64_t kb = pk.key_bits_of(w[j]);
    if (j == 0 || kb != pk.key_bits_of(w[j - 1])) c = 0;
    const uint64_t pos = pk.pos(w[j]);
    const bool del = o.is_del[pos];
    c += del ? -1 : 1;
    const bool last = j + 1 == n || pk.key_bits_of(w[j + 1]) != kb;
    f(pk.key(w[j]), pos, del, c, last ? m : pk.pos(w[j + 1]));
  }
}

// Every bucket walked by one of `threads` threads: f(t, key, pos, ...). With
// `sort`, a bucket is sorted just before its walk (in the cache). With
// `in_key_order`, thread t takes a contiguous run of buckets, in order, so the
// keys it sees ascend; otherwise threads take buckets as they come free.
template <class F>
void walk_buckets(Buckets& b, const Packing& pk, const Ordered& o, unsigned threads, bool sort, bool in_key_order,
                  F&& f) {
  const size_t count = b.count();
  threads = static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(threads, count)));
  std::atomic<size_t> next{0};
  on_threads(threads, [&](unsigned t) {
    std::vector<uint64_t> scratch;
    auto visit = [&](size_t k) {
      uint64_t* data = b.words.get() + b.start[k];
      const size_t n = b.start[k + 1] - b.start[k];
      if (sort) sort_bucket(data, n, b, scratch);
      walk_bucket(data, n, pk, o, [&](int64_t key, uint64_t pos, bool del, int64_t c, uint64_t next_pos) {
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

std::vector<int64_t> sparse_table(const std::vector<int64_t>& base, unsigned threads) {
  const uint64_t m = base.size();
  const uint32_t levels = sparse_levels(m);
  std::vector<int64_t> t(uint64_t(levels) * std::max<uint64_t>(m, 1));
  std::copy(base.begin(), base.end(), t.begin());
  for (uint32_t l = 1; l < levels; ++l) {
    const int64_t* below = t.data() + uint64_t(l - 1) * m;
    int64_t* cur = t.data() + uint64_t(l) * m;
    const uint64_t half = uint64_t{1} << (l - 1);
    parallel_chunks(m, threads, [&](uint64_t a, uint64_t b, unsigned) {
      for (uint64_t i = a; i < b; ++i) cur[i] = sparse_entry(below, i, half, m);
    });
  }
  return t;
}

std::vector<int64_t> keys_of(const KeyHistory& h, KeySpan s) { return {h.begin_of(s), h.end_of(s)}; }

}  // namespace

LinearCheckResult check_pq_batch_linear(const KeyHistory& h, const LinearCheckOptions& options) {
  if (h.header.model != "pq-batch" && h.header.model != "pq")
    throw FormatError(h.source, 1, "the per-key check is for pq-batch and pq histories, not " + h.header.model);
  const uint64_t k = h.header.model == "pq" ? 1 : static_cast<uint64_t>(h.header.param_int("k", 0));
  if (k < 1) throw FormatError(h.source, 1, "pq-batch needs params.k >= 1");
  const unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  const PointScan scan = scan_points(h, lp_rule_of(h.header, h.source));


  LinearCheckResult r;
  if (scan.violation) {
    r.witness.verdict = Verdict::NotLinearizable;
    r.witness.violation = scan.violation;
    return r;
  }

  // Positions: kind and keys present before each (the size rule), from the
  // lengths alone; then, in parallel over the keys, each delete's largest key,
  // the sorted rule and the keys' range.
  Ordered o;
  const uint64_t m = scan.order.size();
  o.op.resize(m);
  o.is_del.resize(m);
  o.max_res.assign(m, kNoMax);
  o.present.resize(m);
  uint64_t present = 0, total = 0;
  for (uint64_t p = 0; p < m; ++p) {
    const size_t i = scan.order[p];
    const KeyOp& op = h.ops[i];
    const std::string& f = h.fn_name(op);
    if (f != "ins" && f != "del")
      throw FormatError(h.source, op.inv_line, "op " + std::to_string(op.id) + ": f must be ins or del, not " + f);
    o.op[p] = static_cast<uint32_t>(i);
    o.present[p] = present;
    if (f == "ins") {
      present += op.args_len;
      total += op.args_len;
      continue;
    }
    o.is_del[p] = 1;
    if (op.pending()) {
      r.applicable = false;
      r.why = "op " + std::to_string(op.id) +
              " is a pending delete with a linearization point: what it removed is unknown, so only a replay can say";
      return r;
    }
    if (!size_ok(op.res_len, present, k) && o.first_fail == kNoFailWord) o.first_fail = fail_word(p, kSize);
    present -= std::min<uint64_t>(present, op.res_len);
    total += op.res_len;
  }
  r.tuples = total;
  struct Range {
    int64_t min = INT64_MAX, max = INT64_MIN;
    uint64_t unsorted = kNoFailWord;
  };
  std::vector<Range> ranges(threads);
  parallel_chunks(m, threads, [&](uint64_t a, uint64_t b, unsigned t) {
    Range& rg = ranges[t];
    for (uint64_t p = a; p < b; ++p) {
      const KeySpan s = tuple_span(h, o, p);
      const int64_t *x = h.begin_of(s), *end = x + s.len;
      if (!s.len) continue;
      if (o.is_del[p]) {
        if (rg.unsorted == kNoFailWord && !std::is_sorted(x, end)) rg.unsorted = fail_word(p, kUnsorted);
        o.max_res[p] = *std::max_element(x, end);
      }
      for (; x != end; ++x) rg.min = std::min(rg.min, *x), rg.max = std::max(rg.max, *x);
    }
  });
  int64_t min_key = INT64_MAX, max_key = INT64_MIN;
  for (const Range& rg : ranges) {
    min_key = std::min(min_key, rg.min);
    max_key = std::max(max_key, rg.max);
    o.first_fail = std::min(o.first_fail, rg.unsorted);  // at one position, unsorted (1) before size (2)
  }

  // Keys spread too wide to pack beside the position are not decided here: the
  // caller runs the replay (rare: 64-bit keys spanning the range).
  Packing pk;
  pk.min_key = total ? min_key : 0;
  pk.pos_bits = SparseMaxView::floor_log2(m + 1) + 1;
  if (!total) max_key = pk.min_key;
  const uint64_t span = static_cast<uint64_t>(max_key) - static_cast<uint64_t>(pk.min_key);
  if (pk.pos_bits < 64 && span >> (64 - pk.pos_bits) != 0) {
    r.applicable = false;
    r.why = "keys span more than 2^" + std::to_string(64 - pk.pos_bits) +
            " values; the per-key check packs a key and a position in 64 bits";
    return r;
  }
  const std::vector<int64_t> table_data = sparse_table(o.max_res, threads);

  const SparseMaxView table{table_data.data(), m, sparse_levels(m)};
  Buckets buckets = bucket_tuples(h, o, pk, max_key, total, threads);

  // The rules, per tuple, each bucket checked right after it is sorted; each
  // thread keeps its first failure (and its key).
  struct First {
    uint64_t word = kNoFailWord;
    int64_t key = 0;
  };
  std::vector<First> first(threads);
  walk_buckets(buckets, pk, o, threads, /*sort=*/true, /*in_key_order=*/false,
               [&](unsigned t, int64_t key, uint64_t pos, bool del, int64_t c, uint64_t next) {
                 const uint64_t f = check_tuple(key, pos, del, c, next, table);
                 if (f < first[t].word || (f == first[t].word && f != kNoFailWord && key < first[t].key))
                   first[t] = {f, key};
               });
  First best{o.first_fail, 0};
  for (const First& f : first)
    if (f.word < best.word || (f.word == best.word && f.word != kNoFailWord && f.key < best.key)) best = f;
  if (best.word == kNoFailWord) {
    r.witness.ops_replayed = m;
    return r;
  }

  // The explanation, from the same tuples: what was present before the failing
  // position (its smallest keys are the model's answer), and who put the key
  // there or took it away.
  LinearFailure x;
  x.kind = fail_kind(best.word);
  x.position = fail_pos(best.word);
  const size_t fi = o.op[x.position];
  const KeyOp& fop = h.ops[fi];
  x.op = fop.id;
  x.point_t = scan.points[fi].end;
  x.key = best.key;
  x.recorded = keys_of(h, fop.res());
  x.present = o.present[x.position];
  const bool keyed = x.kind == kMissing || x.kind == kBypassed;
  std::vector<std::vector<int64_t>> smallest(threads);
  std::vector<First> ins_by(threads), del_by(threads);
  walk_buckets(buckets, pk, o, threads, /*sort=*/false, /*in_key_order=*/true,
               [&](unsigned t, int64_t key, uint64_t pos, bool del, int64_t c, uint64_t next) {
    if (pos >= x.position) return;
    if (keyed && key == x.key) (del ? del_by : ins_by)[t] = {pos, key};  // the last before the failure wins
    if (next < x.position || c <= 0) return;  // not the key's last tuple before the failure, or none left
    auto& s = smallest[t];
    for (int64_t i = 0; i < c && s.size() < k; ++i) s.push_back(key);  // segments come in key order
  });
  for (unsigned t = 0; t < threads; ++t) {
    x.expected.insert(x.expected.end(), smallest[t].begin(), smallest[t].end());
    if (ins_by[t].word != kNoFailWord) x.inserted_by = h.ops[o.op[ins_by[t].word]].id;
    if (del_by[t].word != kNoFailWord) x.removed_by = h.ops[o.op[del_by[t].word]].id;
  }
  std::sort(x.expected.begin(), x.expected.end());
  x.expected.resize(std::min<size_t>(x.expected.size(), k));
  x.message = describe_linear_failure(x, k);

  WitnessViolation v;
  v.kind = WitnessViolation::Kind::WrongResult;
  v.op = x.op;
  v.node = scan.points[fi].node;
  v.t = x.point_t;
  v.message = x.message;
  v.expected = keys_text(x.expected);
  v.recorded = keys_text(x.recorded);
  r.witness.verdict = Verdict::NotLinearizable;
  r.witness.ops_replayed = x.position;
  r.witness.violation = v;
  r.failure = std::move(x);
  return r;
}

}  // namespace gpulin
