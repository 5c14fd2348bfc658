// The parallel bucket heap on the GPU (cuda/bucket_heap_kernels.cu: a persistent
// block per level, signalled through global memory): generated Dijkstra-like
// programs, recorded, every EXTRACTMIN's answer equal to a sequential priority
// queue's and the history linearizable under the bucket-pq model. Label `gpu`;
// skips without a device.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "common/cuda_support.h"
#include "cuda/bucket_heap_launch.h"
#include "histories/device_recorder.h"
#include "structures/bucket_heap/device_bucket_heap.h"
#include "structures/bucket_heap/operations.h"
#include "tests/gpu/have_gpu.h"
#include "tools/explore/bucket_program.h"
#include "tools/explore/bucket_run.h"

namespace gpulin::bucket_heap {
namespace {

using cuda_support::DeviceBuffer;

// The answers a sequential priority queue gives the program's EXTRACTMINs.
std::vector<Element> expected_answers(const explore::BucketProgram& p) {
  std::map<uint32_t, uint32_t> prio;
  std::set<std::pair<uint32_t, uint32_t>> by;
  std::vector<Element> out(p.ops.size(), kNoElement);
  for (size_t k = 0; k < p.ops.size(); ++k) {
    const explore::BucketOp& op = p.ops[k];
    if (op.fn == kFnUpdate) {
      for (const auto& [v, pr] : op.updates) {
        if (prio.count(v)) by.erase({prio[v], v});
        prio[v] = pr;
        by.emplace(pr, v);
      }
    } else if (op.fn == kFnDelete) {
      by.erase({prio[op.value], op.value});
      prio.erase(op.value);
    } else if (!by.empty()) {
      const auto [pr, v] = *by.begin();
      out[k] = make_element(v, pr);
      by.erase(by.begin());
      prio.erase(v);
    }
  }
  return out;
}

TEST(BucketHeapGpu, RecordedProgramsAnswerAsAPriorityQueue) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (uint32_t d : {1u, 2u, 8u, 64u})
    for (uint64_t seed : {1u, 2u, 3u}) {
      SCOPED_TRACE("d=" + std::to_string(d) + " seed=" + std::to_string(seed));
      explore::BucketConfig c;
      c.d = d;
      c.ops = 2000;
      const explore::BucketProgram p = explore::generate_bucket_program(c, seed);
      std::vector<uint32_t> fn, first{0}, value;
      std::vector<Element> updates;
      for (const explore::BucketOp& op : p.ops) {
        fn.push_back(op.fn);
        value.push_back(op.value);
        for (const auto& [v, pr] : op.updates) updates.push_back(make_element(v, pr));
        first.push_back(static_cast<uint32_t>(updates.size()));
      }
      const uint32_t levels = explore::bucket_actors(c, p);
      DeviceBucketHeap heap(d, levels);
      DeviceBuffer<uint32_t> d_fn(fn), d_first(first), d_value(value);
      DeviceBuffer<Element> d_updates(updates), d_out(p.ops.size());
      DeviceRecorder rec(levels, 4 * static_cast<uint32_t>(p.ops.size()), 2 * static_cast<uint32_t>(updates.size()) + 4 * 2000);
      const DeviceRecorderRef ref = rec.ref();
      const DeviceProgram prog{d_fn.get(), d_first.get(), d_updates.get(), d_value.get(), d_out.get(), p.ops.size()};
      ASSERT_EQ(launch_bucket_program(heap.view(), prog, 256, nullptr, &ref), cudaSuccess);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      const std::vector<Element> out = cuda_support::download(d_out.get(), p.ops.size());
      const std::vector<Element> want = expected_answers(p);
      for (size_t k = 0; k < p.ops.size(); ++k)
        if (p.ops[k].fn == kFnExtractMin) ASSERT_EQ(out[k], want[k]) << "EXTRACTMIN " << k;
      History h = expand(rec.download(explore::bucket_header("gpu test"), explore::bucket_fn_names(), "<gpu run>"));
      explore::pair_update_args(h);
      EXPECT_EQ(h.ops.size(), p.ops.size());
      const explore::Judgement j = explore::judge_history(h, explore::JudgeOptions{0, 0});
      EXPECT_EQ(j.failure, explore::Failure::None) << j.message;
    }
}

}  // namespace
}  // namespace gpulin::bucket_heap
