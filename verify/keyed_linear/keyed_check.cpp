#include "verify/keyed_linear/keyed_check.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <thread>

#include "verify/key_buckets.h"
#include "verify/keyed_linear/keyed_fns.h"
#include "verify/witness/points.h"

namespace gpulin {

namespace {

using namespace key_buckets;

using namespace keyed_fns;  // Kind, Fn and its enumerators

// Whether op fits the model as its check_call and check_result say (models/):
// the op's arity, and a completed op's result shape. Anything else is left to the
// generic path, which names the problem.
bool fits(Kind kind, Fn fn, const KeyOp& op) {
  if (fn == kUnknown) return false;
  if (op.args_len != arity_of(kind, fn)) return false;
  if (op.pending()) return true;
  switch (fn) {
    case kSearch: return true;  // any value (it will not match when it is no integer)
    case kContains: return op.res_kind == KeyOp::kBoolResult;
    case kSearchAll: return op.res_kind == KeyOp::kKeysResult;
    default: return op.res_kind == KeyOp::kNullResult;
  }
}

// One key's state in the models: its values, oldest first (map and set keep at
// most one; a set's is a placeholder for "present").
class KeyState {
 public:
  bool empty() const { return head_ == vals_.size(); }
  int64_t front() const { return vals_[head_]; }
  void clear() { vals_.clear(), head_ = 0; }
  void push(int64_t v) { vals_.push_back(v); }
  void pop_front() {
    if (!empty() && ++head_ == vals_.size()) clear();
  }
  // The values as a multiset equal to keys[0, n)?
  bool same_values(const int64_t* keys, uint32_t n, std::vector<int64_t>& scratch) const {
    if (n != vals_.size() - head_) return false;
    scratch.assign(vals_.begin() + static_cast<ptrdiff_t>(head_), vals_.end());
    std::sort(scratch.begin(), scratch.end());
    std::vector<int64_t> got(keys, keys + n);
    std::sort(got.begin(), got.end());
    return got == scratch;
  }

 private:
  std::vector<int64_t> vals_;
  size_t head_ = 0;
};

// The model's step on one key's state: false (state untouched) when a completed
// op's result is not what the model answers; a pending op takes effect only.
bool step(const KeyHistory& h, Fn fn, const KeyOp& op, KeyState& s, std::vector<int64_t>& scratch) {
  const int64_t* args = h.keys.data() + op.args_off;
  const bool check = !op.pending();
  switch (fn) {
    case kReplace:
      s.clear();
      s.push(args[1]);
      return true;
    case kInsert:
      if (op.args_len == 2) s.push(args[1]);  // multimap: one more pair
      else if (s.empty()) s.push(1);          // set
      return true;
    case kDelete:
      s.pop_front();  // a map's or set's only value, or a multimap's oldest
      return true;
    case kDeleteAll: s.clear(); return true;
    case kSearch:
      if (!check) return true;
      if (s.empty()) return op.res_kind == KeyOp::kNullResult;
      return op.res_kind == KeyOp::kValueResult && h.keys[op.res_off] == s.front();
    case kSearchAll: return !check || s.same_values(h.keys.data() + op.res_off, op.res_len, scratch);
    case kContains: return !check || (h.keys[op.res_off] != 0) == !s.empty();
    case kUnknown: break;
  }
  return false;
}

int64_t key_of(const KeyHistory& h, size_t i) { return h.keys[h.ops[i].args_off]; }

// What one thread of the walk keeps; a cache line each.
struct alignas(64) Lane {
  KeyState state;
  bool failed = false;  // the current key's rule order failed already
  uint64_t keys = 0;
  std::vector<std::pair<int64_t, uint64_t>> fails;  // (key, its first failing position)
  std::vector<int64_t> scratch;
};

// Replays every key's ops in the rule's order, keys in parallel: the lanes'
// failures and key counts.
template <class Word>
void replay_keys(const KeyHistory& h, const std::vector<Fn>& fns, const std::vector<size_t>& order, const Packing& pk,
                 unsigned threads, std::vector<Lane>& lanes) {
  const uint64_t m = order.size();
  Buckets<Word> b = bucket_tuples<Word>(m, pk, m, threads, [&](uint64_t p, auto&& emit) {
    emit(pk.pack(key_of(h, order[p]), p, false));
  });
  walk_buckets(b, m, threads, /*sort=*/true, /*in_key_order=*/false,
               [&](unsigned t, int64_t key, uint64_t pos, bool, int64_t, uint64_t next) {
                 Lane& lane = lanes[t];
                 if (!lane.failed) {
                   const KeyOp& op = h.ops[order[pos]];
                   if (!step(h, fns[op.fn], op, lane.state, lane.scratch)) {
                     lane.failed = true;
                     lane.fails.emplace_back(key, pos);
                   }
                 }
                 if (next == m) {  // the key's last op: the next tuple starts another key
                   ++lane.keys;
                   lane.state.clear();
                   lane.failed = false;
                 }
               });
}

// The rule's first failure, at position `pos` on `key`, as check_witness words it:
// the failing key's ops replayed by check_witness give the op, what the model
// answers and what it returned; the position is the whole order's.
WitnessViolation first_failure(const KeyHistory& h, int64_t key, uint64_t pos, size_t op_index) {
  const History sub = keys_sub_history(h, {key});
  const WitnessResult w = check_witness(sub);
  if (!w.violation || w.violation->kind != WitnessViolation::Kind::WrongResult || w.violation->op != h.ops[op_index].id)
    throw std::logic_error("keyed check: the replay of key " + std::to_string(key) + " does not fail at op " +
                           std::to_string(h.ops[op_index].id) + " as the per-key replay did");
  WitnessViolation v = *w.violation;
  v.message = wrong_result_message(sub.ops[static_cast<size_t>(sub.index_of(v.op))], v, pos, false);
  return v;
}

}  // namespace

History keys_sub_history(const KeyHistory& h, const std::vector<int64_t>& keys) {
  std::vector<int64_t> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::vector<size_t>> found(threads);
  parallel_chunks(h.ops.size(), threads, [&](uint64_t a, uint64_t b, unsigned t) {
    for (uint64_t i = a; i < b; ++i)
      if (h.ops[i].args_len && std::binary_search(sorted.begin(), sorted.end(), key_of(h, i))) found[t].push_back(i);
  });
  std::vector<size_t> ops;
  for (const auto& f : found) ops.insert(ops.end(), f.begin(), f.end());  // chunks in order: ascending
  return expand(h, ops);
}

namespace {

// The completed ops in the order of their rets: a linear extension of the real-time
// order (an op that precedes another returned before the other was even invoked),
// so an order in which every key replays correctly linearizes the history. The
// candidate for a history with no lp events (recorded by warp rounds); a pending
// op is left out (it may never have taken effect), and a key that then fails goes
// to the search, which places it.
PointScan ret_order(const KeyHistory& h, unsigned threads) {
  std::vector<std::pair<uint64_t, size_t>> by_ret(h.ops.size());
  parallel_chunks(h.ops.size(), threads, [&](uint64_t a, uint64_t b, unsigned) {
    for (uint64_t i = a; i < b; ++i) by_ret[i] = {h.ops[i].ret_t, i};
  });
  by_ret.erase(std::remove_if(by_ret.begin(), by_ret.end(), [](const auto& p) { return p.first == kPending; }),
               by_ret.end());
  std::sort(by_ret.begin(), by_ret.end());
  PointScan s;
  s.order.reserve(by_ret.size());
  for (const auto& p : by_ret) s.order.push_back(p.second);
  return s;
}

}  // namespace

KeyedCheckResult check_keyed_linear(const KeyHistory& h, const KeyedCheckOptions& options) {
  const Kind kind = kind_of(h.header, h.source);
  // No lp_rule (no lp events): each key's ops in ret order, the search deciding
  // the keys it fails on. Only where the search decides: alone it is no verdict.
  const bool by_ret = h.header.lp_rule.empty();
  if (by_ret && !options.decide)
    throw FormatError(h.source, 1,
                      "the header names no lp_rule, so there is no witness to check (the search orders each key's "
                      "operations by their ret instead: --method auto)");
  const std::optional<LpRule> rule = by_ret ? std::nullopt : std::optional<LpRule>(lp_rule_of(h.header, h.source));
  const unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  KeyedCheckResult r;

  // The ops' fit to the model, and the keys' range, in parallel.
  std::vector<Fn> fns;
  for (const std::string& f : h.fn_names) fns.push_back(fn_of(kind, f));
  struct Scan {
    int64_t min = INT64_MAX, max = INT64_MIN;
    size_t misfit = SIZE_MAX;
  };
  std::vector<Scan> scans(threads);
  parallel_chunks(h.ops.size(), threads, [&](uint64_t a, uint64_t b, unsigned t) {
    Scan& s = scans[t];
    for (uint64_t i = a; i < b && s.misfit == SIZE_MAX; ++i) {
      const KeyOp& op = h.ops[i];
      if (!fits(kind, fns[op.fn], op)) s.misfit = i;
      else s.min = std::min(s.min, key_of(h, i)), s.max = std::max(s.max, key_of(h, i));
    }
  });
  int64_t min_key = INT64_MAX, max_key = INT64_MIN;
  for (const Scan& s : scans) {
    if (s.misfit != SIZE_MAX) {
      r.applicable = false;
      r.why = "op " + std::to_string(h.ops[s.misfit].id) + " does not fit model " + h.header.model;
      return r;
    }
    min_key = std::min(min_key, s.min), max_key = std::max(max_key, s.max);
  }
  if (h.ops.empty()) min_key = max_key = 0;

  const PointScan points = rule ? scan_points(h, *rule) : ret_order(h, threads);
  const uint64_t m = points.order.size();
  const Packing pk = plan_packing(min_key, max_key, m, m);
  r.why = too_wide(pk);
  if (!r.why.empty()) {
    r.applicable = false;
    return r;
  }
  std::vector<Lane> lanes(threads);
  if (pk.fits_32_bits()) replay_keys<uint32_t>(h, fns, points.order, pk, threads, lanes);
  else replay_keys<uint64_t>(h, fns, points.order, pk, threads, lanes);

  // Every key the rule's order fails on: wrong results, and ops with a structural violation.
  std::pair<int64_t, uint64_t> first{0, UINT64_MAX};
  for (const Lane& lane : lanes) {
    r.keys += lane.keys;
    for (const auto& f : lane.fails) {
      r.failing_keys.push_back(f.first);
      if (f.second < first.second) first = f;
    }
  }
  for (size_t i : points.violating) r.failing_keys.push_back(key_of(h, i));
  std::sort(r.failing_keys.begin(), r.failing_keys.end());
  r.failing_keys.erase(std::unique(r.failing_keys.begin(), r.failing_keys.end()), r.failing_keys.end());

  // The rule's verdict, as check_witness gives it: the earliest structural
  // violation, else the first wrong result in the rule's order.
  if (points.violation) {
    r.witness.verdict = Verdict::NotLinearizable;
    r.witness.violation = points.violation;
  } else if (first.second != UINT64_MAX) {
    r.witness.verdict = Verdict::NotLinearizable;
    r.witness.ops_replayed = first.second;
    if (rule) {
      r.witness.violation = first_failure(h, first.first, first.second, points.order[first.second]);
    } else {
      WitnessViolation v;
      v.op = h.ops[points.order[first.second]].id;
      v.message = "in ret order, key " + std::to_string(first.first) + "'s op " + std::to_string(v.op) +
                  " returns what the model does not answer there";
      r.witness.violation = v;
    }
  } else {
    r.witness.ops_replayed = m;
  }
  r.verdict = r.witness.verdict;
  if (r.failing_keys.empty() || !options.decide) return r;

  // The failing keys decide by the search, on their ops alone.
  const History sub = keys_sub_history(h, r.failing_keys);
  r.failing_ops = sub.ops.size();
  r.search = check_search(sub, options.search);
  r.verdict = r.search->verdict;
  return r;
}

}  // namespace gpulin
