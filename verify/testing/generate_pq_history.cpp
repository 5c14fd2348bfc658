#include "verify/testing/generate_pq_history.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <random>

namespace gpulin {
namespace {

constexpr int64_t kChildren = 30;  // nodes 2..31 stand for the rest of the heap

// Where an actor is in its operation; each step emits one event.
enum class PqPhase { Idle, Invoked, HoldRoot, HoldBoth, HoldChild, Done };

struct PqActor {
  PqPhase phase = PqPhase::Idle;
  size_t op = 0;  // index in History::ops
  int64_t child = 0;
};

}  // namespace

History generate_pq_batch_history(size_t n_ops, int k, uint64_t seed, int n_actors, uint64_t key_range) {
  History h;
  h.source = "<generated>";
  h.header.model = "pq-batch";
  h.header.params = Value::object({{"k", Value::integer(k)}});
  h.header.lp_rule = "root-release";
  h.ops.reserve(n_ops);
  h.events.reserve(n_ops * 6);

  std::mt19937_64 rng(seed);
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> pq;  // the sequential spec
  std::vector<PqActor> actors(static_cast<size_t>(std::max(n_actors, 1)));
  h.header.extra.emplace_back(
      "generator", "{\"seed\":" + std::to_string(seed) + ",\"actors\":" + std::to_string(actors.size()) + "}");
  std::vector<int> holder(kChildren + 2, -1);  // node -> actor; node 1 is the root
  uint64_t t = 0;
  size_t busy = 0;
  auto emit = [&](EventKind kind, const PqActor& a, int64_t node) {
    h.events.push_back(Event{++t, kind, h.ops[a.op].id, h.ops[a.op].actor, node, 0});
  };

  while (h.ops.size() < n_ops || busy > 0) {
    const int who = static_cast<int>(rng() % actors.size());
    PqActor& a = actors[who];
    switch (a.phase) {
      case PqPhase::Idle: {
        if (h.ops.size() == n_ops) break;
        Operation op;
        op.id = static_cast<int64_t>(h.ops.size());
        op.actor = who;
        op.inv_t = t + 1;
        // A few more inserts than deletes keeps the heap from running dry.
        if (rng() % 100 < 55) {
          op.f = "ins";
          std::vector<int64_t> keys(1 + rng() % k);
          for (auto& key : keys) key = static_cast<int64_t>(rng() % key_range);
          op.args = Value::int_array(keys);
        } else {
          op.f = "del";
          op.args = Value::array();
        }
        a.op = h.ops.size();
        h.ops.push_back(std::move(op));
        emit(EventKind::Inv, a, 0);
        a.phase = PqPhase::Invoked;
        ++busy;
        break;
      }
      case PqPhase::Invoked:
        if (holder[1] >= 0) break;  // waits for the root
        holder[1] = who;
        emit(EventKind::Acq, a, 1);
        a.phase = PqPhase::HoldRoot;
        break;
      case PqPhase::HoldRoot:
        a.child = 2 + static_cast<int64_t>(rng() % kChildren);
        if (holder[a.child] >= 0) break;
        holder[a.child] = who;
        emit(EventKind::Acq, a, a.child);
        a.phase = PqPhase::HoldBoth;
        break;
      case PqPhase::HoldBoth: {
        // The root's release is the linearization point: the op takes effect now.
        Operation& op = h.ops[a.op];
        if (op.f == "ins") {
          for (const Value& key : op.args.as_array()) pq.push(key.as_int());
          op.res = Value();
        } else {
          std::vector<int64_t> out;
          while (!pq.empty() && out.size() < static_cast<size_t>(k)) out.push_back(pq.top()), pq.pop();
          op.res = Value::int_array(out);
        }
        holder[1] = -1;
        emit(EventKind::Rel, a, 1);
        a.phase = PqPhase::HoldChild;
        break;
      }
      case PqPhase::HoldChild:
        holder[a.child] = -1;
        emit(EventKind::Rel, a, a.child);
        a.phase = PqPhase::Done;
        break;
      case PqPhase::Done:
        h.ops[a.op].ret_t = t + 1;
        emit(EventKind::Ret, a, 0);
        a.phase = PqPhase::Idle;
        --busy;
        break;
    }
  }
  return h;  // events and ops were made in t order: already normalized
}

}  // namespace gpulin
