// The heap's templates with 64-bit keys, as the GPU kernels instantiate them
// (structures/gheap/gpu/gheap_kernels.cu, Key = uint64_t), run in the simulator: concurrent
// actors under PCT schedules on a HostHeap<uint64_t>, recorded by the host
// recorder. Keys lie above 2^32 and share their low word, so a key narrowed to 32
// bits anywhere (the heap's scratch, its MAX_VALUE, the recorder) would make them
// equal. Each history must carry the keys whole and pass the witness check of the
// heap's rule (and the search), and the heap at rest must hold properties 1-3,
// its root's word counting every root hold the history records.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "histories/recorder.h"
#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "sim/strategies/pct_strategy.h"
#include "structures/gheap/host_heap.h"
#include "structures/gheap/operation.h"
#include "structures/gheap/sim/heap_at_rest.h"
#include "structures/gheap/sim/heap_config.h"
#include "structures/gheap/sim/heap_run.h"

namespace gpulin {
namespace {

using Key = uint64_t;
constexpr uint32_t kLowWord = 0x5a5a5a5au;

struct Op {
  bool insert = true;
  std::vector<Key> keys;
};

// `actors` actors of 3-5 operations: inserts of 1..k keys (r << 56 | kLowWord with r
// from 1 to 40: above 2^56, below 2^63, some repeated) and deletes.
std::vector<std::vector<Op>> make_program(uint32_t actors, uint32_t k, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<Op>> p(actors);
  for (auto& ops : p) {
    const uint64_t n = 3 + rng() % 3;
    for (uint64_t i = 0; i < n; ++i) {
      Op op;
      op.insert = rng() % 5 < 3;
      if (op.insert)
        for (uint64_t j = 0, m = 1 + rng() % k; j < m; ++j) op.keys.push_back((1 + rng() % 40) << 56 | kLowWord);
      ops.push_back(std::move(op));
    }
  }
  return p;
}

template <class Policy>
void run_schedules(gheap::Flavor flavor) {
  constexpr uint32_t k = 4, actors = 3;
  int checked = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const auto program = make_program(actors, k, seed);
    std::multiset<int64_t> inserted;
    for (const auto& ops : program)
      for (const Op& op : ops) inserted.insert(op.keys.begin(), op.keys.end());
    gheap::HostHeap<Key> heap(k, inserted.size() + 1);
    const auto view = heap.view<Policy>();
    HostRecorder recorder({"ins", "del"});
    sim::Simulator simulator;
    sim::PctStrategy strategy(seed, 3);
    strategy.begin_run(actors);
    const sim::RunResult r = simulator.run(
        actors,
        [&](uint32_t a) {
          sim::SimContext x(simulator, a, &recorder, 2);
          const auto s = gheap::make_scratch(x.private_array<Key>(gheap::kScratchKeysPerK * k), k);
          int64_t id = static_cast<int64_t>(a) << 16;
          for (const Op& op : program[a]) {
            x.begin_op(id++);
            gheap::run_operation(x, view, s, op.insert ? gheap::kFnIns : gheap::kFnDel, op.keys.data(),
                                 static_cast<uint32_t>(op.keys.size()));
            x.end_op();
          }
        },
        strategy, 1'000'000);
    strategy.end_run(r.picks.size());
    SCOPED_TRACE("seed " + std::to_string(seed));
    ASSERT_EQ(r.outcome, sim::Outcome::Completed) << r.message;
    const auto at_rest = explore::check_heap_at_rest(heap.image(), gheap::Mutant::None);
    EXPECT_FALSE(at_rest) << *at_rest;

    Header header;
    header.model = "pq-batch";
    header.params = Value::object({{"k", Value::integer(k)}});
    header.lp_rule = explore::lp_rule_for(flavor, gheap::Variant::Fixed);
    const History h = recorder.to_history(std::move(header), "<gheap key64 test>");
    // The root's word counts its holds (gheap/config.h): at rest, as many as the
    // history records (what the GPU's recording numbers the root's holds by).
    uint64_t root_holds = 0;
    for (const Event& e : h.events) root_holds += e.kind == EventKind::Rel && e.node == 1;
    EXPECT_EQ(exec::counted_holds(heap.image().state[1]), root_holds);
    EXPECT_GT(root_holds, 0u);
    // Every key in the history is one of the program's, whole: what the inserts
    // carry is exactly the program's multiset, and every returned key is one of them.
    std::multiset<int64_t> recorded_args;
    for (const Operation& op : h.ops) {
      ASSERT_FALSE(op.pending());
      if (op.f == "ins") {
        for (int64_t v : op.args.to_ints()) recorded_args.insert(v);
      } else {
        for (int64_t v : op.res->to_ints()) {
          EXPECT_TRUE(inserted.count(v)) << "op " << op.id << " returned " << v << ", a key nobody inserted";
          EXPECT_EQ(static_cast<uint32_t>(v), kLowWord) << v;
        }
      }
    }
    EXPECT_EQ(recorded_args, inserted);
    const explore::Judgement j = explore::judge_history(h, explore::JudgeOptions{});
    EXPECT_EQ(j.failure, explore::Failure::None) << explore::to_string(j.failure) << ": " << j.message;
    ++checked;
  }
  EXPECT_EQ(checked, 60);
}

TEST(GHeapKey64, TopDownFixedUnderPct) {
  run_schedules<gheap::HeapPolicy<gheap::Flavor::TopDown, gheap::Variant::Fixed>>(gheap::Flavor::TopDown);
}
TEST(GHeapKey64, BottomUpFixedUnderPct) {
  run_schedules<gheap::HeapPolicy<gheap::Flavor::BottomUp, gheap::Variant::Fixed>>(gheap::Flavor::BottomUp);
}

}  // namespace
}  // namespace gpulin
