// The heap paper's SSSP frontier loop (apps/sssp/frontier.h) in the simulator:
// distances equal the Boost Graph Library's Dijkstra with and without the heap, on
// the paper's graph families and on random sparse graphs (RapidCheck), under random
// and PCT schedules; the heap's recorded history linearizable, every key inserted
// deleted; a heap too small is a fault naming it.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <random>
#include <string>

#include "apps/sssp/cpu_dijkstra.h"
#include "apps/sssp/graph.h"
#include "sim/strategies/pct_strategy.h"
#include "sim/strategies/random_strategy.h"
#include "tests/apps/heap_history_keys.h"
#include "tests/apps/sparse_graph.h"
#include "structures/gheap/sim/heap_run.h"
#include "apps/sssp/sim/sssp_frontier_sim.h"

namespace gpulin::sssp {
namespace {

// The run completed, found Dijkstra's distances, and (with the heap, recorded) left a
// linearizable history whose deletes returned every key inserted.
explore::FrontierSimResult expect_shortest_paths(const Graph& g, const std::string& name, const FrontierOptions& o,
                                                 sim::Strategy& strategy) {
  const uint32_t source = default_source(g);
  explore::FrontierSimResult r = explore::frontier_sim(g, name, source, o, strategy);
  EXPECT_EQ(r.run.outcome, sim::Outcome::Completed) << r.run.message;
  EXPECT_EQ(r.result.dist, cpu_dijkstra(g, source));
  if (!o.with_heap) {
    EXPECT_EQ(r.result.heap_rounds, 0u);
  }
  if (o.record) {
    EXPECT_TRUE(r.result.history.has_value());
    if (!r.result.history) return r;
    const gpulin::test::HeapKeys keys = gpulin::test::heap_keys_of(*r.result.history);
    EXPECT_EQ(keys.pending, 0u);
    EXPECT_EQ(keys.inserted, keys.deleted) << "the heap is drained when the loop ends";
    const explore::Judgement j = explore::judge_history(*r.result.history, explore::JudgeOptions{});
    EXPECT_EQ(j.failure, explore::Failure::None) << j.message;
  }
  return r;
}

TEST(SsspFrontierSim, ThePapersGraphFamiliesWithBothHeapsAndWithout) {
  for (const char* spec : {"rgg:10", "kron:9", "delaunay:10", "dag:300:2000"})
    for (const char* heap : {"none", "gheap-td", "gheap-bu"})
      for (uint64_t seed = 1; seed <= 2; ++seed) {
        SCOPED_TRACE(std::string(spec) + " " + heap + " seed " + std::to_string(seed));
        const Graph g = make_graph(spec, seed);
        FrontierOptions o;
        ASSERT_TRUE(set_frontier_heap(o, heap));
        o.threshold = 16;
        o.k = 8;
        o.actors = 4;
        o.lanes = 3;
        o.record = o.with_heap;
        // The DAG's chain improves most vertices many times: stale entries pile up.
        if (spec[0] == 'd') o.heap_keys = 1u << 16;
        sim::RandomStrategy random(seed);
        const explore::FrontierSimResult r = expect_shortest_paths(g, spec, o, random);
        if (o.with_heap) {
          EXPECT_GT(r.result.heap_rounds, 0u) << "the threshold should send rounds through the heap";
        }
        sim::PctStrategy pct(seed, 3);
        expect_shortest_paths(g, spec, o, pct);
      }
}

// The paper's point (§5.7.1, Table 3): the nearest active vertices first, fewer
// vertices explored than the plain loop's.
TEST(SsspFrontierSim, TheHeapExploresFewerVerticesOnARandomGeometricGraph) {
  const Graph g = make_graph("rgg:11", 1);
  FrontierOptions o;
  o.threshold = 16;
  o.k = 8;
  o.actors = 4;
  sim::RandomStrategy a(1), b(1);
  o.with_heap = false;
  const uint64_t plain = expect_shortest_paths(g, "rgg:11", o, a).result.visited;
  o.with_heap = true;
  const uint64_t heap = expect_shortest_paths(g, "rgg:11", o, b).result.visited;
  EXPECT_LT(heap, plain);
}

// More keys than the heap can hold: the run faults, saying so (never a silent loss).
TEST(SsspFrontierSim, AHeapTooSmallIsAFaultNamingIt) {
  const Graph g = make_graph("rgg:10", 1);
  FrontierOptions o;
  o.threshold = 8;
  o.k = 4;
  o.actors = 2;
  o.heap_keys = 16;
  sim::RandomStrategy random(1);
  const explore::FrontierSimResult r = explore::frontier_sim(g, "rgg:10", 0, o, random);
  EXPECT_EQ(r.run.outcome, sim::Outcome::Fault);
  EXPECT_NE(r.run.message.find("the heap is full"), std::string::npos) << r.run.message;
}

TEST(SsspGraph, TheDefaultSourceHasAnOutEdge) {
  for (const char* spec : {"kron:12", "kron:9", "rgg:10", "delaunay:9", "dag:50:100"}) {
    const Graph g = make_graph(spec, 1);
    const uint32_t s = default_source(g);
    EXPECT_GT(g.offsets[s + 1], g.offsets[s]) << spec;
    if (g.offsets[1] > g.offsets[0]) {
      EXPECT_EQ(s, 0u) << spec;
    }
  }
}

TEST(SsspFrontierSim, DistancesPastAKeysHalfAreRefused) {
  Graph g;
  g.n = 3;
  g.offsets = {0, 1, 2, 2};
  g.targets = {1, 2};
  g.weights = {1u << 30, 1u << 30};
  sim::RandomStrategy random(1);
  EXPECT_THROW(explore::frontier_sim(g, "heavy", 0, FrontierOptions{}, random), std::invalid_argument);
}

RC_GTEST_PROP(SsspFrontierSim, RandomSparseGraphsGetDijkstrasDistances, ()) {
  std::mt19937_64 rng(*rc::gen::arbitrary<uint64_t>());
  const Graph g = test::sparse_graph(*rc::gen::inRange(1, 80), *rc::gen::inRange(1, 6), *rc::gen::inRange(1, 30), rng);
  FrontierOptions o;
  o.with_heap = *rc::gen::arbitrary<bool>();
  o.flavor = *rc::gen::arbitrary<bool>() ? gheap::Flavor::BottomUp : gheap::Flavor::TopDown;
  o.threshold = *rc::gen::inRange(1, 10);
  o.k = *rc::gen::inRange(1, 9);
  o.actors = *rc::gen::inRange(1, 5);
  o.lanes = *rc::gen::inRange(1, 4);
  o.record = o.with_heap;
  sim::RandomStrategy random(*rc::gen::arbitrary<uint64_t>());
  const explore::FrontierSimResult r = explore::frontier_sim(g, "sparse", 0, o, random);
  RC_ASSERT(r.run.outcome == sim::Outcome::Completed);
  RC_ASSERT(r.result.dist == cpu_dijkstra(g, 0));
  if (r.result.history) {
    const explore::Judgement j = explore::judge_history(*r.result.history, explore::JudgeOptions{});
    RC_ASSERT(j.failure == explore::Failure::None);
  }
}

}  // namespace
}  // namespace gpulin::sssp
