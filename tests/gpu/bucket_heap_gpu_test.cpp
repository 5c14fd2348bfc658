// The parallel bucket heap on the GPU (cuda/bucket_heap_kernels.cu: a persistent
// block per level, signalled through global memory), through the stress run
// (tools/stress/bucket_stress.h): the explorer's Dijkstra-like programs and the
// stress's own, recorded, every EXTRACTMIN's answer equal to a sequential priority
// queue's and the history linearizable under the bucket-pq model. Label `gpu`;
// skips without a device.
#include <gtest/gtest.h>

#include "tests/gpu/have_gpu.h"
#include "tools/explore/bucket_program.h"
#include "tools/stress/bucket_stress.h"

namespace gpulin::bucket_heap {
namespace {

TEST(BucketHeapGpu, RecordedProgramsAnswerAsAPriorityQueue) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (uint32_t d : {1u, 2u, 8u, 64u})
    for (uint64_t seed : {1u, 2u, 3u}) {
      SCOPED_TRACE("d=" + std::to_string(d) + " seed=" + std::to_string(seed));
      explore::BucketConfig c;
      c.d = d;
      c.ops = 2000;
      stress::BucketStressOptions o;
      o.d = d;
      o.record = true;
      const stress::BucketStressResult r = stress::run_bucket_program_on_gpu(explore::generate_bucket_program(c, seed), o);
      for (const std::string& f : r.failures) ADD_FAILURE() << f;
      EXPECT_EQ(r.ops, 2000u);
      EXPECT_GT(r.events, 4000u);
    }
}

// gpulin stress --structure bucket-heap's run: recorded, at level blocks of 256 and
// 1024 threads, from d = 1 to d = 512.
TEST(BucketHeapGpu, StressRunsPass) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (const auto& [d, ops] : {std::pair<uint32_t, uint64_t>{1, 20000}, {16, 20000}, {512, 3000}})
    for (uint32_t threads : {256u, 1024u}) {
      SCOPED_TRACE("d=" + std::to_string(d) + " threads=" + std::to_string(threads));
      stress::BucketStressOptions o;
      o.d = d;
      o.ops = ops;
      o.threads = threads;
      o.record = true;
      const stress::BucketStressResult r = stress::run_bucket_stress(o);
      for (const std::string& f : r.failures) ADD_FAILURE() << f;
      EXPECT_GT(r.extracts, r.empty_extracts);
      EXPECT_GT(r.events, 0u);
    }
}

}  // namespace
}  // namespace gpulin::bucket_heap
