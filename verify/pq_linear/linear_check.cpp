#include "verify/pq_linear/linear_check.h"

#include <algorithm>
#include <thread>

#include "verify/key_buckets.h"
#include "verify/pq_linear/block_max.h"
#include "verify/pq_linear/key_rules.h"
#include "verify/witness/points.h"

namespace gpulin {

namespace {

using namespace pq_linear;
using namespace key_buckets;

// The ops in the rule's order, as the per-key rules see them.
struct Ordered {
  std::vector<uint32_t> op;        // index into h.ops, by position
  std::vector<uint8_t> is_del;
  std::vector<int64_t> max_res;    // a delete's largest returned key, kNoMax otherwise
  std::vector<uint64_t> present;   // keys present before the position
  uint64_t first_fail = kNoFailWord;  // sorted and size rules (a fail_word)

  uint64_t size() const { return op.size(); }
  // The tuples of one position: an insert's arguments, a delete's result.
  KeySpan tuples(const KeyHistory& h, uint64_t p) const {
    const KeyOp& o = h.ops[op[p]];
    return is_del[p] ? o.res() : o.args();
  }
};

// Every inserted and returned key as a tuple (key, position, is a delete's).
template <class Word>
Buckets<Word> bucket_keys(const KeyHistory& h, const Ordered& o, const Packing& pk, uint64_t total,
                          unsigned threads) {
  return bucket_tuples<Word>(o.size(), pk, total, threads, [&](uint64_t p, auto&& emit) {
    const KeySpan s = o.tuples(h, p);
    const int64_t* x = h.begin_of(s);
    const bool del = o.is_del[p];
    for (uint32_t i = 0; i < s.len; ++i) emit(pk.pack(x[i], p, del));
  });
}

std::vector<int64_t> keys_of(const KeyHistory& h, KeySpan s) { return {h.begin_of(s), h.end_of(s)}; }

// The rules over every tuple, each bucket checked right after it is sorted;
// on a failure, its explanation from the same buckets.
template <class Word>
LinearCheckResult judge(const KeyHistory& h, const PointScan& scan, const Ordered& o, const BlockMaxTable& table,
                        Buckets<Word> buckets, uint64_t k, unsigned threads, LinearCheckResult r) {
  const uint64_t m = o.size();
  // Each thread keeps its first failure (and its key).
  struct First {
    uint64_t word = kNoFailWord;
    int64_t key = 0;
  };
  std::vector<First> first(threads);
  walk_buckets(buckets, o.size(), threads, /*sort=*/true, /*in_key_order=*/false,
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
  walk_buckets(buckets, o.size(), threads, /*sort=*/false, /*in_key_order=*/true,
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
  resize_huge(o.op, m);
  resize_huge(o.is_del, m);
  assign_huge(o.max_res, m, kNoMax);
  resize_huge(o.present, m);
  // Each name's kind once (a history has two or three names, a million ops).
  enum : uint8_t { kIns, kDel, kOther };
  std::vector<uint8_t> kind_of_fn;
  for (const std::string& f : h.fn_names) kind_of_fn.push_back(f == "ins" ? kIns : f == "del" ? kDel : kOther);
  uint64_t present = 0, total = 0;
  for (uint64_t p = 0; p < m; ++p) {
    const size_t i = scan.order[p];
    const KeyOp& op = h.ops[i];
    const uint8_t kind = kind_of_fn[op.fn];
    if (kind == kOther)
      throw FormatError(h.source, op.inv_line,
                        "op " + std::to_string(op.id) + ": f must be ins or del, not " + h.fn_name(op));
    o.op[p] = static_cast<uint32_t>(i);
    o.present[p] = present;
    if (kind == kIns) {
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
      const KeySpan s = o.tuples(h, p);
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
  if (!total) min_key = max_key = 0;
  const Packing pk = plan_packing(min_key, max_key, m, total);
  r.why = too_wide(pk);
  if (!r.why.empty()) {
    r.applicable = false;
    return r;
  }
  const BlockMaxTable table(o.max_res);
  if (pk.fits_32_bits())
    return judge(h, scan, o, table, bucket_keys<uint32_t>(h, o, pk, total, threads), k, threads, std::move(r));
  return judge(h, scan, o, table, bucket_keys<uint64_t>(h, o, pk, total, threads), k, threads, std::move(r));
}

}  // namespace gpulin
