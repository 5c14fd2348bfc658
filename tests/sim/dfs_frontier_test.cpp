// The split behind explore --shard and --mpi (tools/explore/work_units.h): the DFS
// subtrees below a frontier of pick prefixes hold exactly the schedules of the whole
// search, each once, and in the whole search's order when taken in frontier order
// (which is what keeps a split run's first failure the unsharded one).
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "sim/strategies/dfs_strategy.h"
#include "tools/explore/work_units.h"

namespace gpulin::sim {
namespace {

// Three actors: two add to a counter, the third waits (parked) until it reaches a
// value, then adds too; parking makes free switches, adding makes preemptions.
struct Program {
  Simulator sim;
  uint32_t ops = 3;

  std::vector<uint32_t> run(Strategy& strategy) {
    uint32_t counter = 0;
    const RunResult r = sim.run(
        3,
        [&](uint32_t a) {
          SimContext x(sim, a, nullptr, 1);
          if (a == 2)
            for (uint32_t seen; (seen = x.load(&counter)) < 2;) x.wait_while_equals(&counter, seen);
          for (uint32_t i = 0; i < ops; ++i) x.fetch_add(&counter, 1);
        },
        strategy, 100000);
    EXPECT_EQ(r.outcome, Outcome::Completed) << r.message;
    return r.picks;
  }
};

// Every schedule of a search, in the order it runs them.
std::vector<std::vector<uint32_t>> schedules_of(Program& p, DfsStrategy& dfs) {
  std::vector<std::vector<uint32_t>> out;
  while (dfs.begin_run(3)) out.push_back(p.run(dfs));
  EXPECT_TRUE(dfs.exhausted());
  return out;
}

void expect_frontier_splits_exactly(uint32_t bound, size_t target) {
  SCOPED_TRACE("bound " + std::to_string(bound) + ", target " + std::to_string(target));
  Program p;
  DfsStrategy whole_search(bound);
  const auto whole = schedules_of(p, whole_search);
  const auto parts = explore::dfs_frontier(
      bound,
      [&](Strategy& probe) {
        probe.begin_run(3);
        p.run(probe);
      },
      target);
  EXPECT_GT(parts.size(), 1u);
  EXPECT_LE(parts.size(), target + 2);  // the last split may add a node's children
  std::vector<std::vector<uint32_t>> joined;
  for (const explore::WorkUnit& part : parts) {
    DfsStrategy subtree(bound, part.prefix);
    const auto below = schedules_of(p, subtree);
    EXPECT_FALSE(below.empty());
    for (const auto& s : below) {
      EXPECT_TRUE(std::equal(part.prefix.begin(), part.prefix.end(), s.begin())) << "a schedule outside its subtree";
      joined.push_back(s);
    }
  }
  // Same schedules, none twice, same order.
  EXPECT_EQ(std::set<std::vector<uint32_t>>(joined.begin(), joined.end()).size(), joined.size());
  EXPECT_EQ(joined, whole);
}

TEST(DfsFrontier, SubtreesHoldExactlyTheWholeSearchInItsOrder) {
  for (uint32_t bound : {0u, 1u, 2u, 3u})
    for (size_t target : {2u, 7u, 64u, 512u}) expect_frontier_splits_exactly(bound, target);
}

TEST(DfsFrontier, SplitIsTheSameEveryTime) {
  Program p;
  auto frontier = [&] {
    return explore::dfs_frontier(2, [&](Strategy& probe) {
      probe.begin_run(3);
      p.run(probe);
    });
  };
  const auto a = frontier(), b = frontier();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].prefix, b[i].prefix);
}

TEST(Shards, PartsAreDealtRoundRobinAndParsedStrictly) {
  auto shard = explore::shard_units({2, 3});
  std::vector<uint64_t> got;
  while (auto u = shard(8)) got.push_back(*u);
  EXPECT_EQ(got, (std::vector<uint64_t>{1, 4, 7}));
  EXPECT_TRUE(explore::parse_shard("3/3"));
  for (const char* bad : {"0/3", "4/3", "1/0", "1", "1/2/3", " 1/2", "x/2"}) EXPECT_FALSE(explore::parse_shard(bad)) << bad;
  const auto parts = explore::schedule_parts(10, 4);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[2].first, 8u);
  EXPECT_EQ(parts[2].last, 10u);
  EXPECT_NE(explore::schedule_seed(1, 0), explore::schedule_seed(1, 1));
}

// Runs seeded 1 to 10 build their programs from seeds that are all different (under
// `seed + index`, seed 2's program i would be seed 1's program i + 1), none of them a
// schedule's seed of the same run; the first program keeps the run's own seed (dfs
// and --program-every 0 explore it), and the function is the same every time, so a
// shard builds the programs of the whole.
TEST(Seeds, ProgramsOfNeighbouringSeedsShareNothing) {
  std::set<uint64_t> programs, schedules;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    EXPECT_EQ(explore::program_seed(seed, 0), seed);
    for (uint64_t i = 1; i < 1000; ++i) {
      EXPECT_TRUE(programs.insert(explore::program_seed(seed, i)).second) << "seed " << seed << " program " << i;
      EXPECT_EQ(explore::program_seed(seed, i), explore::program_seed(seed, i));
      schedules.insert(explore::schedule_seed(seed, i));
    }
  }
  for (uint64_t p : programs) EXPECT_FALSE(schedules.count(p));
  for (uint64_t seed = 1; seed <= 10; ++seed) EXPECT_FALSE(programs.count(seed));
}

}  // namespace
}  // namespace gpulin::sim
