#include "verify/testing/generate_distinct_pq_history.h"

#include <algorithm>
#include <optional>
#include <random>
#include <set>
#include <unordered_map>

namespace gpulin {
namespace {

// splitmix64's finaliser: a bijection on 64 bits, so distinct counters give
// distinct keys in an order unrelated to insertion.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

enum class DistinctPhase { Idle, Invoked, Applied };

struct DistinctActor {
  DistinctPhase phase = DistinctPhase::Idle;
  size_t op = 0;
};

struct DistinctGenerator {
  History h;
  std::mt19937_64 rng;
  size_t k;
  uint64_t key_base;     // keys are mix(key_base + counter)
  uint64_t next_key = 0;
  std::set<int64_t> queue;  // the sequential pq-batch at the hidden points

  int64_t fresh_key() { return static_cast<int64_t>(mix(key_base + next_key++)); }

  // At the op's hidden point: apply it to the sequential queue, record its result.
  void apply(Operation& op) {
    if (op.f == "ins") {
      for (const Value& key : op.args.as_array()) queue.insert(key.as_int());
      op.res = Value();
      return;
    }
    std::vector<int64_t> out;
    while (!queue.empty() && out.size() < k) out.push_back(*queue.begin()), queue.erase(queue.begin());
    op.res = Value::int_array(out);
  }
};

// Phases that grow, hold and drain the queue, so deletes meet an empty or short
// queue as well as a long one.
int ins_percent(size_t op_index, uint64_t seed) {
  static const int kPercents[] = {65, 50, 35, 50};
  return kPercents[(op_index / 500 + seed) % 4];
}

// A delete d and a key y such that y is present throughout d's interval in
// every linearization (docs in the header), or nullopt.
std::optional<size_t> certain_present_victim(const History& h, std::mt19937_64& rng) {
  std::unordered_map<int64_t, size_t> deleter;  // key -> op index
  std::vector<std::pair<int64_t, size_t>> inserted;  // (key, ins op index)
  for (size_t i = 0; i < h.ops.size(); ++i) {
    if (h.ops[i].f == "ins")
      for (const Value& key : h.ops[i].args.as_array()) inserted.emplace_back(key.as_int(), i);
    else
      for (const Value& key : h.ops[i].res->as_array()) deleter[key.as_int()] = i;
  }
  if (inserted.empty()) return std::nullopt;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const auto [key, ins] = inserted[rng() % inserted.size()];
    const auto it = deleter.find(key);
    const uint64_t gone = it == deleter.end() ? kPending : h.ops[it->second].inv_t;  // y present until then
    // Ops are sorted by inv_t: the first delete invoked after y's ins returned.
    for (size_t i = ins + 1; i < h.ops.size() && h.ops[i].inv_t < gone; ++i) {
      if (h.ops[i].f != "del" || h.ops[i].inv_t < h.ops[ins].ret_t) continue;
      if (h.ops[i].ret_t < gone) return i;
      break;  // later deletes return later still, mostly: try another key
    }
  }
  return std::nullopt;
}

// Replaces the largest key of a delete result with a key that no op inserts
// (mix is a bijection and the counter moves on); prefers a non-empty result.
// Leaves victim alone when the history has no delete at all.
void corrupt_with_unknown_key(DistinctGenerator& g, size_t& victim) {
  const size_t start = g.h.ops.empty() ? 0 : g.rng() % g.h.ops.size();
  for (bool need_keys : {true, false})
    for (size_t n = 0; n < g.h.ops.size(); ++n) {
      const size_t i = (start + n) % g.h.ops.size();
      Operation& op = g.h.ops[i];
      if (op.f != "del" || (need_keys && op.res->as_array().empty())) continue;
      std::vector<int64_t> keys = op.res->to_ints();
      if (keys.empty()) keys.push_back(0);
      keys.back() = g.fresh_key();
      std::sort(keys.begin(), keys.end());
      op.res = Value::int_array(keys);
      victim = i;
      return;
    }
}

}  // namespace

History generate_distinct_pq_history(size_t n_ops, int k_in, int n_actors, uint64_t seed, bool linearizable) {
  DistinctGenerator g;
  g.k = static_cast<size_t>(std::max(k_in, 1));
  g.rng.seed(seed);
  g.key_base = mix(seed);  // distinct counters from any base give distinct keys
  History& h = g.h;
  h.source = "<generated>";
  h.header.model = g.k == 1 ? "pq" : "pq-batch";
  if (g.k > 1) h.header.params = Value::object({{"k", Value::integer(static_cast<int64_t>(g.k))}});
  h.ops.reserve(n_ops);
  h.events.reserve(n_ops * 2);

  std::vector<DistinctActor> actors(static_cast<size_t>(std::max(n_actors, 1)));
  uint64_t t = 0;
  size_t busy = 0;
  while (h.ops.size() < n_ops || busy > 0) {
    const size_t who = g.rng() % actors.size();
    DistinctActor& a = actors[who];
    switch (a.phase) {
      case DistinctPhase::Idle: {
        if (h.ops.size() == n_ops) break;
        Operation op;
        op.id = static_cast<int64_t>(h.ops.size());
        op.actor = static_cast<int64_t>(who);
        op.inv_t = ++t;
        if (static_cast<int>(g.rng() % 100) < ins_percent(h.ops.size(), seed)) {
          std::vector<int64_t> keys(1 + g.rng() % g.k);
          for (auto& key : keys) key = g.fresh_key();
          op.f = "ins";
          op.args = Value::int_array(keys);
        } else {
          op.f = "del";
          op.args = Value::array();
        }
        h.events.push_back(Event{op.inv_t, EventKind::Inv, op.id, op.actor, 0, 0});
        a.op = h.ops.size();
        h.ops.push_back(std::move(op));
        a.phase = DistinctPhase::Invoked;
        ++busy;
        break;
      }
      case DistinctPhase::Invoked:  // the hidden point: strictly between inv and ret
        g.apply(h.ops[a.op]);
        a.phase = DistinctPhase::Applied;
        break;
      case DistinctPhase::Applied: {
        Operation& op = h.ops[a.op];
        op.ret_t = ++t;
        h.events.push_back(Event{op.ret_t, EventKind::Ret, op.id, op.actor, 0, 0});
        a.phase = DistinctPhase::Idle;
        --busy;
        break;
      }
    }
  }

  std::string meta = "{\"seed\":" + std::to_string(seed) + ",\"actors\":" + std::to_string(actors.size());
  if (!linearizable) {
    size_t victim = h.ops.size();
    if (auto d = certain_present_victim(h, g.rng)) {
      victim = *d;
      h.ops[victim].res = Value::array();
      meta += ",\"corrupted\":\"empty result while a key is present\"";
    } else {
      corrupt_with_unknown_key(g, victim);
      meta += ",\"corrupted\":\"key never inserted\"";
    }
    if (victim < h.ops.size()) meta += ",\"corrupted_op\":" + std::to_string(h.ops[victim].id);
  }
  h.header.extra.emplace_back("generator", meta + "}");
  return h;  // events and ops were made in t order: already normalized
}

}  // namespace gpulin
