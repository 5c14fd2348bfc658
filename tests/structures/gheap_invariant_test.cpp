// Generalized heap properties 1-3 (concurrent-generalized-heap.txt, 3.1).
#include <gtest/gtest.h>

#include "structures/gheap/sim/gheap_invariant.h"

namespace gpulin {
namespace {

// k = 3, five full nodes and a partial buffer.
GHeapSnapshot valid() {
  GHeapSnapshot h;
  h.k = 3;
  h.nodes = {{}, {1, 2, 3}, {4, 6, 9}, {3, 5, 5}, {10, 11, 12}, {9, 9, 20}};
  h.partial = {3, 7};
  return h;
}

std::string failure(const GHeapSnapshot& h) {
  const auto r = check_gheap_invariant(h);
  EXPECT_TRUE(r) << "expected a violation";
  return r.value_or("");
}

bool has(const std::string& msg, const std::string& part) { return msg.find(part) != std::string::npos; }

TEST(GHeapInvariant, ValidHeapsPass) {
  EXPECT_EQ(check_gheap_invariant(valid()), std::nullopt);
  GHeapSnapshot empty;
  empty.k = 4;
  EXPECT_EQ(check_gheap_invariant(empty), std::nullopt);
  GHeapSnapshot only_partial;
  only_partial.k = 4;
  only_partial.partial = {2, 8, 8};  // no root: nothing to compare against
  EXPECT_EQ(check_gheap_invariant(only_partial), std::nullopt);
  GHeapSnapshot classic;  // k = 1 is a conventional heap
  classic.nodes = {{}, {1}, {3}, {2}, {4}};
  EXPECT_EQ(check_gheap_invariant(classic), std::nullopt);
}

TEST(GHeapInvariant, Property1ChildBelowParent) {
  GHeapSnapshot h = valid();
  h.nodes[5] = {8, 9, 20};  // node 5's parent is node 2, whose largest key is 9
  const std::string m = failure(h);
  EXPECT_TRUE(has(m, "property 1")) << m;
  EXPECT_TRUE(has(m, "node 5 [8,9,20]")) << m;
  EXPECT_TRUE(has(m, "parent node 2 [4,6,9]")) << m;
}

TEST(GHeapInvariant, Property2NodeNotSorted) {
  GHeapSnapshot h = valid();
  h.nodes[3] = {5, 3, 5};
  const std::string m = failure(h);
  EXPECT_TRUE(has(m, "property 2")) << m;
  EXPECT_TRUE(has(m, "node 3 [5,3,5]")) << m;
}

TEST(GHeapInvariant, Property3PartialBuffer) {
  GHeapSnapshot below = valid();
  below.partial = {2, 7};  // the root's largest key is 3
  std::string m = failure(below);
  EXPECT_TRUE(has(m, "property 3")) << m;
  EXPECT_TRUE(has(m, "first key 2")) << m;
  EXPECT_TRUE(has(m, "root node 1 [1,2,3]")) << m;

  GHeapSnapshot unsorted = valid();
  unsorted.partial = {7, 4};
  m = failure(unsorted);
  EXPECT_TRUE(has(m, "property 3 (partial buffer sorted)")) << m;

  GHeapSnapshot full = valid();
  full.partial = {4, 5, 6};  // k keys: it should have become a node
  m = failure(full);
  EXPECT_TRUE(has(m, "property 3")) << m;
  EXPECT_TRUE(has(m, "at most 2")) << m;
}

TEST(GHeapInvariant, NodesMustBeFull) {
  GHeapSnapshot h = valid();
  h.nodes[4] = {10, 11};
  const std::string m = failure(h);
  EXPECT_TRUE(has(m, "node 4 holds 2 keys")) << m;
}

}  // namespace
}  // namespace gpulin
