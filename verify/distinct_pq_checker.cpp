#include "verify/distinct_pq_checker.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <vector>

#include "verify/keys_text.h"
#include "verify/pq_op_fit.h"

namespace gpulin {
namespace {

constexpr uint32_t kNoRank = std::numeric_limits<uint32_t>::max();
constexpr uint32_t kNoIndex = std::numeric_limits<uint32_t>::max();

// Counts of present keys over key ranks: how many present keys are <= a rank,
// and the j-th smallest present key, both in O(log n).
class Fenwick {
 public:
  explicit Fenwick(size_t n) : tree_(n + 1, 0) {
    while ((size_t{1} << log_) <= n) ++log_;
  }
  void add(uint32_t rank, int32_t delta) {
    for (size_t i = size_t{rank} + 1; i < tree_.size(); i += i & (~i + 1)) tree_[i] += delta;
  }
  int64_t count_upto(uint32_t rank) const {  // present keys of rank <= rank
    int64_t s = 0;
    for (size_t i = size_t{rank} + 1; i > 0; i -= i & (~i + 1)) s += tree_[i];
    return s;
  }
  uint32_t kth(int64_t j) const {  // rank of the j-th smallest present key, j >= 1
    size_t pos = 0;
    for (int b = log_; b >= 0; --b) {
      const size_t next = pos + (size_t{1} << b);
      if (next < tree_.size() && tree_[next] < j) pos = next, j -= tree_[next];
    }
    return static_cast<uint32_t>(pos);  // 1-based pos + 1, minus 1
  }

 private:
  std::vector<int32_t> tree_;
  int log_ = 0;
};

// A delete's static facts and the counters the pass keeps up to date. Readiness
// (docs/distinct-pq-checker.md) is then a few comparisons and at most one
// Fenwick query.
struct Del {
  uint32_t op = 0;        // index into KeyHistory::ops
  uint64_t res_off = 0;   // its result's ranks: Prepared::rank_at[res_off ..]
  uint32_t len = 0;       // |R|
  uint32_t min_rank = 0;  // rank of R's smallest key
  uint32_t max_rank = 0;  // rank of m = max(R)
  bool impossible = false;  // a key of R never inserted, returned twice or by another delete
  // The pass's counters.
  uint32_t n_avail = 0;     // keys of R whose ins has been invoked
  uint32_t n_present = 0;   // keys of R present now (their ins took effect)
  uint32_t pull_bad = 0;    // invoked, not yet effective inserts of R's keys that would add a blocking key
  uint32_t pull_extra = 0;  // ... that would add any key outside R (a "drag")
  bool invoked = false;
  bool fired = false;
  uint32_t wait_slot = kNoIndex;  // position in Pass::waiting_
};

// What pulling insert `ins` forward for delete `del` would add besides R's keys.
struct Pair {
  uint32_t del = 0;    // index into Prepared::dels
  bool extra = false;  // the insert has keys the delete does not return
  bool bad = false;    // one of them would stop the delete (below m, or |R| < k)
};

struct Prepared {
  const KeyHistory* h = nullptr;
  size_t k = 1;
  uint16_t ins_fn = 0xffff;
  std::vector<int64_t> key_of_rank;  // rank -> key (the inserted keys, sorted)
  std::vector<uint32_t> ins_of_rank; // rank -> index of the op inserting it
  std::vector<uint32_t> owner;       // rank -> the delete returning it first, or kNoIndex
  std::vector<uint32_t> rank_at;     // position in h->keys -> rank (args of ins, res of del)
  std::vector<Del> dels;
  std::vector<uint32_t> del_of_op;   // op index -> index into dels, or kNoIndex
  std::vector<uint32_t> pair_off;    // op index -> its pairs: pairs[pair_off[i] .. pair_off[i + 1])
  std::vector<Pair> pairs;

  bool is_ins(const KeyOp& op) const { return op.fn == ins_fn; }
  uint32_t r(const Del& d, uint32_t j) const { return rank_at[d.res_off + j]; }
};

std::string op_text(const KeyHistory& h, const KeyOp& op) {
  return "op " + std::to_string(op.id) + " (" + h.fn_name(op) + ", actor " + std::to_string(op.actor) + ")";
}

// --- model and format -------------------------------------------------------

// k of the model, or nullopt when the model is not pq / pq-batch.
std::optional<size_t> model_k(const KeyHistory& h) {
  if (h.header.model == "pq") return 1;
  if (h.header.model != "pq-batch") return std::nullopt;
  const Value* v = h.header.params.find("k");
  if (!v || !v->is_int() || v->as_int() < 1)
    throw FormatError(h.source, 1, "model pq-batch needs params.k, an integer >= 1");
  return static_cast<size_t>(v->as_int());
}

// The checks of the pq-batch model's check_call / check_result, on KeyOps.
void validate(const KeyHistory& h, size_t k) {
  for (const KeyOp& op : h.ops) {
    const PqMisfit misfit = pq_misfit(h, op, k);
    if (misfit == PqMisfit::None) continue;
    const std::string& f = h.fn_name(op);
    const std::string what = h.header.model + ": op " + std::to_string(op.id) + " (" + f + "): ";
    switch (misfit) {
      case PqMisfit::None: break;
      case PqMisfit::UnknownOp:
        throw FormatError(h.source, op.inv_line, what + "unknown operation '" + f + "' (ins, del)");
      case PqMisfit::InsArgs:
        throw FormatError(h.source, op.inv_line, what + "ins takes 1 to " + std::to_string(k) + " integer keys");
      case PqMisfit::InsResult: throw FormatError(h.source, op.ret_line, what + "ins returns null");
      case PqMisfit::DelArgs: throw FormatError(h.source, op.inv_line, what + "del takes no arguments");
      case PqMisfit::DelResult:
        throw FormatError(h.source, op.ret_line,
                          op.res_kind == KeyOp::kNullResult
                              ? what + "del returns a list of keys, got null"
                              : what + "del returns at most " + std::to_string(k) + " integer keys ascending");
    }
  }
}

// (key, position in h.keys) of every inserted key, sorted by key.
std::vector<std::pair<int64_t, uint64_t>> inserted_keys(const KeyHistory& h) {
  std::vector<std::pair<int64_t, uint64_t>> v;
  for (const KeyOp& op : h.ops)
    if (h.fn_name(op) == "ins")
      for (uint32_t i = 0; i < op.args_len; ++i) v.emplace_back(h.keys[op.args_off + i], op.args_off + i);
  std::sort(v.begin(), v.end());
  return v;
}

bool adjacent_equal_keys(const std::vector<std::pair<int64_t, uint64_t>>& v) {
  for (size_t i = 1; i < v.size(); ++i)
    if (v[i - 1].first == v[i].first) return true;
  return false;
}

// --- the static indexes -----------------------------------------------------

void index_keys(Prepared& p, const std::vector<std::pair<int64_t, uint64_t>>& keys) {
  const KeyHistory& h = *p.h;
  p.rank_at.assign(h.keys.size(), kNoRank);
  p.key_of_rank.resize(keys.size());
  p.ins_of_rank.resize(keys.size());
  p.owner.assign(keys.size(), kNoIndex);
  for (size_t r = 0; r < keys.size(); ++r) {
    p.key_of_rank[r] = keys[r].first;
    p.rank_at[keys[r].second] = static_cast<uint32_t>(r);
  }
  for (uint32_t i = 0; i < h.ops.size(); ++i)
    if (p.is_ins(h.ops[i]))
      for (uint32_t j = 0; j < h.ops[i].args_len; ++j) p.ins_of_rank[p.rank_at[h.ops[i].args_off + j]] = i;
}

// A delete's result: ranks, and whether some key can never be returned by it
// (never inserted, listed twice, or already returned by an earlier delete).
void index_delete(Prepared& p, uint32_t op_index) {
  const KeyHistory& h = *p.h;
  const KeyOp& op = h.ops[op_index];
  Del d;
  d.op = op_index;
  d.res_off = op.res_off;
  d.len = op.res_len;
  const auto di = static_cast<uint32_t>(p.dels.size());
  for (uint32_t j = 0; j < d.len; ++j) {
    const int64_t key = h.keys[op.res_off + j];
    auto it = std::lower_bound(p.key_of_rank.begin(), p.key_of_rank.end(), key);
    if (it == p.key_of_rank.end() || *it != key) {
      d.impossible = true;  // never inserted
      continue;
    }
    const auto rank = static_cast<uint32_t>(it - p.key_of_rank.begin());
    p.rank_at[op.res_off + j] = rank;
    if (p.owner[rank] == kNoIndex) p.owner[rank] = di;
    else d.impossible = true;  // returned twice (by this delete or an earlier one)
  }
  if (!d.impossible && d.len > 0) d.min_rank = p.r(d, 0), d.max_rank = p.r(d, d.len - 1);
  p.del_of_op[op_index] = di;
  p.dels.push_back(d);
}

// For each insert and each delete returning one of its keys: what pulling the
// insert forward for that delete would add besides the delete's own keys. The
// first key (in key order) not returned by the delete is the one that matters.
void index_pairs(Prepared& p) {
  const KeyHistory& h = *p.h;
  p.pair_off.assign(h.ops.size() + 1, 0);
  std::vector<uint32_t> ranks, owners;
  for (uint32_t i = 0; i < h.ops.size(); ++i) {
    p.pair_off[i] = static_cast<uint32_t>(p.pairs.size());
    const KeyOp& op = h.ops[i];
    if (!p.is_ins(op)) continue;
    ranks.assign(p.rank_at.begin() + static_cast<ptrdiff_t>(op.args_off),
                 p.rank_at.begin() + static_cast<ptrdiff_t>(op.args_off + op.args_len));
    std::sort(ranks.begin(), ranks.end());
    owners.clear();
    for (uint32_t r : ranks)
      if (p.owner[r] != kNoIndex && std::find(owners.begin(), owners.end(), p.owner[r]) == owners.end())
        owners.push_back(p.owner[r]);
    for (uint32_t di : owners) {
      const Del& d = p.dels[di];
      uint32_t first_other = kNoRank;
      for (uint32_t r : ranks)
        if (p.owner[r] != di) {
          first_other = r;
          break;
        }
      Pair pr;
      pr.del = di;
      pr.extra = first_other != kNoRank;
      pr.bad = pr.extra && (d.len < p.k || first_other < d.max_rank);
      p.pairs.push_back(pr);
    }
  }
  p.pair_off[h.ops.size()] = static_cast<uint32_t>(p.pairs.size());
}

Prepared prepare(const KeyHistory& h, size_t k, const std::vector<std::pair<int64_t, uint64_t>>& keys) {
  Prepared p;
  p.h = &h;
  p.k = k;
  for (uint16_t i = 0; i < h.fn_names.size(); ++i)
    if (h.fn_names[i] == "ins") p.ins_fn = i;
  index_keys(p, keys);
  p.del_of_op.assign(h.ops.size(), kNoIndex);
  for (uint32_t i = 0; i < h.ops.size(); ++i)
    if (!p.is_ins(h.ops[i])) index_delete(p, i);
  index_pairs(p);
  return p;
}

// --- the pass ---------------------------------------------------------------

enum class InsState : uint8_t { NotInvoked, Pullable, Effective };

// One walk over the events. Eager: every delete fires as soon as it is ready
// (the exact strategy when no insert of several keys is pulled). Lazy: a delete
// whose firing would pull such an insert waits until its ret; tried only after
// the eager pass failed, and sound whenever it succeeds.
class Pass {
 public:
  Pass(const Prepared& p, bool lazy) : p_(p), h_(*p.h), lazy_(lazy), dels_(p.dels), present_(p.key_of_rank.size()) {
    ins_state_.assign(h_.ops.size(), InsState::NotInvoked);
  }

  // Runs to the end or to the first delete that cannot take effect by its ret.
  bool run() {
    std::vector<uint32_t> by_ret;
    for (uint32_t i = 0; i < h_.ops.size(); ++i)
      if (!h_.ops[i].pending()) by_ret.push_back(i);
    std::sort(by_ret.begin(), by_ret.end(), [&](uint32_t a, uint32_t b) { return h_.ops[a].ret_t < h_.ops[b].ret_t; });
    size_t next_inv = 0, next_ret = 0;
    while (next_inv < h_.ops.size() || next_ret < by_ret.size()) {
      const bool inv = next_inv < h_.ops.size() &&
                       (next_ret == by_ret.size() || h_.ops[next_inv].inv_t < h_.ops[by_ret[next_ret]].ret_t);
      const uint32_t i = inv ? static_cast<uint32_t>(next_inv++) : by_ret[next_ret++];
      if (inv ? !on_inv(i) : !on_ret(i)) return false;
    }
    return true;
  }

  bool dragged() const { return dragged_; }
  uint32_t failed_del() const { return failed_; }
  std::string explain(uint32_t di) const;

 private:
  bool on_inv(uint32_t i) {
    if (p_.is_ins(h_.ops[i])) {
      ins_state_[i] = InsState::Pullable;
      for_ins_ranks(i, [&](uint32_t r) {
        if (p_.owner[r] != kNoIndex) ++dels_[p_.owner[r]].n_avail;
      });
      for (uint32_t j = p_.pair_off[i]; j < p_.pair_off[i + 1]; ++j) {
        dels_[p_.pairs[j].del].pull_bad += p_.pairs[j].bad;
        dels_[p_.pairs[j].del].pull_extra += p_.pairs[j].extra;
      }
      recheck_owners(i);
    } else {
      Del& d = dels_[p_.del_of_op[i]];
      d.invoked = true;
      d.wait_slot = static_cast<uint32_t>(waiting_.size());
      waiting_.push_back(p_.del_of_op[i]);
      if (try_fire(p_.del_of_op[i], false)) drain();
    }
    return true;
  }

  bool on_ret(uint32_t i) {
    if (p_.is_ins(h_.ops[i])) {
      // Forced: the insert takes effect at its ret at the latest. Adding keys can
      // only make deletes unready, so only the lazy pass (whose waiting deletes
      // may stop pulling) looks again.
      if (ins_state_[i] == InsState::Pullable) take_effect(i);
      if (lazy_) recheck_owners(i);
      return true;
    }
    const uint32_t di = p_.del_of_op[i];
    if (dels_[di].fired) return true;
    if (lazy_ && try_fire(di, true)) {
      drain();
      return true;
    }
    failed_ = di;
    return false;
  }

  // Calls f(rank) for each key of insert i.
  template <class F>
  void for_ins_ranks(uint32_t i, F f) const {
    const KeyOp& op = h_.ops[i];
    for (uint32_t j = 0; j < op.args_len; ++j) f(p_.rank_at[op.args_off + j]);
  }

  void recheck_owners(uint32_t ins) {
    for (uint32_t j = p_.pair_off[ins]; j < p_.pair_off[ins + 1]; ++j) {
      const uint32_t di = p_.pairs[j].del;
      if (dels_[di].invoked && !dels_[di].fired && try_fire(di, false)) drain();
    }
  }

  bool ready(const Del& d, bool at_ret) const {
    if (d.impossible || d.n_avail < d.len || d.pull_bad > 0) return false;
    if (lazy_ && !at_ret && d.pull_extra > 0) return false;
    if (d.len < p_.k) return g_size_ == d.n_present;  // S must be exactly R
    if (g_size_ == d.n_present) return true;           // every present key is R's
    if (min_g_ < d.min_rank) return false;             // a present key below all of R
    if (d.len == 1) return true;                       // min_g >= m: nothing below m
    return present_.count_upto(d.max_rank) == d.n_present;
  }

  bool try_fire(uint32_t di, bool at_ret) {
    Del& d = dels_[di];
    if (!ready(d, at_ret)) return false;
    if (d.pull_extra > 0) dragged_ = true;
    for (uint32_t j = 0; j < d.len; ++j) {
      const uint32_t ins = p_.ins_of_rank[p_.r(d, j)];
      if (ins_state_[ins] == InsState::Pullable) take_effect(ins);  // just in time, inside its interval
    }
    for (uint32_t j = 0; j < d.len; ++j) remove_key(p_.r(d, j));
    d.fired = true;
    // Swap-remove from the waiting list.
    const uint32_t last = waiting_.back();
    waiting_[d.wait_slot] = last;
    dels_[last].wait_slot = d.wait_slot;
    waiting_.pop_back();
    d.wait_slot = kNoIndex;
    return true;
  }

  // Fires waiting deletes until none is ready: a firing removes keys, which
  // can make others ready. Few deletes wait at once (at most one per actor).
  void drain() {
    for (bool fired = true; fired;) {
      fired = false;
      for (size_t j = 0; j < waiting_.size();)
        if (try_fire(waiting_[j], false)) fired = true;  // slot j now holds another delete
        else ++j;
    }
  }

  void take_effect(uint32_t ins) {
    ins_state_[ins] = InsState::Effective;
    for_ins_ranks(ins, [&](uint32_t r) {
      add_key(r);
      if (p_.owner[r] != kNoIndex) ++dels_[p_.owner[r]].n_present;
    });
    for (uint32_t j = p_.pair_off[ins]; j < p_.pair_off[ins + 1]; ++j) {
      dels_[p_.pairs[j].del].pull_bad -= p_.pairs[j].bad;
      dels_[p_.pairs[j].del].pull_extra -= p_.pairs[j].extra;
    }
  }

  void add_key(uint32_t rank) {
    present_.add(rank, 1);
    ++g_size_;
    min_g_ = std::min(min_g_, rank);
  }
  void remove_key(uint32_t rank) {
    present_.add(rank, -1);
    --g_size_;
    if (rank == min_g_) min_g_ = g_size_ ? present_.kth(1) : kNoRank;
  }

  // The smallest present key that R does not return, or kNoRank.
  uint32_t smallest_present_outside(const Del& d) const {
    for (int64_t j = 1; j <= g_size_; ++j) {
      const uint32_t r = present_.kth(j);
      if (p_.owner[r] != p_.del_of_op[d.op]) return r;
    }
    return kNoRank;
  }

  const Prepared& p_;
  const KeyHistory& h_;
  bool lazy_;
  std::vector<Del> dels_;
  std::vector<InsState> ins_state_;
  Fenwick present_;           // G: the keys present now
  int64_t g_size_ = 0;
  uint32_t min_g_ = kNoRank;  // smallest present rank
  std::vector<uint32_t> waiting_;  // invoked, unfired deletes
  bool dragged_ = false;
  uint32_t failed_ = kNoIndex;
};

// Why delete di could not take effect by its ret: the first reason found, in
// the order a reader would check them.
std::string Pass::explain(uint32_t di) const {
  const Del& d = dels_[di];
  const KeyOp& op = h_.ops[d.op];
  std::string s = "delete " + op_text(h_, op) + " returned " + keys_text(h_.begin_of(op.res()), op.res_len) + " at t=" +
                  std::to_string(op.ret_t) + ", but at no point in [" + std::to_string(op.inv_t) + ", " +
                  std::to_string(op.ret_t) + "] can it return that: ";
  auto key_s = [&](uint32_t rank) { return "key " + std::to_string(p_.key_of_rank[rank]); };
  auto ins_s = [&](uint32_t rank) { return op_text(h_, h_.ops[p_.ins_of_rank[rank]]); };
  for (uint32_t j = 0; j < d.len; ++j) {
    const int64_t key = h_.keys[op.res_off + j];
    const uint32_t rank = p_.r(d, j);
    if (j > 0 && h_.keys[op.res_off + j - 1] == key) return s + "it lists key " + std::to_string(key) + " twice";
    if (rank == kNoRank) return s + "key " + std::to_string(key) + " is never inserted";
    const uint32_t owner = p_.owner[rank];
    if (owner != di) {
      const KeyOp& other = h_.ops[p_.dels[owner].op];
      return s + key_s(rank) + " (inserted by " + ins_s(rank) + ") is also returned by " + op_text(h_, other) +
             (dels_[owner].fired ? ", which had already taken effect" : "");
    }
    const KeyOp& ins = h_.ops[p_.ins_of_rank[rank]];
    if (ins_state_[p_.ins_of_rank[rank]] == InsState::NotInvoked)
      return s + key_s(rank) + " is inserted by " + ins_s(rank) + ", invoked only at t=" + std::to_string(ins.inv_t);
  }
  if (d.len < p_.k) {
    const uint32_t other = smallest_present_outside(d);
    if (other != kNoRank)
      return s +
             (d.len == 0 ? std::string("it returned nothing, so the queue must have been empty")
                         : "it returned fewer than k=" + std::to_string(p_.k) +
                               " keys, so the queue must have held only those") +
             ", but " + key_s(other) + " (inserted by " + ins_s(other) + ") was present";
  } else {
    const uint32_t other = smallest_present_outside(d);
    if (other != kNoRank && other < d.max_rank)
      return s + "the smaller " + key_s(other) + " (inserted by " + ins_s(other) +
             ") was present and would have been returned first";
  }
  // What is left: pulling an insert forward would add a blocking key.
  for (uint32_t j = 0; j < d.len; ++j) {
    const uint32_t ins = p_.ins_of_rank[p_.r(d, j)];
    if (ins_state_[ins] != InsState::Pullable) continue;
    for (uint32_t q = p_.pair_off[ins]; q < p_.pair_off[ins + 1]; ++q)
      if (p_.pairs[q].del == di && p_.pairs[q].bad)
        return s + "its " + key_s(p_.r(d, j)) + " comes from " + ins_s(p_.r(d, j)) +
               ", which inserts other keys too, and one of them would block it";
  }
  return s + "it was never ready";  // not reached: readiness fails for one of the reasons above
}

// Failures that hold in every linearization whatever the pass did before: a key
// never inserted, returned twice, or whose insert is invoked after the delete's
// ret. The other reasons rest on the pass's state, exact only without drags.
bool certain_failure(const Prepared& p, uint32_t di) {
  const Del& d = p.dels[di];
  const KeyHistory& h = *p.h;
  const KeyOp& op = h.ops[d.op];
  for (uint32_t j = 0; j < d.len; ++j) {
    const uint32_t rank = p.r(d, j);
    if (j > 0 && h.keys[op.res_off + j - 1] == h.keys[op.res_off + j]) return true;
    if (rank == kNoRank || p.owner[rank] != di) return true;
    if (h.ops[p.ins_of_rank[rank]].inv_t > op.ret_t) return true;
  }
  return false;
}

DistinctPqResult not_applicable(DistinctPqResult::Applicable why, std::string message) {
  DistinctPqResult r;
  r.applicable = why;
  r.verdict = Verdict::Undecided;
  r.message = std::move(message);
  return r;
}

}  // namespace

const char* to_string(DistinctPqResult::Applicable a) {
  switch (a) {
    case DistinctPqResult::Applicable::Yes: return "applicable";
    case DistinctPqResult::Applicable::NotPqModel: return "not a pq model";
    case DistinctPqResult::Applicable::DuplicateKeys: return "duplicate keys";
    case DistinctPqResult::Applicable::PendingDelete: return "pending delete";
    case DistinctPqResult::Applicable::MultiKeyPulled: return "multi-key insert pulled";
  }
  return "?";
}

bool has_distinct_keys(const KeyHistory& h) { return !adjacent_equal_keys(inserted_keys(h)); }

DistinctPqResult check_distinct_pq(const KeyHistory& h) {
  using A = DistinctPqResult::Applicable;
  const std::optional<size_t> k = model_k(h);
  if (!k) return not_applicable(A::NotPqModel, "model '" + h.header.model + "' is neither pq nor pq-batch");
  validate(h, *k);
  const auto keys = inserted_keys(h);
  if (adjacent_equal_keys(keys))
    return not_applicable(A::DuplicateKeys, "some key is inserted more than once; this check needs distinct keys");
  for (const KeyOp& op : h.ops)
    if (op.pending() && h.fn_name(op) == "del")
      return not_applicable(A::PendingDelete, "delete " + op_text(h, op) +
                                                  " is pending: its result is unknown, which this check does not handle");

  const Prepared p = prepare(h, *k, keys);
  Pass eager(p, false);
  DistinctPqResult res;
  if (eager.run()) {
    res.verdict = Verdict::Linearizable;
    return res;
  }
  const uint32_t di = eager.failed_del();
  res.failing_op = h.ops[p.dels[di].op].id;
  res.message = eager.explain(di);
  if (!eager.dragged() || certain_failure(p, di)) {
    res.verdict = Verdict::NotLinearizable;
    return res;
  }
  // The eager pass pulled an insert of several keys forward, which is not
  // always best: try deferring such deletes; success is a real linearization.
  Pass lazy(p, true);
  if (lazy.run()) {
    res = DistinctPqResult{};
    res.verdict = Verdict::Linearizable;
    return res;
  }
  return not_applicable(A::MultiKeyPulled,
                        "undecided: " + res.message +
                            " -- after pulling an insert of several keys forward, which may have been wrong; the "
                            "check is exact only without such pulls (use the search)");
}

}  // namespace gpulin
