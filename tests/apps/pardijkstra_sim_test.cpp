// PARDIJKSTRA in the simulator (apps/sssp/sim/pardijkstra_sim.h: the rounds on level
// 0's actor, each bucket heap level an actor): on the paper's DAGs and on sparse
// graphs with unreachable vertices, under random and PCT schedules, every run
// completes with the Boost Graph Library's distances.
#include <gtest/gtest.h>

#include <random>

#include "apps/sssp/cpu_dijkstra.h"
#include "sim/strategies/pct_strategy.h"
#include "sim/strategies/random_strategy.h"
#include "tests/apps/sparse_graph.h"
#include "apps/sssp/sim/pardijkstra_sim.h"

namespace gpulin::sssp {
namespace {

void expect_dijkstra(const Graph& g, uint32_t source, sim::Strategy& s) {
  sim::RunResult run;
  const std::vector<uint32_t> dist = explore::pardijkstra_sim(g, source, s, 50'000'000, &run);
  ASSERT_EQ(run.outcome, sim::Outcome::Completed) << run.message;
  EXPECT_EQ(dist, cpu_dijkstra(g, source));
}

TEST(PardijkstraSim, ThePapersDagsUnderRandomAndPctSchedules) {
  for (const auto& [n, m] : {std::pair<uint32_t, uint64_t>{2, 1}, {60, 59}, {60, 900}, {60, 1770}, {300, 8000}})
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      SCOPED_TRACE(std::to_string(n) + " vertices, " + std::to_string(m) + " edges, seed " + std::to_string(seed));
      const Graph g = random_dag(n, m, seed);
      sim::RandomStrategy random(seed);
      expect_dijkstra(g, 0, random);
      sim::PctStrategy pct(seed, 3);
      expect_dijkstra(g, 0, pct);
    }
}

TEST(PardijkstraSim, SparseGraphsWithUnreachableVertices) {
  std::mt19937_64 rng(9);
  for (int trial = 0; trial < 20; ++trial) {
    const Graph g = test::sparse_graph(80, 5, 50, rng);
    sim::RandomStrategy random(trial);
    expect_dijkstra(g, static_cast<uint32_t>(rng() % g.n), random);
  }
}

}  // namespace
}  // namespace gpulin::sssp
