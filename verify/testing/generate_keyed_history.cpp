#include "verify/testing/generate_keyed_history.h"

#include "histories/id_index.h"

#include <deque>
#include <string>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace gpulin {
namespace {

enum class KeyedKind { Map, Set, Multimap };

KeyedKind kind_of(const std::string& model) {
  if (model == "map") return KeyedKind::Map;
  if (model == "set") return KeyedKind::Set;
  if (model == "multimap") return KeyedKind::Multimap;
  throw std::invalid_argument("generate_keyed_history: model must be map, set or multimap, not " + model);
}

enum class KeyedFn { Update, Delete, Search, SearchAll, Contains };

// The sequential model the results come from, applied at each lp. A map's or
// set's key holds at most one value (a dense array); a multimap's its list.
class KeyedSpec {
 public:
  KeyedSpec(KeyedKind kind, uint64_t keys)
      : kind_(kind), slot_(keys, kAbsent), value_(kind == KeyedKind::Multimap ? 0 : keys, 0) {}

  // The keys with a value (any of them, for picking one at random).
  bool empty() const { return present_.empty(); }
  int64_t any_present(uint64_t r) const { return present_[r % present_.size()]; }

  // Applies op (fn, key, value: args) and appends its result to `pool`: the result's kind.
  KeyOp::Result apply(KeyedFn fn, int64_t key, int64_t value, std::vector<int64_t>& pool) {
    if (kind_ == KeyedKind::Multimap) return apply_multi(fn, key, value, pool);
    const uint64_t k = static_cast<uint64_t>(key);
    const bool has = slot_[k] != kAbsent;
    switch (fn) {
      case KeyedFn::Update:
        value_[k] = kind_ == KeyedKind::Set ? 1 : value;
        track(key, true);
        return KeyOp::kNullResult;
      case KeyedFn::Delete: track(key, false); return KeyOp::kNullResult;
      case KeyedFn::Contains: pool.push_back(has); return KeyOp::kBoolResult;
      case KeyedFn::Search:
        if (!has) return KeyOp::kNullResult;
        pool.push_back(value_[k]);
        return KeyOp::kValueResult;
      case KeyedFn::SearchAll: break;
    }
    return KeyOp::kNullResult;
  }

 private:
  KeyOp::Result apply_multi(KeyedFn fn, int64_t key, int64_t value, std::vector<int64_t>& pool) {
    std::deque<int64_t>& vs = multi_[key];
    KeyOp::Result r = KeyOp::kNullResult;
    switch (fn) {
      case KeyedFn::Update: vs.push_back(value); break;
      case KeyedFn::Delete:
        if (!vs.empty()) vs.pop_front();
        break;
      case KeyedFn::Search:
        if (!vs.empty()) pool.push_back(vs.front()), r = KeyOp::kValueResult;
        break;
      case KeyedFn::SearchAll:
        pool.insert(pool.end(), vs.begin(), vs.end());
        r = KeyOp::kKeysResult;
        break;
      case KeyedFn::Contains: break;
    }
    track(key, !vs.empty());
    if (vs.empty()) multi_.erase(key);
    return r;
  }

 private:
  static constexpr uint64_t kAbsent = UINT64_MAX;
  // Keeps present_ the keys with a value, slot_ their places in it.
  void track(int64_t key, bool has) {
    uint64_t& s = slot_[static_cast<uint64_t>(key)];
    if (has && s == kAbsent) {
      s = present_.size();
      present_.push_back(key);
    } else if (!has && s != kAbsent) {
      const int64_t last = present_.back();
      present_[s] = last;
      slot_[static_cast<uint64_t>(last)] = s;
      present_.pop_back();
      s = kAbsent;
    }
  }

  KeyedKind kind_;
  std::vector<uint64_t> slot_;  // a key's place in present_, or kAbsent
  std::vector<int64_t> present_;
  std::vector<int64_t> value_;  // map, set
  std::unordered_map<int64_t, std::deque<int64_t>> multi_;
};

enum class KeyedPhase { Idle, Invoked, Decided };

}  // namespace

KeyHistory generate_keyed_history(const KeyedHistoryOptions& o) {
  const KeyedKind kind = kind_of(o.model);
  if (o.keys == 0) throw std::invalid_argument("generate_keyed_history: keys must be at least 1");
  KeyHistory h;
  h.source = "<generated>";
  h.header.model = o.model;
  h.header.lp_rule = "explicit";
  const size_t n_actors = static_cast<size_t>(std::max(o.actors, 1));
  h.header.extra.emplace_back("generator", "{\"seed\":" + std::to_string(o.seed) + ",\"actors\":" +
                                               std::to_string(n_actors) + ",\"keys\":" + std::to_string(o.keys) + "}");
  const uint16_t update = h.fn_index(kind == KeyedKind::Map ? "replace" : "insert");
  const uint16_t remove = h.fn_index("delete");
  const uint16_t search = h.fn_index(kind == KeyedKind::Set ? "contains" : "search");
  const uint16_t search_all = kind == KeyedKind::Multimap ? h.fn_index("searchall") : search;
  std::vector<KeyedFn> fn_of(h.fn_names.size());
  fn_of[update] = KeyedFn::Update;
  fn_of[remove] = KeyedFn::Delete;
  fn_of[search] = kind == KeyedKind::Set ? KeyedFn::Contains : KeyedFn::Search;
  if (kind == KeyedKind::Multimap) fn_of[search_all] = KeyedFn::SearchAll;
  h.events.reserve(3 * o.ops);
  h.ops.reserve(o.ops);
  h.keys.reserve(o.ops * 2);

  std::mt19937_64 rng(o.seed);
  KeyedSpec spec(kind, o.keys);
  std::vector<KeyedPhase> phase(n_actors, KeyedPhase::Idle);
  std::vector<size_t> op_of(n_actors, 0);
  const int total = std::max(1, o.update + o.remove + o.search_present + o.search_any);
  uint64_t t = 0;
  size_t busy = 0;
  auto emit = [&](EventKind k, size_t a) {
    const KeyOp& op = h.ops[op_of[a]];
    h.events.emplace_back(++t, k, op.id, op.actor, 0, 0);
  };
  while (h.ops.size() < o.ops || busy > 0) {
    const size_t a = rng() % n_actors;
    switch (phase[a]) {
      case KeyedPhase::Idle: {
        if (h.ops.size() == o.ops) break;
        KeyOp op;
        op.id = static_cast<int64_t>(h.ops.size());
        op.actor = static_cast<int64_t>(a);
        op.inv_t = t + 1;
        op.args_off = h.keys.size();
        const int pick = static_cast<int>(rng() % total);
        const uint64_t r = rng();
        int64_t key = static_cast<int64_t>(rng() % o.keys);
        if (pick < o.update) {
          op.fn = update;
          if (kind == KeyedKind::Multimap && r % 10 == 0 && !spec.empty()) key = spec.any_present(r >> 8);
          h.keys.push_back(key);
          if (kind != KeyedKind::Set) h.keys.push_back(static_cast<int64_t>(rng() & 0xffffffffu));
        } else {
          const bool present = pick < o.update + o.remove + o.search_present;
          if (present && !spec.empty()) key = spec.any_present(r >> 8);
          const bool all = kind == KeyedKind::Multimap && r % 4 == 0;
          op.fn = pick < o.update + o.remove ? remove : all ? search_all : search;
          h.keys.push_back(key);
        }
        op.args_len = static_cast<uint32_t>(h.keys.size() - op.args_off);
        op_of[a] = h.ops.size();
        h.ops.push_back(op);
        emit(EventKind::Inv, a);
        phase[a] = KeyedPhase::Invoked;
        ++busy;
        break;
      }
      case KeyedPhase::Invoked: {
        // The linearization point: the op takes effect on the model here.
        KeyOp& op = h.ops[op_of[a]];
        const size_t before = h.keys.size();
        const int64_t key = h.keys[op.args_off], value = op.args_len > 1 ? h.keys[op.args_off + 1] : 0;
        op.res_kind = spec.apply(fn_of[op.fn], key, value, h.keys);
        op.res_off = before;
        op.res_len = static_cast<uint32_t>(h.keys.size() - before);
        if (op.res_kind == KeyOp::kNullResult) op.res_off = 0;
        emit(EventKind::Lp, a);
        phase[a] = KeyedPhase::Decided;
        break;
      }
      case KeyedPhase::Decided:
        h.ops[op_of[a]].ret_t = t + 1;
        emit(EventKind::Ret, a);
        phase[a] = KeyedPhase::Idle;
        --busy;
        break;
    }
  }
  return h;
}

std::optional<PlantedFault> plant_wrong_search(KeyHistory& h, size_t from) {
  for (size_t i = from; i < h.ops.size(); ++i) {
    KeyOp& op = h.ops[i];
    if (h.fn_name(op) == "search" && op.res_kind == KeyOp::kValueResult) {
      ++h.keys[op.res_off];
      return PlantedFault{op.id, h.keys[op.args_off], -1};
    }
  }
  return std::nullopt;
}

std::optional<PlantedFault> plant_early_lp(KeyHistory& h, size_t from) {
  IdIndex index = index_ids(h.ops, [](const KeyOp& o) { return o.id; });
  // Per key: its last op in lp order, and whether the key had a value before it.
  struct Track {
    size_t last = SIZE_MAX;
    size_t last_lp = 0;  // the event index of its lp
    bool had_before = false;
    bool has = false;
    int64_t value = 0, value_before = 0;
  };
  std::unordered_map<int64_t, Track> keys;
  for (size_t e = 0; e < h.events.size(); ++e) {
    if (h.events[e].kind != EventKind::Lp) continue;
    const size_t i = index.find(h.events[e].op);
    const KeyOp& op = h.ops[i];
    const std::string& f = h.fn_name(op);
    Track& k = keys[h.keys[op.args_off]];
    const bool search = f == "search" || f == "contains";
    if (search && i >= from && !op.pending() && k.last != SIZE_MAX) {
      const KeyOp& up = h.ops[k.last];
      const std::string& uf = h.fn_name(up);
      // The search saw the update: a changed value (map), a fresh insert (set).
      const bool saw = (uf == "replace" && op.res_kind == KeyOp::kValueResult && h.keys[op.res_off] == k.value &&
                        (!k.had_before || k.value_before != k.value)) ||
                       (uf == "insert" && op.res_kind == KeyOp::kBoolResult && h.keys[op.res_off] && !k.had_before);
      const uint64_t up_lp = h.events[k.last_lp].t, lp = h.events[e].t;
      if (saw && op.inv_t < up_lp && lp < up.ret_t) {
        std::swap(h.events[k.last_lp].op, h.events[e].op);
        std::swap(h.events[k.last_lp].actor, h.events[e].actor);
        return PlantedFault{op.id, h.keys[op.args_off], up.id};
      }
    }
    // The op's effect on the key, as the generator's model has it.
    const bool had = k.has;
    const int64_t before = k.value;
    if (f == "replace") k.has = true, k.value = h.keys[op.args_off + 1];
    else if (f == "insert") k.has = true, k.value = 1;
    else if (f == "delete") k.has = false;
    if (!search) {
      k.last = i;
      k.last_lp = e;
      k.had_before = had;
      k.value_before = before;
    }
  }
  return std::nullopt;
}

}  // namespace gpulin
