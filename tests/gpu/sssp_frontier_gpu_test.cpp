// The heap paper's SSSP frontier loop on the GPU
// (apps/sssp/gpu/sssp_frontier_kernels.cu, the simulator's template): Dijkstra's
// distances on the paper's graph families with both fixed heaps and without, recorded
// runs judged by the witness of the heap's rule with every key inserted deleted, a
// heap too small stopped and named. Label `gpu`; skips without a device.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "apps/sssp/cpu_dijkstra.h"
#include "apps/sssp/frontier_run.h"
#include "apps/sssp/gpu/sssp_frontier_launch.h"
#include "apps/sssp/graph.h"
#include "histories/device_recorder.h"
#include "tests/apps/heap_history_keys.h"
#include "tests/gpu/have_gpu.h"
#include "structures/gheap/sim/heap_run.h"

namespace gpulin::sssp {
namespace {

TEST(SsspFrontierGpu, RecordedRunsGetDijkstrasDistancesOnEveryFamily) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (const char* spec : {"rgg:15", "kron:13", "delaunay:14"}) {
    const Graph g = make_graph(spec, 1);
    const uint32_t source = default_source(g);  // kron: vertex 0 is isolated
    const std::vector<uint32_t> expected = cpu_dijkstra(g, source);
    for (const char* heap : {"none", "gheap-td", "gheap-bu"}) {
      SCOPED_TRACE(std::string(spec) + " " + heap);
      FrontierOptions o;
      ASSERT_TRUE(set_frontier_heap(o, heap));
      o.threshold = 512;
      o.k = 128;
      o.blocks = 16;
      o.threads = 256;
      o.record = o.with_heap;
      const FrontierResult r = frontier_gpu(g, spec, source, o);
      ASSERT_TRUE(r.stopped.empty()) << r.stopped;
      EXPECT_EQ(r.dist, expected);
      if (!o.with_heap) {
        EXPECT_EQ(r.heap_rounds, 0u);
      }
      if (o.with_heap) {
        EXPECT_GT(r.heap_rounds, 0u);
        ASSERT_TRUE(r.history.has_value());
        const gpulin::test::HeapKeys keys = gpulin::test::heap_keys_of(*r.history);
        EXPECT_EQ(keys.pending, 0u);
        EXPECT_EQ(keys.inserted, keys.deleted) << "the heap is drained when the loop ends";
        const explore::Judgement j = explore::judge_history(*r.history, explore::JudgeOptions{});
        EXPECT_EQ(j.failure, explore::Failure::None) << j.message;
      }
      std::printf("[ frontier ] %s %s: %u rounds (%u heap), %llu explored, %.4f s\n", spec, heap, r.rounds,
                  r.heap_rounds, static_cast<unsigned long long>(r.visited), r.seconds);
    }
  }
}

// One block an SM, the paper's threshold and k, unrecorded, at a size the CPU tests
// cannot reach.
TEST(SsspFrontierGpu, APaperSizedGraphAtFullSpeed) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Graph g = make_graph("rgg:18", 1);
  const std::vector<uint32_t> expected = cpu_dijkstra(g, 0);
  for (gheap::Flavor flavor : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp}) {
    FrontierOptions o;
    o.flavor = flavor;
    const FrontierResult r = frontier_gpu(g, "rgg:18", 0, o);
    ASSERT_TRUE(r.stopped.empty()) << r.stopped;
    EXPECT_EQ(r.dist, expected);
    std::printf("[ frontier ] rgg:18: %u rounds (%u heap), %llu explored, %.4f s\n", r.rounds, r.heap_rounds,
                static_cast<unsigned long long>(r.visited), r.seconds);
  }
}

// The heap's room exhausted: x.fail stops every block through the watchdog (the
// device prints the reason; the report names the failed block).
TEST(SsspFrontierGpu, AHeapTooSmallStopsTheRunNamingIt) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Graph g = make_graph("rgg:14", 1);
  FrontierOptions o;
  o.threshold = 64;
  o.k = 64;
  o.blocks = 8;
  o.heap_keys = 128;
  const FrontierResult r = frontier_gpu(g, "rgg:14", 0, o);
  EXPECT_NE(r.stopped.find("failed"), std::string::npos) << r.stopped;
}

// The recording kernels record the root's holds alone (cuda/cuda_context.cuh,
// CountedHoldsOnly): a recorder set for every node's holds, or for tickets, is
// refused before anything is launched.
TEST(SsspFrontierGpu, ARecorderNotOfTheRootsHoldsAloneIsRefused) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  DeviceRecorder64 rec(1, 8, 8);
  for (const bool all : {false, true}) {
    if (all) rec.version_holds(4);
    const DeviceRecorderRef64 ref = rec.ref();
    EXPECT_EQ(launch_frontier_sssp(gheap::Flavor::TopDown, {}, FrontierView{}, nullptr, 1, 32, nullptr, &ref, nullptr),
              cudaErrorInvalidValue);
  }
}

}  // namespace
}  // namespace gpulin::sssp
