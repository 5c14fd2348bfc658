// SSSP's graphs and reference (apps/sssp/): the bucket heap paper's random DAGs have
// the edges, weights and shortest paths §4.2 describes, deterministically; the Boost
// Graph Library's Dijkstra agrees with Bellman-Ford on graphs with other shapes
// (unreachable vertices, shortcuts); bad graph specs are refused naming the field.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <stdexcept>

#include "apps/sssp/cpu_dijkstra.h"
#include "apps/sssp/graph.h"
#include "tests/apps/sparse_graph.h"

namespace gpulin::sssp {
namespace {

void expect_paper_dag(const Graph& g, uint32_t n, uint64_t m) {
  ASSERT_EQ(g.n, n);
  ASSERT_EQ(g.edges(), m);
  ASSERT_EQ(g.offsets.size(), n + 1u);
  for (uint32_t u = 0; u < n; ++u) {
    std::set<uint32_t> targets;
    for (uint64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const uint32_t v = g.targets[e];
      ASSERT_GT(v, u) << "not a DAG in vertex order";
      ASSERT_LT(v, n);
      EXPECT_TRUE(targets.insert(v).second) << "edge " << u << "->" << v << " twice";
      EXPECT_EQ(g.weights[e], v == u + 1 ? 1u : 2 * (v - u));
    }
    if (u + 1 < n) EXPECT_TRUE(targets.count(u + 1)) << "the chain misses " << u << "->" << u + 1;
  }
}

TEST(SsspGraph, RandomDagsHaveThePapersEdgesAndPaths) {
  for (const auto& [n, m] : {std::pair<uint32_t, uint64_t>{2, 1}, {10, 9}, {10, 45}, {300, 5000}, {300, 44000},
                             {1000, 200000}}) {
    SCOPED_TRACE(std::to_string(n) + " vertices, " + std::to_string(m) + " edges");
    const Graph g = random_dag(n, m, 7);
    expect_paper_dag(g, n, m);
    const std::vector<uint32_t> d = cpu_dijkstra(g, 0);
    for (uint32_t v = 0; v < n; ++v) ASSERT_EQ(d[v], v) << "the chain is every shortest path";
  }
  const Graph a = random_dag(500, 20000, 3), b = random_dag(500, 20000, 3), c = random_dag(500, 20000, 4);
  EXPECT_EQ(a.targets, b.targets);
  EXPECT_NE(a.targets, c.targets);
}

TEST(SsspGraph, SpecsAreParsedAndBadOnesRefused) {
  EXPECT_EQ(make_graph("dag:100:500", 1).edges(), 500u);
  const std::pair<const char*, const char*> bad[] = {
      {"dag:100", "want dag:N:M"}, {"grid:3:3", "want dag:N:M"}, {"dag:x:5", "'x' is not a number"},
      {"dag:100:50", "take 99 to 4950 edges"}, {"dag:1:0", "at least 2 vertices"}};
  for (const auto& [spec, why] : bad) {
    try {
      make_graph(spec, 1);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << spec << ": " << e.what();
    }
  }
}

// Bellman-Ford, the plainest correct answer.
std::vector<uint32_t> bellman_ford(const Graph& g, uint32_t s) {
  std::vector<uint64_t> d(g.n, ~uint64_t{0});
  d[s] = 0;
  for (uint32_t round = 0; round < g.n; ++round)
    for (uint32_t u = 0; u < g.n; ++u)
      if (d[u] != ~uint64_t{0})
        for (uint64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
          d[g.targets[e]] = std::min(d[g.targets[e]], d[u] + g.weights[e]);
  std::vector<uint32_t> out(g.n);
  for (uint32_t v = 0; v < g.n; ++v) out[v] = d[v] == ~uint64_t{0} ? kUnreached : static_cast<uint32_t>(d[v]);
  return out;
}

TEST(SsspReference, BoostDijkstraAgreesWithBellmanFordOnOtherGraphs) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    const Graph g = test::sparse_graph(50, 4, 20, rng);
    const uint32_t s = rng() % g.n;
    EXPECT_EQ(cpu_dijkstra(g, s), bellman_ford(g, s)) << "trial " << trial;
  }
}

}  // namespace
}  // namespace gpulin::sssp
