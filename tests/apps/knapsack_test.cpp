// 0/1 knapsack (issue 15): the generated instances have their types' properties,
// the dynamic program agrees with brute force, and best-first branch and bound -
// sequential, and over the concurrent heap in the simulator (both fixed heaps, random
// and PCT schedules, the heap's history recorded and judged) - finds the optimum.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <numeric>
#include <random>

#include "apps/knapsack/branch_and_bound.h"
#include "apps/knapsack/instance.h"
#include "apps/knapsack/sequential.h"
#include "sim/strategies/pct_strategy.h"
#include "sim/strategies/random_strategy.h"
#include "tests/apps/heap_history_keys.h"
#include "structures/gheap/sim/heap_run.h"
#include "apps/knapsack/sim/knapsack_sim.h"

namespace gpulin::knapsack {
namespace {

uint64_t brute_force(const Instance& in) {
  uint64_t best = 0;
  for (uint64_t set = 0; set < (uint64_t{1} << in.size()); ++set) {
    uint64_t p = 0, w = 0;
    for (uint32_t i = 0; i < in.size(); ++i)
      if (set >> i & 1) p += in.profit[i], w += in.weight[i];
    if (w <= in.capacity) best = std::max(best, p);
  }
  return best;
}

TEST(KnapsackInstance, TypesHaveTheirProperties) {
  const Instance s = make_instance("strongly:200:7000", 1);
  ASSERT_EQ(s.size(), 200u);
  for (uint32_t i = 0; i < s.size(); ++i) EXPECT_EQ(s.profit[i], s.weight[i] + 700);
  const Instance a = make_instance("almost:300:5000", 2);
  for (uint32_t i = 0; i < a.size(); ++i) {
    EXPECT_GE(a.profit[i], a.weight[i] + 500 - 10);
    EXPECT_LE(a.profit[i], a.weight[i] + 500 + 10);
  }
  const Instance e = make_instance("evenodd:100:8000", 3);
  EXPECT_EQ(e.capacity % 2, 1u);
  for (uint32_t i = 0; i < e.size(); ++i) EXPECT_EQ(e.weight[i] % 2, 0u);
  const Instance ss = make_instance("subset:50:18000", 4);
  for (uint32_t i = 0; i < ss.size(); ++i) EXPECT_EQ(ss.profit[i], ss.weight[i]);
  // Best ratio first; capacity half the weight; the same seed, the same instance.
  for (uint32_t i = 1; i < s.size(); ++i)
    EXPECT_GE(uint64_t{s.profit[i - 1]} * s.weight[i], uint64_t{s.profit[i]} * s.weight[i - 1]);
  const uint64_t total = std::accumulate(s.weight.begin(), s.weight.end(), uint64_t{0});
  EXPECT_EQ(s.capacity, total * 50 / 100);
  EXPECT_EQ(make_instance("strongly:200:7000:10", 1).capacity, total * 10 / 100);
  EXPECT_EQ(make_instance("strongly:200:7000", 1).weight, s.weight);
  EXPECT_NE(make_instance("strongly:200:7000", 9).weight, s.weight);
}

TEST(KnapsackInstance, BadSpecsNameThePart) {
  const std::pair<const char*, const char*> bad[] = {
      {"strongly", "TYPE:N"}, {"heavy:10", "type 'heavy'"}, {"subset:x", "N 'x'"}, {"subset:10:y", "R 'y'"},
      {"subset:0", "N is"},   {"subset:10:5", "R is"},       {"subset:10:100:0", "PCT is"},
      {"subset:10:100:x", "PCT 'x'"}, {"subset:10:100:4:1", "TYPE:N"}};
  for (const auto& [spec, part] : bad) {
    try {
      make_instance(spec, 1);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << spec << ": " << e.what();
    }
  }
}

RC_GTEST_PROP(KnapsackDp, AgreesWithBruteForce, ()) {
  const std::vector<std::string> types = {"strongly", "almost", "evenodd", "subset"};
  const std::string spec = *rc::gen::elementOf(types) + ":" +
                           std::to_string(*rc::gen::inRange(1, 13)) + ":" + std::to_string(*rc::gen::inRange(10, 200));
  const Instance in = make_instance(spec, *rc::gen::inRange<uint64_t>(0, 1000));
  RC_ASSERT(optimum_by_dp(in) == brute_force(in));
}

// The device's bound (binary search over prefix sums) is the host's greedy one.
RC_GTEST_PROP(KnapsackBound, PrefixSearchIsTheGreedyBound, ()) {
  const Instance in = make_instance("almost:" + std::to_string(*rc::gen::inRange(1, 40)) + ":300",
                                    *rc::gen::inRange<uint64_t>(0, 1000));
  std::vector<uint64_t> pp(in.size() + 1), pw(in.size() + 1);
  for (uint32_t i = 0; i < in.size(); ++i) pp[i + 1] = pp[i] + in.profit[i], pw[i + 1] = pw[i] + in.weight[i];
  KnapsackView v;
  v.n = in.size();
  v.capacity = in.capacity;
  v.profit = in.profit.data();
  v.weight = in.weight.data();
  v.prefix_profit = pp.data();
  v.prefix_weight = pw.data();
  const uint32_t level = *rc::gen::inRange<uint32_t>(0, in.size() + 1);
  const uint64_t weight = *rc::gen::inRange<uint64_t>(0, in.capacity + 50);
  const uint64_t profit = *rc::gen::inRange<uint64_t>(0, 5000);
  RC_ASSERT(bound_of(v, level, profit, weight) == dantzig_bound(in, level, profit, weight));
}

TEST(KnapsackSequential, FindsTheOptimumOfEveryType) {
  for (const char* spec : {"strongly:60:1000", "almost:60:1000", "evenodd:40:1000", "subset:60:1000", "strongly:1:100"})
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      const Instance in = make_instance(spec, seed);
      for (Order order : {Order::Bound, Order::Profit}) {
        const SequentialResult r = best_first_sequential(in, order);
        EXPECT_EQ(r.best, optimum_by_dp(in)) << spec << " seed " << seed;
        EXPECT_GT(r.explored, 0u);
      }
    }
}

// The parallel search over the concurrent heap: the optimum, every node accounted
// for, and the heap's history linearizable by the witness of its rule.
void expect_optimum_in_sim(const Instance& in, explore::KnapsackSimOptions o, sim::Strategy& strategy) {
  const explore::KnapsackSimResult r = explore::knapsack_sim(in, o, strategy);
  ASSERT_EQ(r.run.outcome, sim::Outcome::Completed) << r.run.message;
  EXPECT_EQ(r.best, optimum_by_dp(in));
  EXPECT_GT(r.explored, 0u);
  EXPECT_LE(r.explored, r.created);
  ASSERT_TRUE(r.history.has_value());
  // Every node created was inserted once and, the heap drained at the end, deleted
  // once; every expanded node came out of a delete.
  test::expect_drained_and_linearizable(*r.history, r.created, o.gc_threshold != 0);
}

TEST(KnapsackSim, BothHeapsFindTheOptimumUnderRandomAndPctSchedules) {
  for (gheap::Flavor flavor : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp})
    for (const char* spec : {"strongly:14:100", "almost:14:100", "evenodd:12:100", "subset:14:100"})
      for (uint64_t seed = 1; seed <= 3; ++seed) {
        SCOPED_TRACE(std::string(spec) + " seed " + std::to_string(seed) +
                     (flavor == gheap::Flavor::TopDown ? " gheap-td" : " gheap-bu"));
        const Instance in = make_instance(spec, seed);
        explore::KnapsackSimOptions o;
        o.flavor = flavor;
        o.actors = 3;
        o.k = 4;
        sim::RandomStrategy random(seed);
        expect_optimum_in_sim(in, o, random);
        sim::PctStrategy pct(seed, 3);
        expect_optimum_in_sim(in, o, pct);
      }
}

// The paper's "knapsack with GC": sweeps past a small threshold drop dominated
// nodes, and the search still finds the optimum with a linearizable heap history.
TEST(KnapsackSim, GarbageCollectionDropsDominatedNodes) {
  uint64_t collected = 0;
  for (gheap::Flavor flavor : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp})
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      SCOPED_TRACE("seed " + std::to_string(seed) + (flavor == gheap::Flavor::TopDown ? " gheap-td" : " gheap-bu"));
      const Instance in = make_instance("strongly:40:200", seed);
      explore::KnapsackSimOptions o;
      o.flavor = flavor;
      o.order = seed == 2 ? Order::Profit : Order::Bound;  // the paper's key once
      o.actors = 3;
      o.k = 4;
      o.gc_threshold = 12;
      sim::RandomStrategy random(seed);
      const explore::KnapsackSimResult r = explore::knapsack_sim(in, o, random);
      EXPECT_GT(r.sweeps, 0u);
      collected += r.collected;
      sim::RandomStrategy again(seed);
      expect_optimum_in_sim(in, o, again);
      sim::PctStrategy pct(seed, 3);
      expect_optimum_in_sim(in, o, pct);
    }
  // Sweeps find nodes that became dominated after they were inserted (not on every
  // seed: a sweep that comes early finds none).
  EXPECT_GT(collected, 0u);
}

// The paper's key (profit so far): the optimum on every type, both heaps; the
// bound kept in the pool decides what is dominated.
TEST(KnapsackSim, ThePapersProfitKeyFindsTheOptimum) {
  for (gheap::Flavor flavor : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp})
    for (const char* spec : {"strongly:14:100", "almost:14:100", "evenodd:12:100", "subset:14:100"}) {
      SCOPED_TRACE(std::string(spec) + (flavor == gheap::Flavor::TopDown ? " gheap-td" : " gheap-bu"));
      const Instance in = make_instance(spec, 4);
      explore::KnapsackSimOptions o;
      o.flavor = flavor;
      o.order = Order::Profit;
      o.actors = 3;
      o.k = 4;
      sim::RandomStrategy random(4);
      expect_optimum_in_sim(in, o, random);
    }
}

// One actor is the sequential search with batches: the same optimum.
TEST(KnapsackSim, OneActorAndLargeBatches) {
  const Instance in = make_instance("almost:20:200", 5);
  explore::KnapsackSimOptions o;
  o.actors = 1;
  o.k = 64;
  sim::RandomStrategy random(1);
  expect_optimum_in_sim(in, o, random);
}

// Slots are recycled (branch_and_bound.h): a pool far smaller than the nodes the
// search makes is enough. (The first GPU runs, with fresh slots only, filled 2^24.)
TEST(KnapsackSim, APoolSmallerThanTheNodesMadeIsEnough) {
  const Instance in = make_instance("almost:24:100", 2);
  explore::KnapsackSimOptions o;
  o.actors = 2;
  o.k = 4;
  o.pool = 400;
  sim::RandomStrategy random(3);
  const explore::KnapsackSimResult r = explore::knapsack_sim(in, o, random);
  ASSERT_EQ(r.run.outcome, sim::Outcome::Completed) << r.run.message;
  EXPECT_EQ(r.best, optimum_by_dp(in));
  EXPECT_GT(r.created, 2 * o.pool) << "the instance is too easy to show recycling";
}

}  // namespace
}  // namespace gpulin::knapsack
