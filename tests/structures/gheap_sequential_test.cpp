// Both generalized heaps, every variant, with ONE actor: each delete must return
// the min(k, |S|) smallest keys in ascending order (a std::multiset model).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>

#include "heap_test_util.h"
#include "sim/strategies/random_strategy.h"
#include "structures/gheap/sim/heap_run.h"

namespace gpulin::explore {
namespace {

void check_sequential(gheap::Flavor flavor, gheap::Variant variant) {
  HeapConfig c;
  c.flavor = flavor;
  c.variant = variant;
  c.k = *rc::gen::element<uint32_t>(1, 2, 4, 8);
  c.threads = *rc::gen::element<uint32_t>(1, 2, 3);
  Program p;
  p.actors.push_back(testing::gen_ops(1, 40, c.k, *rc::gen::element<uint32_t>(3, 20, 1000)));
  RC_LOG() << replay_string(c, p, {});

  HeapRunner runner(c);
  sim::RandomStrategy s(1);
  s.begin_run(1);
  const Execution e = runner.execute(p, s, 1'000'000);
  RC_ASSERT(e.run.outcome == sim::Outcome::Completed);
  RC_ASSERT(!e.invariant_failure);
  RC_ASSERT(e.history.ops.size() == p.actors[0].size());

  std::multiset<int64_t> model;
  for (size_t i = 0; i < p.actors[0].size(); ++i) {
    const HeapOp& op = p.actors[0][i];
    const Operation& rec = e.history.ops[e.history.index_of(static_cast<int64_t>(i))];
    RC_ASSERT(!rec.pending());
    if (op.insert) {
      RC_ASSERT(rec.f == "ins");
      const auto args = rec.args.to_ints();
      RC_ASSERT(args.size() == op.keys.size());
      for (uint32_t key : op.keys) model.insert(key);
    } else {
      RC_ASSERT(rec.f == "del");
      std::vector<int64_t> expected;
      while (expected.size() < c.k && !model.empty()) {
        expected.push_back(*model.begin());
        model.erase(model.begin());
      }
      RC_ASSERT(rec.res->is_array());
      const auto got = rec.res->to_ints();
      RC_ASSERT(got == expected);
    }
  }
  RC_ASSERT(judge(e, JudgeOptions{}).failure == Failure::None);
}

RC_GTEST_PROP(GHeapSequential, TopDownFixed, ()) { check_sequential(gheap::Flavor::TopDown, gheap::Variant::Fixed); }
RC_GTEST_PROP(GHeapSequential, BottomUpFixed, ()) { check_sequential(gheap::Flavor::BottomUp, gheap::Variant::Fixed); }
RC_GTEST_PROP(GHeapSequential, TopDownPaper, ()) { check_sequential(gheap::Flavor::TopDown, gheap::Variant::Paper); }
RC_GTEST_PROP(GHeapSequential, BottomUpPaper, ()) { check_sequential(gheap::Flavor::BottomUp, gheap::Variant::Paper); }

TEST(GHeapSequential, DrainsInSortedOrder) {
  // Deterministic: 10 batches of k = 4 in, everything out in order, then empty.
  for (auto flavor : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp}) {
    HeapConfig c;
    c.flavor = flavor;
    c.k = 4;
    Program p;
    p.actors.resize(1);
    for (uint32_t i = 0; i < 10; ++i) p.actors[0].push_back({true, {40 - i, 20 - i, 30 + i, i}});
    for (int i = 0; i < 11; ++i) p.actors[0].push_back({false, {}});
    HeapRunner runner(c);
    sim::RandomStrategy s(1);
    s.begin_run(1);
    const Execution e = runner.execute(p, s, 1'000'000);
    ASSERT_EQ(e.run.outcome, sim::Outcome::Completed) << e.run.message;
    std::vector<int64_t> all;
    for (size_t i = 10; i < 21; ++i) {
      const auto r = e.history.ops[e.history.index_of(static_cast<int64_t>(i))].res->to_ints();
      EXPECT_TRUE(std::is_sorted(r.begin(), r.end()));
      EXPECT_EQ(r.size(), i < 20 ? 4u : 0u) << i;
      all.insert(all.end(), r.begin(), r.end());
    }
    EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
    EXPECT_EQ(all.size(), 40u);
  }
}

}  // namespace
}  // namespace gpulin::explore
