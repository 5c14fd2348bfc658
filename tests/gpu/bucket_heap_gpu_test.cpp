// The parallel bucket heap on the GPU (structures/bucket_heap/gpu/bucket_heap_kernels.cu: a persistent
// block per level, signalled through global memory), through the stress run
// (structures/bucket_heap/gpu/bucket_stress.h): the explorer's Dijkstra-like programs and the
// stress's own, recorded, every EXTRACTMIN's answer equal to a sequential priority
// queue's and the history linearizable under the bucket-pq model. Label `gpu`;
// skips without a device.
#include <gtest/gtest.h>

#include "structures/bucket_heap/gpu/bucket_heap_launch.h"
#include "histories/device_recorder.h"
#include "structures/bucket_heap/device_bucket_heap.h"
#include "tests/gpu/have_gpu.h"
#include "structures/bucket_heap/sim/bucket_program.h"
#include "structures/bucket_heap/sim/bucket_run.h"
#include "structures/bucket_heap/gpu/bucket_program_upload.h"
#include "structures/bucket_heap/gpu/bucket_stress.h"

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

// A recorder too small for the run is reported loudly at download, with the sizes
// the run needed (history-format.md: overflow is never silent).
TEST(BucketHeapGpu, TinyRecorderOverflowIsReportedWithTheSizesNeeded) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  explore::BucketConfig c;
  c.d = 4;
  c.ops = 500;
  const explore::BucketProgram p = explore::generate_bucket_program(c, 1);
  const uint32_t levels = explore::bucket_actors(c, p);
  DeviceBucketHeap heap(c.d, levels);
  const stress::UploadedBucketProgram up(p);
  DeviceRecorder rec(levels, 16, 16);  // room for 4 operations, not 500
  const DeviceRecorderRef ref = rec.ref();
  ASSERT_EQ(launch_bucket_program(heap.view(), up.program(), 256, nullptr, &ref), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  try {
    rec.download(explore::bucket_header("gpu test"), explore::bucket_fn_names(), "<gpu run>");
    FAIL() << "an overflowing recorder downloaded without a word";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("device recorder overflow: actor 0 recorded 1500 events (capacity 16)"), std::string::npos) << what;
    EXPECT_NE(what.find("rerun with more room"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace gpulin::bucket_heap
