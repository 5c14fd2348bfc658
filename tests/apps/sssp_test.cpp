// SSSP's graphs and reference (apps/sssp/): the bucket heap paper's random DAGs have
// the edges, weights and shortest paths §4.2 describes, deterministically; the Boost
// Graph Library's Dijkstra agrees with Bellman-Ford on graphs with other shapes
// (unreachable vertices, shortcuts); bad graph specs are refused naming the field.
#include <gtest/gtest.h>

#include <map>
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
    if (u + 1 < n) {
      EXPECT_TRUE(targets.count(u + 1)) << "the chain misses " << u << "->" << u + 1;
    }
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

// The heap paper's kinds of graph (apps/sssp/paper_graphs.h), small: undirected
// (every edge both ways, one weight), no self-loops or repeats, the shape of each
// kind, and Dijkstra reaches what it should.
namespace gpulin::sssp {
namespace {

void expect_undirected_simple(const Graph& g) {
  ASSERT_EQ(g.offsets.size(), g.n + 1u);
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> w;
  for (uint32_t u = 0; u < g.n; ++u)
    for (uint64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      ASSERT_NE(g.targets[e], u) << "self-loop";
      ASSERT_TRUE(w.emplace(std::pair{u, g.targets[e]}, g.weights[e]).second) << "repeated edge";
      ASSERT_GE(g.weights[e], 1u);
      ASSERT_LE(g.weights[e], 64u);
    }
  for (const auto& [uv, weight] : w) {
    const auto back = w.find({uv.second, uv.first});
    ASSERT_TRUE(back != w.end()) << "one-way edge";
    ASSERT_EQ(back->second, weight);
  }
}

TEST(PaperGraphs, RandomGeometricGraph) {
  const Graph g = make_graph("rgg:12", 1);
  EXPECT_EQ(g.n, 4096u);
  expect_undirected_simple(g);
  const double degree = double(g.edges()) / g.n;  // pi r^2 n = 0.95 ln n, less at the border
  EXPECT_GT(degree, 5.0);
  EXPECT_LT(degree, 8.5);
}

TEST(PaperGraphs, KroneckerGraphIsSkewed) {
  const Graph g = make_graph("kron:12", 1);
  EXPECT_EQ(g.n, 4096u);
  expect_undirected_simple(g);
  uint64_t most = 0;
  for (uint32_t u = 0; u < g.n; ++u) most = std::max(most, g.offsets[u + 1] - g.offsets[u]);
  EXPECT_GT(g.edges(), 8u * g.n);
  EXPECT_GT(most, 20 * g.edges() / g.n) << "a Kronecker graph has hubs";
}

TEST(PaperGraphs, DelaunayIsAPlanarTriangulation) {
  const Graph g = make_graph("delaunay:12", 1);
  EXPECT_EQ(g.n, 4096u);
  expect_undirected_simple(g);
  const uint64_t undirected = g.edges() / 2;  // 3n - 3 - hull edges, hull ~ a few dozen
  EXPECT_LE(undirected, 3u * g.n - 6);
  EXPECT_GT(undirected, 3u * g.n - 200);
  // Connected: Dijkstra from 0 reaches every vertex.
  for (uint32_t d : cpu_dijkstra(g, 0)) ASSERT_NE(d, kUnreached);
}

TEST(PaperGraphs, SpecsAndSeeds) {
  EXPECT_EQ(make_graph("rgg:10", 3).targets, make_graph("rgg:10", 3).targets);
  EXPECT_NE(make_graph("kron:10", 3).targets, make_graph("kron:10", 4).targets);
  for (const char* bad : {"rgg", "rgg:", "rgg:x", "rgg:10:2", "kron:27", "delaunay:0", "grid:4"})
    EXPECT_THROW(make_graph(bad, 1), std::invalid_argument) << bad;
}

}  // namespace
}  // namespace gpulin::sssp
