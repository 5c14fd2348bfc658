// One meaning of each workload name (structures/gheap/gpu/workload_shape.h), shared by
// `gpulin stress` and gpulin_bench_gheap.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "structures/gheap/config.h"
#include "structures/gheap/gpu/workload.h"
#include "structures/gheap/gpu/workload_keys.h"
#include "structures/gheap/gpu/workload_shape.h"

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
  const Workload<uint32_t> host = make_workload<uint32_t>("ascend", 64, 8, 2, 5);
  const WorkloadShape shape = plan_workload("ascend", 64, 8, 2, 5);
  uint64_t ops = 0, keys = 0;
  uint32_t last = 0;
  for (const Phase<uint32_t>& p : host.phases) {
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

// The keys of one workload, in stream order.
template <class Key>
std::vector<Key> inserted_keys(const Workload<Key>& w, uint32_t k) {
  std::vector<Key> keys;
  for (const Phase<Key>& p : w.phases)
    for (size_t i = 0; i < p.fn.size(); ++i) keys.insert(keys.end(), p.keys.begin() + i * k, p.keys.begin() + i * k + p.n[i]);
  return keys;
}

// The keys are the counter-based stream (workload_keys.h), the one the GPU draws
// (device_workload.h) and the heap benchmark uses: key i is SplitMix64 of the seed
// and i, the high half for 32-bit keys.
TEST(Workload, KeysAreTheCounterStream) {
  const Workload<uint32_t> w = make_workload<uint32_t>("random", 1000, 16, 4, 7);
  const std::vector<uint32_t> keys = inserted_keys(w, 16);
  ASSERT_EQ(keys.size(), 1000u);
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(keys[i], stream_key<uint32_t>(7, i)) << i;
    ASSERT_EQ(keys[i], static_cast<uint32_t>(splitmix64(7 + 0x9e3779b97f4a7c15ULL * (i + 1)) >> 32)) << i;
  }
  EXPECT_NE(inserted_keys(make_workload<uint32_t>("random", 1000, 16, 4, 8), 16), keys) << "another seed, other keys";
}

// 64-bit workloads: the same operations, keys spread over [0, 2^63), the range of a
// history integer, so that a key narrowed to 32 bits anywhere changes its value
// (and almost always its order) and a wrapped one would turn negative.
TEST(Workload, SixtyFourBitKeysSpanTheHistoryIntegers) {
  const uint32_t k = 32;
  const Workload<uint64_t> wide = make_workload<uint64_t>("partial:30", 1 << 14, k, 8, 3);
  const Workload<uint32_t> narrow = make_workload<uint32_t>("partial:30", 1 << 14, k, 8, 3);
  ASSERT_EQ(wide.phases.size(), narrow.phases.size());
  for (size_t i = 0; i < wide.phases.size(); ++i) {
    EXPECT_EQ(wide.phases[i].fn, narrow.phases[i].fn);
    EXPECT_EQ(wide.phases[i].n, narrow.phases[i].n);
    // Unused slots hold the 64-bit heap's MAX_VALUE.
    for (size_t op = 0; op < wide.phases[i].fn.size(); ++op)
      for (uint32_t j = wide.phases[i].n[op]; j < k; ++j)
        ASSERT_EQ(wide.phases[i].keys[op * k + j], ~uint64_t{0});
  }
  const std::vector<uint64_t> keys = inserted_keys(wide, k);
  ASSERT_EQ(keys.size(), uint64_t{1} << 14);
  uint64_t above32 = 0, top_bit = 0;  // top_bit: bit 62, the highest a history integer's key may set
  for (uint64_t key : keys) {
    ASSERT_LT(key, uint64_t{1} << 63) << "a key no history integer holds";
    above32 += key >> 32 != 0;
    top_bit += key >> 62 & 1;
  }
  EXPECT_GT(above32, keys.size() * 99 / 100) << "64-bit keys mostly below 2^32 would hide a truncation";
  EXPECT_GT(top_bit, keys.size() / 3);
  EXPECT_LT(top_bit, keys.size() * 2 / 3);
}

}  // namespace
}  // namespace gpulin::stress
