// Writes a GPU-shaped history of N operations for the page-load test
// (tests/render/browser_test.sh): 128 actors (thread blocks) each running inserts
// and deletes of the pq-batch model (k = 4) back to back, every op holding the root
// (node 1) once and a node below it, under the root-release rule; results computed
// from a priority queue in root-release order, so the history is linearizable.
// Usage: render_big_history OUT.jsonl N
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <random>
#include <vector>

#include "histories/jsonl_writer.h"

int main(int argc, char** argv) {
  using namespace gpulin;
  if (argc != 3) {
    std::fprintf(stderr, "usage: render_big_history OUT.jsonl N\n");
    return 2;
  }
  const uint64_t n = std::strtoull(argv[2], nullptr, 10);
  constexpr uint32_t kActors = 128, kK = 4;
  History h;
  h.source = "<generated>";
  h.header.model = "pq-batch";
  h.header.params = Value::object({{"k", Value::integer(kK)}});
  h.header.lp_rule = "root-release";
  std::mt19937_64 rng(1);
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> pq;
  // Ops take the root in turn; op i + 1 is invoked (by the next actor) while op i
  // still runs, so neighbours overlap. Every event its own ticket.
  uint64_t t = 1, next_inv = t++;
  for (uint64_t i = 0; i < n; ++i) {
    const auto a = static_cast<int64_t>(i % kActors);
    Operation op;
    op.id = static_cast<int64_t>(i);
    op.actor = a;
    op.inv_t = next_inv;
    next_inv = t++;
    const uint64_t acq = t++, rel = t++, below = t++, below_rel = t++, ret = t++;
    const bool ins = pq.size() < 64 || rng() % 2;
    Value::Array keys;
    if (ins) {
      op.f = "ins";
      for (uint32_t k = 0; k < kK; ++k) {
        const auto key = static_cast<int64_t>(rng() % 1000000);
        keys.push_back(Value::integer(key));
        pq.push(key);
      }
      op.args = Value::array(keys);
      op.res = Value();
    } else {
      op.f = "del";
      op.args = Value::array({});
      for (uint32_t k = 0; k < kK && !pq.empty(); ++k, pq.pop()) keys.push_back(Value::integer(pq.top()));
      op.res = Value::array(keys);
    }
    op.ret_t = ret;
    h.events.push_back(Event{op.inv_t, EventKind::Inv, op.id, a, 0, 0});
    h.events.push_back(Event{acq, EventKind::Acq, op.id, a, 1, 0});
    h.events.push_back(Event{rel, EventKind::Rel, op.id, a, 1, 0});
    h.events.push_back(Event{below, EventKind::Acq, op.id, a, 2 + static_cast<int64_t>(i % 7), 0});
    h.events.push_back(Event{below_rel, EventKind::Rel, op.id, a, 2 + static_cast<int64_t>(i % 7), 0});
    h.events.push_back(Event{ret, EventKind::Ret, op.id, a, 0, 0});
    h.ops.push_back(std::move(op));
  }
  h.normalize();
  write_history_file(argv[1], h);
  return 0;
}
