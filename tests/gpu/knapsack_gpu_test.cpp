// The knapsack branch and bound over the generalized heap on the GPU
// (apps/knapsack/gpu/knapsack_kernels.cu, the simulator's template): the optimum by
// dynamic programming on every type, both fixed heaps, recorded runs judged by the
// witness of the heap's rule, every created node inserted and deleted once. Label
// `gpu`; skips without a device.
#include <gtest/gtest.h>

#include "apps/knapsack/gpu/knapsack_launch.h"
#include "apps/knapsack/instance.h"
#include "apps/knapsack/knapsack_gpu.h"
#include "histories/device_recorder.h"
#include "tests/gpu/have_gpu.h"
#include "tests/apps/heap_history_keys.h"
#include "structures/gheap/sim/heap_run.h"

namespace gpulin::knapsack {
namespace {

TEST(KnapsackGpu, RecordedRunsFindTheOptimumOnEveryType) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (gheap::Flavor flavor : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp})
    for (const char* spec : {"strongly:60:1000", "almost:80:1000", "evenodd:50:1000", "subset:100:1000"}) {
      SCOPED_TRACE(std::string(spec) + (flavor == gheap::Flavor::TopDown ? " gheap-td" : " gheap-bu"));
      const Instance in = make_instance(spec, 1);
      GpuKnapsackOptions o;
      o.flavor = flavor;
      o.blocks = 32;
      o.threads = 128;
      o.k = 64;
      o.pool = 1u << 22;
      o.record = true;
      const GpuKnapsackResult r = knapsack_gpu(in, o);
      ASSERT_TRUE(r.stopped.empty()) << r.stopped;
      EXPECT_EQ(r.best, optimum_by_dp(in));
      EXPECT_GT(r.explored, 0u);
      ASSERT_TRUE(r.history.has_value());
      test::expect_drained_and_linearizable(*r.history, r.created, false);
      std::printf("[ knapsack ] %s: best %llu, %llu explored, %llu created, %.4f s\n", spec,
                  static_cast<unsigned long long>(r.best), static_cast<unsigned long long>(r.explored),
                  static_cast<unsigned long long>(r.created), r.seconds);
    }
}

TEST(KnapsackGpu, APaperSizedInstanceUnrecorded) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Instance in = make_instance("strongly:200:7000", 1);
  GpuKnapsackOptions o;
  const GpuKnapsackResult r = knapsack_gpu(in, o);
  ASSERT_TRUE(r.stopped.empty()) << r.stopped;
  EXPECT_EQ(r.best, optimum_by_dp(in));
  std::printf("[ knapsack ] strongly:200:7000 (64 x 256, k=1024): best %llu, %llu explored, %.4f s\n",
              static_cast<unsigned long long>(r.best), static_cast<unsigned long long>(r.explored), r.seconds);
}

// Garbage collection on the GPU: sweeps happen, the optimum is found, the recorded
// history (the sweeps' deletes and re-inserts among the search's) is linearizable and
// every key inserted came out.
TEST(KnapsackGpu, GarbageCollectionSweepsAndFindsTheOptimum) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (gheap::Flavor flavor : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp})
    for (Order order : {Order::Bound, Order::Profit}) {
      // The profit key's parallel search is erratic at scale (docs/findings.md, A1):
      // a small instance and few blocks for it.
      const Instance in = make_instance(order == Order::Bound ? "almost:80:1000" : "strongly:40:200", 1);
      GpuKnapsackOptions o;
      o.flavor = flavor;
      o.order = order;
      o.blocks = order == Order::Bound ? 32 : 4;
      o.gc_threshold = order == Order::Bound ? 2048 : 64;
      o.record_events = o.record_keys = 1u << 21;
      o.threads = 128;
      o.k = 32;
      o.pool = 1u << 20;
      o.record = true;
      const GpuKnapsackResult r = knapsack_gpu(in, o);
      ASSERT_TRUE(r.stopped.empty()) << r.stopped;
      EXPECT_EQ(r.best, optimum_by_dp(in));
      EXPECT_GT(r.sweeps, 0u);
      ASSERT_TRUE(r.history.has_value());
      test::expect_drained_and_linearizable(*r.history, r.created, true);
      std::printf("[ knapsack ] %s with gc, key %s: %llu sweeps dropped %llu, %llu explored, %.4f s\n", in.name.c_str(),
                  order == Order::Bound ? "bound" : "profit",
                  static_cast<unsigned long long>(r.sweeps), static_cast<unsigned long long>(r.collected),
                  static_cast<unsigned long long>(r.explored), r.seconds);
    }
}

// The recording kernels record the root's holds alone (cuda/cuda_context.cuh,
// CountedHoldsOnly): a recorder set for every node's holds, or for tickets, is
// refused before anything is launched.
TEST(KnapsackGpu, ARecorderNotOfTheRootsHoldsAloneIsRefused) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  DeviceRecorder64 rec(1, 8, 8);
  for (const bool all : {false, true}) {
    if (all) rec.version_holds(4);
    const DeviceRecorderRef64 ref = rec.ref();
    EXPECT_EQ(launch_knapsack(gheap::Flavor::TopDown, Order::Bound, {}, KnapsackView{}, 1, 32, nullptr, &ref, nullptr),
              cudaErrorInvalidValue);
  }
}

}  // namespace
}  // namespace gpulin::knapsack
