// The GPU near-far Delta-stepping baseline (apps/sssp/near_far.h) against the Boost
// Graph Library's Dijkstra: the bucket heap paper's DAGs from sparse to dense, with
// Davidson et al.'s Delta and with small and huge ones, and graphs with unreachable
// vertices. Label `gpu`; skips without a device.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <random>

#include "apps/sssp/cpu_dijkstra.h"
#include "apps/sssp/graph.h"
#include "apps/sssp/near_far.h"
#include "apps/sssp/pardijkstra.h"
#include "apps/sssp/pardijkstra_run.h"
#include "tests/apps/sparse_graph.h"
#include "tests/gpu/have_gpu.h"

namespace gpulin::sssp {
namespace {

using gpulin::test::have_gpu;

TEST(NearFarGpu, MatchesDijkstraOnThePapersDags) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (const auto& [n, m] : {std::pair<uint32_t, uint64_t>{2, 1}, {1000, 999}, {1000, 50000}, {1000, 499500},
                             {30000, 3000000}})
    for (uint32_t delta : {0u, 1u, 100000u}) {
      SCOPED_TRACE(std::to_string(n) + " vertices, " + std::to_string(m) + " edges, delta " + std::to_string(delta));
      const Graph g = random_dag(n, m, 5);
      NearFarStats st;
      EXPECT_EQ(near_far_sssp(g, 0, delta, &st), cpu_dijkstra(g, 0));
      EXPECT_GT(st.rounds, 0u);
    }
}

TEST(NearFarGpu, MatchesDijkstraWithUnreachableVertices) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 10; ++trial) {
    const Graph g = test::sparse_graph(2000, 3, 1000, rng);
    const uint32_t s = rng() % g.n;
    EXPECT_EQ(near_far_sssp(g, s, 0, nullptr), cpu_dijkstra(g, s)) << "trial " << trial;
  }
}

// PARDIJKSTRA on the bucket heap (a persistent block per level) against Dijkstra: the
// paper's DAGs from sparse to complete (the complete one of 3000 vertices with B_0
// long enough for RESOLVE(0) in place, structures/bucket_heap/resolve_in_place.h),
// and sparse graphs with unsorted rows, edges
// twice and unreachable vertices, at level blocks of 256, 512 and 1024 threads (each
// its own instance of the kernel, registers budgeted for it). (It once
// trapped on the H100 - a barrier reached by part of block 0 - where EXTRACTMIN
// shifted B_0's scratch copy in place while other threads were still scanning it
// for the minimum; the simulator, whose actors run their threads in turn, cannot
// see such a race within one actor.)
TEST(PardijkstraGpu, MatchesDijkstra) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (const auto& [n, m] : {std::pair<uint32_t, uint64_t>{2, 1}, {1000, 999}, {1000, 50000}, {1000, 499500},
                             {3000, 4498500}, {30000, 3000000}}) {
    SCOPED_TRACE(std::to_string(n) + " vertices, " + std::to_string(m) + " edges");
    const Graph g = random_dag(n, m, 5);
    const std::vector<uint32_t> want = cpu_dijkstra(g, 0);
    for (uint32_t threads : {256u, 512u, 1024u}) {
      PardijkstraStats st;
      EXPECT_EQ(pardijkstra_gpu(g, 0, &st, threads), want) << threads << " threads a level block";
      EXPECT_GE(st.levels, 1u);
    }
  }
  std::mt19937_64 rng(4);
  for (int trial = 0; trial < 5; ++trial) {
    const Graph g = test::sparse_graph(3000, 6, 1000, rng);
    const uint32_t s = rng() % g.n;
    EXPECT_EQ(pardijkstra_gpu(g, s, nullptr), cpu_dijkstra(g, s)) << "trial " << trial;
  }
}

// A profiled run (the kernel's timing instance) finds the same distances, and its
// parts are the time of the run: level 0's parts add up to the kernel's time, within
// the launch and the first mark, and every level below waited or resolved.
TEST(PardijkstraGpu, AProfiledRunTimesItsParts) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Graph g = random_dag(3000, 200000, 7);
  PardijkstraStats st;
  EXPECT_EQ(pardijkstra_gpu(g, 0, &st, 1024, true), cpu_dijkstra(g, 0));
  ASSERT_EQ(st.round_parts.size(), size_t{kRoundParts});
  double parts = 0;
  for (double p : st.round_parts) {
    EXPECT_GT(p, 0);
    parts += p;
  }
  EXPECT_LE(parts, st.seconds * 1.01);
  EXPECT_GE(parts, st.seconds * 0.5);
  // RESOLVE(0)'s steps are within its part; every RESOLVE(0) loads, then merges
  // and removes duplicates (one step).
  ASSERT_EQ(st.resolve_steps.size(), size_t{bucket_heap::kResolveSteps});
  double steps = 0;
  for (double t : st.resolve_steps) steps += t;
  EXPECT_GT(st.resolve_steps[bucket_heap::kStepLoad], 0);
  EXPECT_GT(st.resolve_steps[bucket_heap::kStepMergeDedup], 0);
  EXPECT_LE(steps, st.round_parts[kResolve]);
  ASSERT_EQ(st.level_wait_resolve.size(), size_t{st.levels - 1});
  for (const auto& [wait, resolve] : st.level_wait_resolve) EXPECT_GT(wait + resolve, 0);
  PardijkstraStats plain;
  pardijkstra_gpu(g, 0, &plain);
  EXPECT_TRUE(plain.round_parts.empty());
}

}  // namespace
}  // namespace gpulin::sssp
