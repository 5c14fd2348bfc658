// The heap's block-cooperative building blocks against std::sort / std::merge.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <vector>

#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "structures/gheap/block_ops.h"

namespace gpulin::gheap {
namespace {

// The smallest execution context the block operations need: lanes as a loop.
struct LoopContext {
  uint32_t lanes = 1;
  template <class F>
  void parallel_for(uint32_t n, F&& f) {
    for (uint32_t i = 0; i < n; ++i) f(i);
  }
  uint32_t threads() const { return lanes; }
  template <class T>
  using Private = T*;
  template <class T>
  T* private_view(T* base, size_t) { return base; }
};

std::vector<uint32_t> keys_of(size_t max_len) {
  const auto n = *rc::gen::inRange<size_t>(0, max_len + 1);
  const auto range = *rc::gen::element<uint32_t>(1, 4, 1000, 0xfffffffeu);  // never MAX_VALUE
  return *rc::gen::container<std::vector<uint32_t>>(n, rc::gen::inRange<uint32_t>(0, range));
}

RC_GTEST_PROP(BlockOps, BlockSortSortsLikeStdSort, ()) {
  auto keys = keys_of(64);
  std::vector<uint32_t> expected = keys;
  std::sort(expected.begin(), expected.end());
  std::vector<uint32_t> work(next_pow2(static_cast<uint32_t>(keys.size())) + 1, 7);
  const uint32_t sentinel = 0xabcdef;
  work.back() = sentinel;  // block_sort must stay within next_pow2(n)
  LoopContext x;
  block_sort(x, keys.data(), static_cast<uint32_t>(keys.size()), work.data());
  RC_ASSERT(keys == expected);
  RC_ASSERT(work.back() == sentinel);
}

RC_GTEST_PROP(BlockOps, MergeAndSortIsTheSortedUnion, ()) {
  auto a = keys_of(40), b = keys_of(40);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::vector<uint32_t> expected;
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(expected));
  LoopContext x;
  x.lanes = *rc::gen::inRange<uint32_t>(1, 9);
  std::vector<uint32_t> merged(a.size() + b.size() + 1, 12345);
  const MergeShape shape = merge_and_sort(x, a.data(), static_cast<uint32_t>(a.size()), b.data(),
                                          static_cast<uint32_t>(b.size()), merged.data());
  RC_ASSERT(merged.back() == 12345u);
  merged.pop_back();
  RC_ASSERT(merged == expected);
  const bool ordered = a.empty() || b.empty() || !(b.front() < a.back());
  const bool swapped = !ordered && b.back() < a.front();
  RC_ASSERT((shape == MergeShape::AlreadyOrdered) == ordered);
  RC_ASSERT((shape == MergeShape::Swapped) == swapped);
}

TEST(BlockOps, ThroughTheSimulatorContext) {
  // The same operations through SimContext inside a simulated actor.
  sim::Simulator simulator;
  struct One : sim::Strategy {
    bool begin_run(uint32_t) override { return true; }
    uint32_t pick(sim::ActorSet r, uint32_t, uint64_t) override { return sim::lowest(r); }
    std::string name() const override { return "one"; }
  } strategy;
  std::vector<uint32_t> keys = {9, 3, 3, 7, 0, 12, 5, 5, 1, 8, 2};
  std::vector<uint32_t> a = {1, 4, 4, 9}, b = {0, 4, 5, 10, 11};
  std::vector<uint32_t> merged(a.size() + b.size());
  strategy.begin_run(1);
  auto r = simulator.run(
      1,
      [&](uint32_t actor) {
        sim::SimContext x(simulator, actor, nullptr, 3);
        std::vector<uint32_t> work(16);
        block_sort(x, keys.data(), static_cast<uint32_t>(keys.size()), work.data());
        EXPECT_EQ(merge_and_sort(x, a.data(), 4, b.data(), 5, merged.data()), MergeShape::Merged);
      },
      strategy, 1000);
  ASSERT_EQ(r.outcome, sim::Outcome::Completed);
  EXPECT_EQ(keys, (std::vector<uint32_t>{0, 1, 2, 3, 3, 5, 5, 7, 8, 9, 12}));
  EXPECT_EQ(merged, (std::vector<uint32_t>{0, 1, 4, 4, 4, 5, 9, 10, 11}));
}

}  // namespace
}  // namespace gpulin::gheap
