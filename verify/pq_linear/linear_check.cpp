#include "verify/pq_linear/linear_check.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <thread>

#include "verify/pq_linear/key_rules.h"
#include "verify/witness/points.h"

namespace gpulin {

namespace {

using namespace pq_linear;

// Runs body(begin, end, thread) over [0, n) in `threads` contiguous chunks.
void parallel_chunks(uint64_t n, unsigned threads, const std::function<void(uint64_t, uint64_t, unsigned)>& body) {
  threads = static_cast<unsigned>(std::max<uint64_t>(1, std::min<uint64_t>(threads, n / 4096 + 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(body, n * t / threads, n * (t + 1) / threads, t);
  body(0, n / threads, 0);
  for (auto& th : pool) th.join();
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
  int64_t key(uint64_t w) const { return static_cast<int64_t>((w >> pos_bits) + static_cast<uint64_t>(min_key)); }
  uint64_t pos(uint64_t w) const { return w & ((uint64_t{1} << pos_bits) - 1); }
};

// The tuples of one position: an insert's arguments, a delete's result.
KeySpan tuple_span(const KeyHistory& h, const Ordered& o, uint64_t p) {
  const KeyOp& op = h.ops[o.op[p]];
  return o.is_del[p] ? op.res() : op.args();
}

// Sorted (key, position) words: bucketed by their top bits in one stable,
// parallel scatter (each thread owns a range of positions, so a bucket keeps
// position order), then each bucket sorted in cache.
std::vector<uint64_t> sorted_tuples(const KeyHistory& h, const Ordered& o, const Packing& pk, int64_t max_key,
                                    uint64_t total, unsigned threads) {
  const uint64_t m = o.op.size();
  const uint64_t max_word = pk.pack(max_key, m);
  const uint32_t bits = 64 - static_cast<uint32_t>(__builtin_clzll(max_word | 1));
  constexpr uint32_t kBucketBits = 12;
  const uint32_t shift = bits > kBucketBits ? bits - kBucketBits : 0;
  const size_t buckets = size_t{1} << kBucketBits;
  threads = std::max(1u, threads);
  std::vector<std::vector<uint64_t>> count(threads, std::vector<uint64_t>(buckets + 1, 0));
  auto for_positions = [&](unsigned t, auto&& f) {
    for (uint64_t p = m * t / threads; p < m * (t + 1) / threads; ++p) {
      const KeySpan s = tuple_span(h, o, p);
      for (uint32_t i = 0; i < s.len; ++i) f(pk.pack(h.keys[s.off + i], p));
    }
  };
  std::vector<std::thread> pool;
  auto run_all = [&](auto&& f) {
    pool.clear();
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(f, t);
    f(0u);
    for (auto& th : pool) th.join();
  };
  run_all([&](unsigned t) { for_positions(t, [&](uint64_t w) { ++count[t][w >> shift]; }); });
  // Bucket b of thread t starts after bucket b of every earlier thread.
  std::vector<uint64_t> bucket_start(buckets + 1, 0);
  uint64_t at = 0;
  for (size_t b = 0; b < buckets; ++b) {
    bucket_start[b] = at;
    for (unsigned t = 0; t < threads; ++t) {
      const uint64_t c = count[t][b];
      count[t][b] = at;
      at += c;
    }
  }
  bucket_start[buckets] = at;
  std::vector<uint64_t> out(total);
  run_all([&](unsigned t) { for_positions(t, [&](uint64_t w) { out[count[t][w >> shift]++] = w; }); });
  std::atomic<size_t> next{0};
  run_all([&](unsigned) {
    for (size_t b; (b = next.fetch_add(1)) < buckets;)
      std::sort(out.begin() + bucket_start[b], out.begin() + bucket_start[b + 1]);
  });
  return out;
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

// The first tuple index >= i that starts a key's segment (or n).
uint64_t segment_start_at_or_after(const std::vector<uint64_t>& w, const Packing& pk, uint64_t i) {
  while (i > 0 && i < w.size() && pk.key(w[i]) == pk.key(w[i - 1])) ++i;
  return i;
}

// Walks every segment: f(j, key, pos, is_del, c_after, next_pos) for each tuple,
// threads taking whole segments.
template <class F>
void walk_segments(const std::vector<uint64_t>& w, const Packing& pk, const Ordered& o, unsigned threads, F&& f) {
  const uint64_t n = w.size(), m = o.op.size();
  parallel_chunks(n, threads, [&](uint64_t a, uint64_t b, unsigned t) {
    a = segment_start_at_or_after(w, pk, a);
    b = segment_start_at_or_after(w, pk, b);
    int64_t c = 0;
    for (uint64_t j = a; j < b; ++j) {
      const int64_t key = pk.key(w[j]);
      const uint64_t pos = pk.pos(w[j]);
      if (j == a || key != pk.key(w[j - 1])) c = 0;
      const bool del = o.is_del[pos];
      c += del ? -1 : 1;
      const bool last = j + 1 == n || pk.key(w[j + 1]) != key;
      f(t, j, key, pos, del, c, last ? m : pk.pos(w[j + 1]));
    }
  });
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

  // Positions: kind, largest returned key, keys present before each.
  Ordered o;
  const uint64_t m = scan.order.size();
  o.op.resize(m);
  o.is_del.resize(m);
  o.max_res.assign(m, kNoMax);
  o.present.resize(m);
  uint64_t present = 0, total = 0;
  int64_t min_key = INT64_MAX, max_key = INT64_MIN;
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
      for (const int64_t* x = h.begin_of(op.args()); x != h.end_of(op.args()); ++x) {
        min_key = std::min(min_key, *x);
        max_key = std::max(max_key, *x);
      }
      continue;
    }
    o.is_del[p] = 1;
    if (op.pending()) {
      r.applicable = false;
      r.why = "op " + std::to_string(op.id) +
              " is a pending delete with a linearization point: what it removed is unknown, so only a replay can say";
      return r;
    }
    const KeySpan s = op.res();
    const int64_t* x = h.begin_of(s);
    if (!std::is_sorted(x, x + s.len) && o.first_fail == kNoFailWord) o.first_fail = fail_word(p, kUnsorted);
    if (!size_ok(s.len, present, k) && o.first_fail > fail_word(p, kSize)) o.first_fail = fail_word(p, kSize);
    if (s.len) o.max_res[p] = *std::max_element(x, x + s.len);
    for (uint32_t j = 0; j < s.len; ++j) {
      min_key = std::min(min_key, x[j]);
      max_key = std::max(max_key, x[j]);
    }
    present -= std::min<uint64_t>(present, s.len);
    total += s.len;
  }
  r.tuples = total;

  // Sorted tuples. Keys spread too wide to pack beside the position are not
  // decided here: the caller runs the replay (rare: 64-bit keys spanning the range).
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
  const std::vector<uint64_t> w = sorted_tuples(h, o, pk, max_key, total, threads);
  const std::vector<int64_t> table_data = sparse_table(o.max_res, threads);
  const SparseMaxView table{table_data.data(), m, sparse_levels(m)};

  // The rules, per tuple; each thread keeps its first failure (and its key).
  struct First {
    uint64_t word = kNoFailWord;
    int64_t key = 0;
  };
  std::vector<First> first(threads);
  walk_segments(w, pk, o, threads, [&](unsigned t, uint64_t, int64_t key, uint64_t pos, bool del, int64_t c, uint64_t next) {
    const uint64_t f = check_tuple(key, pos, del, c, next, table);
    if (f < first[t].word || (f == first[t].word && f != kNoFailWord && key < first[t].key)) first[t] = {f, key};
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
  walk_segments(w, pk, o, threads, [&](unsigned t, uint64_t, int64_t key, uint64_t pos, bool del, int64_t c, uint64_t next) {
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
