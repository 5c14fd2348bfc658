// The merge-path core against std::merge: every split of the output, stability.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <vector>

#include "structures/merge_path/merge_path_core.h"

namespace gpulin::merge_path {
namespace {

std::vector<int> sorted_ints(size_t max_len, int key_range) {
  const auto n = *rc::gen::inRange<size_t>(0, max_len + 1);
  auto v = *rc::gen::container<std::vector<int>>(n, rc::gen::inRange(0, key_range));
  std::sort(v.begin(), v.end());
  return v;
}

// Merges by `parts` slices with cut points `cuts` (sorted, within [0, total]).
template <class T, class Comp = Less>
std::vector<T> merge_by_cuts(const std::vector<T>& a, const std::vector<T>& b, std::vector<uint64_t> cuts,
                             Comp comp = Comp()) {
  const uint64_t total = a.size() + b.size();
  cuts.push_back(0);
  cuts.push_back(total);
  std::sort(cuts.begin(), cuts.end());
  std::vector<T> out(total);
  for (size_t i = 0; i + 1 < cuts.size(); ++i)
    merge_range(a.data(), a.size(), b.data(), b.size(), cuts[i], cuts[i + 1], out.data() + cuts[i], comp);
  return out;
}

RC_GTEST_PROP(MergePath, EverySplitConcatenatesToStdMerge, ()) {
  const int key_range = *rc::gen::element(1, 3, 50, 1000000);  // 1: all equal
  const auto a = sorted_ints(2000, key_range);
  const auto b = sorted_ints(2000, key_range);
  std::vector<int> expected;
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(expected));
  const uint64_t total = expected.size();

  // Even partition into P parts (as block_merge does).
  const auto parts = *rc::gen::inRange<uint64_t>(1, 130);
  std::vector<uint64_t> even;
  for (uint64_t t = 1; t < parts; ++t) even.push_back(total * t / parts);
  RC_ASSERT(merge_by_cuts(a, b, even) == expected);

  // Arbitrary cut points, repeats and empty slices included.
  const auto cuts = *rc::gen::container<std::vector<uint64_t>>(rc::gen::inRange<uint64_t>(0, total + 1));
  RC_ASSERT(merge_by_cuts(a, b, cuts) == expected);
}

RC_GTEST_PROP(MergePath, DiagonalSplitCountsAsFromTheStableMerge, ()) {
  const int key_range = *rc::gen::element(1, 4, 100);
  const auto a = sorted_ints(60, key_range);
  const auto b = sorted_ints(60, key_range);
  // Stable merge with origins: on equal keys A first.
  uint64_t i = 0, j = 0, from_a = 0;
  for (uint64_t d = 0; d <= a.size() + b.size(); ++d) {
    RC_ASSERT(diagonal_split(a.data(), a.size(), b.data(), b.size(), d) == from_a);
    if (d == a.size() + b.size()) break;
    if (j >= b.size() || (i < a.size() && !(b[j] < a[i]))) {
      ++i;
      ++from_a;
    } else {
      ++j;
    }
  }
}

TEST(MergePath, AllEqualEverySingleSplit) {
  const std::vector<int> a(37, 5), b(23, 5);
  std::vector<int> expected(60, 5);
  for (uint64_t d0 = 0; d0 <= 60; ++d0) {
    EXPECT_EQ(diagonal_split(a.data(), 37, b.data(), 23, d0), std::min<uint64_t>(d0, 37));
    for (uint64_t d1 = d0; d1 <= 60; d1 += 7) EXPECT_EQ(merge_by_cuts(a, b, {d0, d1}), expected);
  }
}

struct Tagged {
  int key;
  int origin;  // 0: A, 1: B
  int index;   // position in its input
  bool operator==(const Tagged& o) const { return key == o.key && origin == o.origin && index == o.index; }
};
struct KeyLess {
  bool operator()(const Tagged& x, const Tagged& y) const { return x.key < y.key; }
};

RC_GTEST_PROP(MergePath, StableOnEqualKeysAFirst, ()) {
  const int key_range = *rc::gen::element(1, 3, 20);
  const auto ka = sorted_ints(500, key_range);
  const auto kb = sorted_ints(500, key_range);
  std::vector<Tagged> a, b;
  for (size_t i = 0; i < ka.size(); ++i) a.push_back({ka[i], 0, static_cast<int>(i)});
  for (size_t i = 0; i < kb.size(); ++i) b.push_back({kb[i], 1, static_cast<int>(i)});
  std::vector<Tagged> expected;
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(expected), KeyLess());  // stable
  const uint64_t total = expected.size();
  const auto cuts = *rc::gen::container<std::vector<uint64_t>>(rc::gen::inRange<uint64_t>(0, total + 1));
  const auto got = merge_by_cuts(a, b, cuts, KeyLess());
  RC_ASSERT(got == expected);
  // Spelled out: within one key, every A element precedes every B element, and
  // each input keeps its order.
  for (size_t i = 1; i < got.size(); ++i)
    if (got[i].key == got[i - 1].key) RC_ASSERT(got[i - 1].origin <= got[i].origin);
}

}  // namespace
}  // namespace gpulin::merge_path
