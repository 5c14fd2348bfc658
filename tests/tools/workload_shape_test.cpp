// One meaning of each workload name (tools/stress/workload_shape.h), shared by
// `gpulin stress` and gpulin_bench_gheap.
#include <gtest/gtest.h>

#include <stdexcept>

#include "structures/gheap/config.h"
#include "tools/stress/workload.h"
#include "tools/stress/workload_shape.h"

namespace gpulin::stress {
namespace {

uint64_t count(const WorkloadShape& w, uint32_t fn, uint64_t begin, uint64_t end) {
  uint64_t c = 0;
  for (uint64_t i = begin; i < end; ++i) c += w.fn[i] == fn;
  return c;
}

TEST(WorkloadShape, RandomIsFullBatchesThenDeletesUntilEmpty) {
  const WorkloadShape w = plan_workload("random", 100, 16, 8, 1);
  ASSERT_EQ(w.phases.size(), 2u);
  EXPECT_EQ(w.stream_keys, 100u);
  EXPECT_EQ(w.ins_ops, 7u);  // six full batches and a last one of 4 keys
  EXPECT_EQ(w.n[6], 4u);
  EXPECT_EQ(count(w, gheap::kFnDel, w.phases[1].begin, w.phases[1].end), 8u);  // ceil(100 / 16) + 1
  EXPECT_EQ(w.timed_keys, 100u);
}

TEST(WorkloadShape, InsdelPairsComeInRoundsOfTheBlocks) {
  const uint32_t blocks = 4, k = 8;
  const WorkloadShape w = plan_workload("insdel:3", 10 * k, k, blocks, 1);
  ASSERT_EQ(w.phases.size(), 3u);
  EXPECT_EQ(w.phases[0].name, "fill");
  EXPECT_FALSE(w.phases[0].timed);
  EXPECT_EQ(w.phases[0].end, 7u);  // 2^3 - 1 full nodes
  const ShapePhase& pairs = w.phases[1];
  EXPECT_TRUE(pairs.timed);
  EXPECT_EQ(pairs.end - pairs.begin, 20u);  // 10 pairs
  // Rounds: 4 inserts, 4 deletes, 4, 4, then the last 2 and 2.
  const std::vector<uint32_t> expect = {0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1};
  for (uint64_t i = 0; i < expect.size(); ++i)
    EXPECT_EQ(w.fn[pairs.begin + i], expect[i] ? gheap::kFnDel : gheap::kFnIns) << i;
  EXPECT_EQ(w.phases[2].name, "drain");
  EXPECT_EQ(w.phases[2].end - w.phases[2].begin, 9u);  // 2^3 + 1
  EXPECT_EQ(w.timed_keys, 10u * k);
}

TEST(WorkloadShape, PartialSizesAreBetweenOneAndK) {
  const WorkloadShape w = plan_workload("partial:50", 4096, 32, 1, 3);
  uint64_t partial = 0;
  for (uint64_t i = 0; i < w.ins_ops; ++i) {
    ASSERT_GE(w.n[i], 1u);
    ASSERT_LE(w.n[i], 32u);
    partial += w.n[i] < 32;
  }
  EXPECT_GT(partial, w.ins_ops / 4);
  EXPECT_EQ(w.stream_keys, 4096u);
}

TEST(WorkloadShape, BadNamesThrow) {
  EXPECT_THROW(plan_workload("zigzag", 10, 4, 1, 1), std::invalid_argument);
  EXPECT_THROW(plan_workload("partial:101", 10, 4, 1, 1), std::invalid_argument);
  EXPECT_THROW(plan_workload("insdel:0", 10, 4, 1, 1), std::invalid_argument);
  EXPECT_THROW(plan_workload("insdel:x", 10, 4, 1, 1), std::invalid_argument);
}

TEST(WorkloadShape, StressDrawsKeysForTheSameOperations) {
  const Workload host = make_workload("ascend", 64, 8, 2, 5);
  const WorkloadShape shape = plan_workload("ascend", 64, 8, 2, 5);
  uint64_t ops = 0, keys = 0;
  uint32_t last = 0;
  for (const Phase& p : host.phases) {
    ops += p.fn.size();
    keys += p.inserted_keys;
    for (size_t i = 0; i < p.fn.size(); ++i)
      for (uint32_t j = 0; j < p.n[i]; ++j) {
        EXPECT_GE(p.keys[i * 8 + j], last);  // ascending across the stream
        last = p.keys[i * 8 + j];
      }
  }
  EXPECT_EQ(ops, shape.ops());
  EXPECT_EQ(keys, shape.stream_keys);
  EXPECT_EQ(host.total_inserts, shape.ins_ops);
}

}  // namespace
}  // namespace gpulin::stress
