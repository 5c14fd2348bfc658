// The explorer's strategies on a real structure: DPOR on the heaps runs exactly the
// traces the search of every schedule meets, in a few runs each, says it was complete, and
// finds the planted bug that search finds; the portfolio's runs are reproducible and
// take every strategy in turn; coverage counts traces.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "structures/gheap/sim/heap_explore.h"

namespace gpulin::explore {
namespace {

// 2 actors x 2 operations, k = 4, seed 4 (a program with inserts and deletes on
// which the early root release fails).
HeapExploreOptions small_heap(const std::string& strategy, gheap::Flavor flavor,
                              gheap::Mutant mutant = gheap::Mutant::None) {
  HeapExploreOptions o;
  o.config.flavor = flavor;
  o.config.variant = gheap::Variant::Fixed;
  o.config.mutant = mutant;
  o.config.k = 4;
  o.shape.actors = 2;
  o.shape.ops = 2;
  o.strategy = strategy;
  o.preemptions = 64;  // dfs: no bound it reaches
  o.schedules = 10'000'000;
  o.seed = 4;
  o.shrink = false;
  return o;
}

class DporOnTheHeaps : public testing::TestWithParam<gheap::Flavor> {};

TEST_P(DporOnTheHeaps, RunsEveryTraceOfTheWholeSearch) {
  const ExploreSummary dpor = run_heap_explore(small_heap("dpor", GetParam()));
  const ExploreSummary all = run_heap_explore(small_heap("dfs", GetParam()));
  ASSERT_TRUE(dpor.dpor.has_value());
  EXPECT_TRUE(dpor.dpor->complete);
  EXPECT_TRUE(all.exhaustive);
  EXPECT_EQ(dpor.coverage.traces, all.coverage.traces);
  // A race reversed into a wait repeats a trace (the run then finds who could take
  // the lock first): a few repeats, no more.
  EXPECT_LE(dpor.schedules - dpor.dpor->counts.redundant, 2 * dpor.coverage.traces.size());
  EXPECT_LT(dpor.schedules * 100, all.schedules);  // 29 runs (14 traces) against 26 916 schedules
  EXPECT_FALSE(dpor.found_bug());
}

TEST_P(DporOnTheHeaps, FindsThePlantedBugTheWholeSearchFinds) {
  const ExploreSummary dpor = run_heap_explore(small_heap("dpor", GetParam(), gheap::Mutant::EarlyRootRelease));
  EXPECT_TRUE(dpor.dpor->complete);
  ASSERT_TRUE(dpor.first.count(Failure::Violation));
  EXPECT_FALSE(dpor.first.at(Failure::Violation).schedule.empty());
}

// A search longer than its time limit stops there and is not complete (3 x 3 takes
// minutes; the limit is half a second).
TEST(TimeLimit, StopsASearchAndSaysItIsNotComplete) {
  HeapExploreOptions o = small_heap("dpor", gheap::Flavor::TopDown);
  o.shape.actors = 3;
  o.shape.ops = 3;
  o.seed = 1;
  o.time_limit = 0.5;
  const ExploreSummary s = run_heap_explore(o);
  EXPECT_TRUE(s.timed_out);
  ASSERT_TRUE(s.dpor.has_value());
  EXPECT_FALSE(s.dpor->complete);
  EXPECT_FALSE(s.exhaustive);
  EXPECT_GT(s.schedules, 0u);
  EXPECT_LT(s.total_seconds, 30.0);
}

TEST(TimeLimit, AWholeSearchWithinItIsComplete) {
  HeapExploreOptions o = small_heap("dpor", gheap::Flavor::TopDown);
  o.time_limit = 600;
  const ExploreSummary s = run_heap_explore(o);
  EXPECT_FALSE(s.timed_out);
  EXPECT_TRUE(s.dpor->complete);
}

INSTANTIATE_TEST_SUITE_P(Flavors, DporOnTheHeaps, testing::Values(gheap::Flavor::TopDown, gheap::Flavor::BottomUp),
                         [](const auto& info) { return std::string(info.param == gheap::Flavor::TopDown ? "td" : "bu"); });

TEST(Portfolio, TakesEveryStrategyInTurn) {
  std::set<std::string> seen;
  for (uint64_t i = 0; i < 6; ++i) {
    const PortfolioMember m = portfolio_member(i);
    seen.insert(m.strategy + std::to_string(m.depth));
    EXPECT_EQ(portfolio_member(i + 6).strategy, m.strategy);
  }
  EXPECT_EQ(seen, (std::set<std::string>{"pct2", "pct3", "pct5", "pos0", "random0"}));
}

TEST(Portfolio, ASeedRunsTheSameSchedulesAgainAndAnotherSeedOthers) {
  auto run = [](uint64_t seed) {
    HeapExploreOptions o = small_heap("portfolio", gheap::Flavor::TopDown);
    o.shape.actors = 3;
    o.shape.ops = 3;
    o.schedules = 120;
    o.seed = seed;
    return run_heap_explore(o);
  };
  const ExploreSummary a = run(1), b = run(1), c = run(2);
  EXPECT_EQ(a.fingerprints, b.fingerprints);
  EXPECT_EQ(a.coverage.traces, b.coverage.traces);
  EXPECT_EQ(a.points, b.points);
  EXPECT_GT(a.coverage.traces.size(), 1u);
  // Fresh programs every schedule, from unrelated seeds: no history in common.
  std::vector<uint64_t> common;
  std::set_intersection(a.fingerprints.begin(), a.fingerprints.end(), c.fingerprints.begin(), c.fingerprints.end(),
                        std::back_inserter(common));
  EXPECT_TRUE(common.empty()) << common.size() << " histories of seed 1 also in seed 2";
}

// One program, many schedules: coverage counts the traces met, and how many were
// met once.
TEST(Coverage, CountsTheTracesOfOneProgram) {
  HeapExploreOptions o = small_heap("random", gheap::Flavor::TopDown);
  o.program_every = 0;
  o.schedules = 2000;
  const ExploreSummary s = run_heap_explore(o);
  // The program has 14 traces (DporOnTheHeaps): 2000 random runs meet some of them,
  // several many times.
  EXPECT_GT(s.coverage.traces.size(), 3u);
  EXPECT_LE(s.coverage.traces.size(), 14u);
  EXPECT_LT(s.coverage.seen_once, s.coverage.traces.size());
  EXPECT_EQ(s.coverage.recent, 200u);
}

}  // namespace
}  // namespace gpulin::explore
