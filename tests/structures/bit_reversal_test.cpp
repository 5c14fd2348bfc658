// Target selection by bit reversal (§4.3): a permutation of each level, and
// consecutive targets whose root paths share only the root.
#include <gtest/gtest.h>

#include <set>

#include "structures/gheap/bit_reversal.h"

namespace gpulin::gheap {
namespace {

// The level-1 ancestor (child of the root) of node x at level L >= 1.
uint32_t top_child(uint32_t x) { return x >> (floor_log2(x) - 1); }

TEST(BitReversal, EachLevelIsPermuted) {
  EXPECT_EQ(node_of(1), 1u);
  for (uint32_t level = 0; level <= 16; ++level) {
    const uint32_t base = 1u << level;
    std::set<uint32_t> seen;
    for (uint32_t n = base; n < 2 * base; ++n) {
      const uint32_t x = node_of(n);
      ASSERT_GE(x, base) << n;
      ASSERT_LT(x, 2 * base) << n;
      seen.insert(x);
    }
    EXPECT_EQ(seen.size(), base) << "level " << level;
  }
}

TEST(BitReversal, FirstAndLastOfALevel) {
  for (uint32_t level = 1; level <= 16; ++level) {
    const uint32_t base = 1u << level;
    EXPECT_EQ(node_of(base), base);                  // leftmost
    EXPECT_EQ(node_of(2 * base - 1), 2 * base - 1);  // rightmost
    EXPECT_EQ(node_of(base + 1), base + base / 2);   // then the first of the right half
  }
}

TEST(BitReversal, ConsecutiveInsertPathsShareOnlyTheRoot) {
  // Paths of node_of(n) and node_of(n+1) share only the root iff their level-1
  // ancestors differ; this holds for every n >= 2, across level boundaries too.
  // (n = 1 is the root itself, whose path is only the root.)
  for (uint32_t n = 2; n < (1u << 17); ++n) {
    ASSERT_NE(top_child(node_of(n)), top_child(node_of(n + 1))) << "n = " << n;
  }
}

TEST(BitReversal, ConsecutiveNodesAlternateAtEveryDepthWhereTheyCan) {
  // Stronger: within a level, nodes 2j and 2j+1 (in fill order) differ in the top
  // bit below the root, and nodes n, n+2 differ at level 2 (paths diverge below
  // the first level-1 node shared), i.e. fill order spreads across subtrees.
  for (uint32_t level = 2; level <= 12; ++level) {
    const uint32_t base = 1u << level;
    for (uint32_t n = base; n + 2 < 2 * base; ++n) {
      const uint32_t x = node_of(n), y = node_of(n + 2);
      ASSERT_EQ(top_child(x), top_child(y));
      ASSERT_NE(x >> (level - 2), y >> (level - 2)) << n;
    }
  }
}

TEST(BitReversal, OffByOneMutantIsNotAPermutation) {
  bool broken = false;
  for (uint32_t level = 1; level <= 6; ++level) {
    const uint32_t base = 1u << level;
    std::set<uint32_t> seen;
    for (uint32_t n = base; n < 2 * base; ++n) seen.insert(node_of(n, Mutant::BitReversalOffByOne));
    broken |= seen.size() != base;
  }
  EXPECT_TRUE(broken);
}

}  // namespace
}  // namespace gpulin::gheap
