// The global merge (GPU Merge Path §2) in the simulator - the same merge_block, with
// its partitioning, windows, shared-memory placement and barrier pipeline, that the
// CUDA kernel runs, each warp a fiber under random schedules drawn from the
// property's seed - against std::merge: every key type, duplicates and all-equal keys, lengths from 0
// to 10^6, very unequal lengths, misaligned arrays, stability with tagged values, a
// descending comparator, several tile shapes and block counts.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "structures/merge_path/sim/merge_sim.h"

namespace gpulin::merge_path {
namespace {

// Sorted keys of length n drawn from `distinct` values (1: all equal), from a seed.
template <class T>
std::vector<T> sorted_keys(uint64_t n, uint64_t distinct, uint64_t seed, bool descending = false) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    const uint64_t r = rng() % distinct;
    if constexpr (std::is_floating_point_v<T>) {
      // Negative and positive values, and both zeros: -0.0 == 0.0 under <, so the
      // bitwise comparison below also checks stability on them.
      x = r == 0 ? T(-0.0) : static_cast<T>(static_cast<double>(r) - static_cast<double>(distinct) / 2) / T(4);
    } else if constexpr (std::is_signed_v<T>) {
      x = static_cast<T>(static_cast<int64_t>(r) - static_cast<int64_t>(distinct / 2));
    } else {
      x = static_cast<T>(r * (std::numeric_limits<T>::max() / std::max<uint64_t>(distinct, 1)));
    }
  }
  if (descending)
    std::stable_sort(v.begin(), v.end(), std::greater<T>());
  else
    std::stable_sort(v.begin(), v.end());
  return v;
}

template <class T>
bool bitwise_equal(const T* x, const T* y, size_t n) {
  return n == 0 || std::memcmp(x, y, n * sizeof(T)) == 0;
}

// Copies v into a buffer at element offset `off` (to test misaligned arrays).
template <class T>
struct Shifted {
  std::vector<T> buf;
  T* p;
  Shifted(const std::vector<T>& v, uint32_t off) : buf(v.size() + off + 1) {
    p = buf.data() + off;
    std::copy(v.begin(), v.end(), p);
  }
};

// The host merge of (a, b) under Policy against std::merge; offsets shift a, b, out.
template <class Policy, class T, class Comp, class StdComp>
void check_keys(const std::vector<T>& a, const std::vector<T>& b, Comp comp, StdComp std_comp, uint64_t blocks,
                uint32_t off_a = 0, uint32_t off_b = 0, uint32_t off_c = 0, uint64_t seed = 1) {
  std::vector<T> expected(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin(), std_comp);
  Shifted<T> sa(a, off_a), sb(b, off_b);
  std::vector<T> cbuf(expected.size() + off_c + 1);
  std::fill(cbuf.begin(), cbuf.end(), T(7));  // poison: every output must be written
  T* c = cbuf.data() + off_c;
  const SimMergeStats st = sim_merge_keys_policy<Policy>(sa.p, a.size(), sb.p, b.size(), c, comp, blocks, seed);
  RC_ASSERT(st.completed());
  RC_ASSERT(bitwise_equal(c, expected.data(), expected.size()));
  RC_ASSERT(cbuf[off_c + expected.size()] == T(7));  // nothing written past the end
  // Each input element reaches shared memory about once: bulk copies cover all but
  // the few unaligned elements at the arrays' ends, over-fetching at most two
  // 16-byte vectors per array and window.
  const uint64_t n = a.size() + b.size();
  constexpr uint64_t E = 16 / sizeof(T);
  RC_ASSERT(st.bulk_bytes <= n * sizeof(T) + st.windows * 4 * 16);
  RC_ASSERT(st.bulk_bytes + 4 * E * sizeof(T) >= n * sizeof(T));
}

using Tiny = MergePolicy<32, 3, 2>;  // 96-output windows: many windows, many blocks
using Odd = MergePolicy<64, 5, 3>;   // 320, three stages
using Warp = MergePolicy<32, 1, 1>;  // 32, one output per thread, one stage

template <class T>
void keys_property() {
  const uint64_t distinct = *rc::gen::element<uint64_t>(1, 2, 5, 100, 1u << 30);
  const bool big = *rc::gen::weightedElement<bool>({{19, false}, {1, true}});
  const uint64_t max_len = big ? 200000 : 600;
  const uint64_t na = *rc::gen::inRange<uint64_t>(0, max_len + 1);
  const uint64_t nb = *rc::gen::oneOf(rc::gen::inRange<uint64_t>(0, max_len + 1), rc::gen::just<uint64_t>(0),
                                      rc::gen::inRange<uint64_t>(0, 4));
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  const bool swap = *rc::gen::arbitrary<bool>();
  auto a = sorted_keys<T>(na, distinct, seed);
  auto b = sorted_keys<T>(nb, distinct, seed ^ 0x9e3779b97f4a7c15ull);
  if (swap) std::swap(a, b);
  const uint64_t blocks = *rc::gen::element<uint64_t>(0, 1, 2, 3, 7, 64);
  const uint32_t off_a = *rc::gen::inRange<uint32_t>(0, 4), off_b = *rc::gen::inRange<uint32_t>(0, 4),
                 off_c = *rc::gen::inRange<uint32_t>(0, 4);
  const int shape = *rc::gen::inRange(0, 4);
  const uint64_t schedule = *rc::gen::arbitrary<uint64_t>();
  using Default = typename DefaultMergePolicy<T, NoValue>::type;
  if (shape == 0) check_keys<Tiny>(a, b, Less(), std::less<T>(), blocks, off_a, off_b, off_c, schedule);
  if (shape == 1) check_keys<Odd>(a, b, Less(), std::less<T>(), blocks, off_a, off_b, off_c, schedule);
  if (shape == 2) check_keys<Warp>(a, b, Less(), std::less<T>(), blocks, off_a, off_b, off_c, schedule);
  if (shape == 3) check_keys<Default>(a, b, Less(), std::less<T>(), blocks, off_a, off_b, off_c, schedule);
}

RC_GTEST_PROP(SimGlobalMerge, Int32MatchesStdMerge, ()) { keys_property<int32_t>(); }
RC_GTEST_PROP(SimGlobalMerge, Int64MatchesStdMerge, ()) { keys_property<int64_t>(); }
RC_GTEST_PROP(SimGlobalMerge, Uint32MatchesStdMerge, ()) { keys_property<uint32_t>(); }
RC_GTEST_PROP(SimGlobalMerge, Uint64MatchesStdMerge, ()) { keys_property<uint64_t>(); }
RC_GTEST_PROP(SimGlobalMerge, FloatMatchesStdMergeBitwise, ()) { keys_property<float>(); }
RC_GTEST_PROP(SimGlobalMerge, DoubleMatchesStdMergeBitwise, ()) { keys_property<double>(); }

RC_GTEST_PROP(SimGlobalMerge, DescendingComparator, ()) {
  const uint64_t distinct = *rc::gen::element<uint64_t>(1, 3, 1000);
  const uint64_t na = *rc::gen::inRange<uint64_t>(0, 700), nb = *rc::gen::inRange<uint64_t>(0, 700);
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  const auto a = sorted_keys<int64_t>(na, distinct, seed, true);
  const auto b = sorted_keys<int64_t>(nb, distinct, ~seed, true);
  check_keys<Tiny>(a, b, Greater(), std::greater<int64_t>(), 0);
  check_keys<Odd>(a, b, Greater(), std::greater<int64_t>(), 3, 1, 0, 1);
  const auto fa = sorted_keys<float>(na, distinct, seed, true);
  const auto fb = sorted_keys<float>(nb, distinct, ~seed, true);
  check_keys<typename DefaultMergePolicy<float, NoValue>::type>(fa, fb, Greater(), std::greater<float>(), 0);
}

// Key-value pairs whose values tag where each key came from: (0, i) for A[i],
// (1, j) for B[j]. The merged values must be exactly std::merge's (stable) ones.
template <class Policy, class K>
void check_tagged_pairs(const std::vector<K>& ka, const std::vector<K>& kb, uint64_t blocks, uint32_t off,
                        uint64_t seed) {
  struct Tagged {
    K key;
    uint32_t tag;
  };
  const uint32_t kFromB = 0x80000000u;
  std::vector<uint32_t> va(ka.size()), vb(kb.size());
  for (size_t i = 0; i < va.size(); ++i) va[i] = static_cast<uint32_t>(i);
  for (size_t j = 0; j < vb.size(); ++j) vb[j] = kFromB | static_cast<uint32_t>(j);
  std::vector<Tagged> ta, tb, expected(ka.size() + kb.size());
  for (size_t i = 0; i < ka.size(); ++i) ta.push_back({ka[i], va[i]});
  for (size_t j = 0; j < kb.size(); ++j) tb.push_back({kb[j], vb[j]});
  std::merge(ta.begin(), ta.end(), tb.begin(), tb.end(), expected.begin(),
             [](const Tagged& x, const Tagged& y) { return x.key < y.key; });

  Shifted<K> ska(ka, off), skb(kb, 0);
  Shifted<uint32_t> sva(va, 0), svb(vb, off);
  std::vector<K> ok(expected.size() + off + 1, K(3));
  std::vector<uint32_t> ov(expected.size() + 1, 0xdeadbeefu);
  const SimMergeStats st = sim_merge_pairs_policy<Policy>(ska.p, sva.p, ka.size(), skb.p, svb.p, kb.size(),
                                                          ok.data() + off, ov.data(), Less(), blocks, seed);
  RC_ASSERT(st.completed());
  for (size_t k = 0; k < expected.size(); ++k) {
    RC_ASSERT(ok[off + k] == expected[k].key);
    RC_ASSERT(ov[k] == expected[k].tag);
  }
  RC_ASSERT(ov[expected.size()] == 0xdeadbeefu);
  // Spelled out: on equal keys every A element precedes every B element, and each
  // input keeps its order.
  for (size_t k = 1; k < expected.size(); ++k) {
    if (ok[off + k] == ok[off + k - 1]) {
      RC_ASSERT((ov[k - 1] & kFromB) <= (ov[k] & kFromB));
      if ((ov[k - 1] & kFromB) == (ov[k] & kFromB)) RC_ASSERT(ov[k - 1] < ov[k]);
    }
  }
}

RC_GTEST_PROP(SimGlobalMerge, PairsStableWithTaggedValues, ()) {
  const uint64_t distinct = *rc::gen::element<uint64_t>(1, 2, 7, 1000);
  const bool big = *rc::gen::weightedElement<bool>({{19, false}, {1, true}});
  const uint64_t max_len = big ? 100000 : 500;
  const uint64_t na = *rc::gen::inRange<uint64_t>(0, max_len), nb = *rc::gen::inRange<uint64_t>(0, max_len);
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  const uint64_t blocks = *rc::gen::element<uint64_t>(0, 1, 5);
  const uint32_t off = *rc::gen::inRange<uint32_t>(0, 4);
  const auto ka = sorted_keys<int32_t>(na, distinct, seed);
  const auto kb = sorted_keys<int32_t>(nb, distinct, seed + 1);
  const auto la = sorted_keys<uint64_t>(na, distinct, seed);
  const auto lb = sorted_keys<uint64_t>(nb, distinct, seed + 1);
  const uint64_t s = *rc::gen::arbitrary<uint64_t>();  // the schedules
  switch (*rc::gen::inRange(0, 4)) {
    case 0: check_tagged_pairs<Tiny>(ka, kb, blocks, off, s); break;
    case 1: check_tagged_pairs<typename DefaultMergePolicy<int32_t, uint32_t>::type>(ka, kb, blocks, off, s); break;
    case 2: check_tagged_pairs<Odd>(la, lb, blocks, off, s); break;
    default: check_tagged_pairs<typename DefaultMergePolicy<uint64_t, uint32_t>::type>(la, lb, blocks, off, s); break;
  }
}

// Float keys with float values (two arrays of different alignment phases).
TEST(SimGlobalMerge, FloatPairsDescending) {
  const auto a = sorted_keys<double>(3001, 50, 1, true), b = sorted_keys<double>(1234, 50, 2, true);
  std::vector<float> va(a.size()), vb(b.size());
  for (size_t i = 0; i < va.size(); ++i) va[i] = static_cast<float>(i);
  for (size_t j = 0; j < vb.size(); ++j) vb[j] = -1.0f - static_cast<float>(j);
  std::vector<std::pair<double, float>> pa, pb, expected(a.size() + b.size());
  for (size_t i = 0; i < a.size(); ++i) pa.push_back({a[i], va[i]});
  for (size_t j = 0; j < b.size(); ++j) pb.push_back({b[j], vb[j]});
  std::merge(pa.begin(), pa.end(), pb.begin(), pb.end(), expected.begin(),
             [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<double> ok(expected.size());
  std::vector<float> ov(expected.size());
  sim_merge_pairs(a.data(), va.data() + 0, a.size(), b.data(), vb.data(), b.size(), ok.data(), ov.data(), Greater());
  for (size_t k = 0; k < expected.size(); ++k) {
    ASSERT_EQ(std::memcmp(&ok[k], &expected[k].first, sizeof(double)), 0) << k;
    ASSERT_EQ(ov[k], expected[k].second) << k;
  }
}

// A few large cases with the GPU's own policy and block count.
TEST(SimGlobalMerge, MillionEach) {
  const auto a = sorted_keys<int32_t>(1000000, 1u << 20, 11), b = sorted_keys<int32_t>(1000000, 1u << 20, 12);
  std::vector<int32_t> expected(2000000), got(2000000);
  std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin());
  const auto st = sim_merge_keys(a.data(), a.size(), b.data(), b.size(), got.data());
  EXPECT_EQ(got, expected);
  EXPECT_EQ(st.blocks, std::min<uint64_t>(st.windows, kSimDefaultBlocks));
  EXPECT_GT(st.blocks, 100u);
}

// Always runs the lowest runnable actor: block 0's warps whenever one can go on.
class LowestFirst : public sim::Strategy {
 public:
  bool begin_run(uint32_t) override { return true; }
  uint32_t pick(sim::ActorSet runnable, uint32_t, uint64_t) override { return sim::lowest(runnable); }
  std::string name() const override { return "lowest-first"; }
};

// The blocks share the windows (global_merge.h): a block that runs more often
// merges more of them. Under a schedule that favours block 0, block 1 gets what block
// 0 leaves while its warps wait, far from the half a fixed split would give it.
TEST(SimGlobalMerge, FasterBlockMergesMoreWindows) {
  const auto a = sorted_keys<int32_t>(3000, 1000, 5), b = sorted_keys<int32_t>(3000, 1000, 6);
  std::vector<int32_t> expected(a.size() + b.size()), got(expected.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin());
  MergeArgs<int32_t, NoValue, Less> args{a.data(), nullptr, a.size(), b.data(), nullptr, b.size(), got.data(),
                                         nullptr, 0, Less()};
  LowestFirst lowest_first;
  const SimMergeStats st = sim_merge_impl<Tiny>(args, 2, lowest_first, kNoPointLimit);
  ASSERT_TRUE(st.completed());
  EXPECT_EQ(got, expected);
  ASSERT_EQ(st.bulk_copies_by_block.size(), 2u);
  EXPECT_GT(st.bulk_copies_by_block[0], 2 * st.bulk_copies_by_block[1])
      << "block 0: " << st.bulk_copies_by_block[0] << " copies, block 1: " << st.bulk_copies_by_block[1];
}

TEST(SimGlobalMerge, VeryUnequalAndEmpty) {
  const auto big = sorted_keys<float>(1000000, 1000, 21);
  const std::vector<float> one{0.0f}, none;
  for (const auto* pair : {&one, &none}) {
    for (bool big_first : {true, false}) {
      const auto& a = big_first ? big : *pair;
      const auto& b = big_first ? *pair : big;
      std::vector<float> expected(a.size() + b.size()), got(a.size() + b.size(), 5.0f);
      std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin());
      sim_merge_keys(a.data(), a.size(), b.data(), b.size(), got.data());
      EXPECT_TRUE(bitwise_equal(got.data(), expected.data(), expected.size()));
    }
  }
  std::vector<float> out(1, 9.0f);
  sim_merge_keys(none.data(), 0, none.data(), 0, out.data());
  EXPECT_EQ(out[0], 9.0f);
}

TEST(SimGlobalMerge, AllEqualMillionStable) {
  const std::vector<uint32_t> ka(600000, 42), kb(400000, 42);
  std::vector<uint32_t> va(ka.size()), vb(kb.size());
  for (size_t i = 0; i < va.size(); ++i) va[i] = static_cast<uint32_t>(i);
  for (size_t j = 0; j < vb.size(); ++j) vb[j] = static_cast<uint32_t>(va.size() + j);
  std::vector<uint32_t> ok(1000000), ov(1000000);
  sim_merge_pairs(ka.data(), va.data(), ka.size(), kb.data(), vb.data(), kb.size(), ok.data(), ov.data());
  for (uint32_t k = 0; k < ov.size(); ++k) ASSERT_EQ(ov[k], k);  // all of A, then all of B, in order
}

// The placement of a window's range in a stage, exhaustively over small arrays and
// every 16-byte phase: bulk part + element-wise ends cover the range exactly, the
// bulk copy is aligned on both sides and stays inside the array and the region.
template <class T>
void placement_exhaustive() {
  constexpr uint64_t E = 16 / sizeof(T);
  alignas(16) static T storage[64 + 16];
  for (uint64_t base_off = 0; base_off < E; ++base_off) {
    const T* base = storage + base_off;
    const uint64_t q = reinterpret_cast<uintptr_t>(base) / sizeof(T);
    for (uint64_t total = 0; total <= 40; ++total)
      for (uint64_t x0 = 0; x0 <= total; ++x0)
        for (uint64_t len = 0; x0 + len <= total; ++len)
          for (uint32_t region : {0u, static_cast<uint32_t>(E), static_cast<uint32_t>(3 * E)}) {
            const Placement p = place_range(base, total, x0, len, region);
            ASSERT_EQ(p.slot0 % E, (region + (q + x0) % E) % E);
            ASSERT_LE(p.end - region, len + 2 * E - 2);
            ASSERT_EQ((p.end - region) % E, 0u);
            std::vector<int> cover(total, 0);
            if (p.bulk_lo < p.bulk_hi) {
              ASSERT_LE(p.bulk_hi, total);
              ASSERT_EQ((q + p.bulk_lo) % E, 0u);
              ASSERT_EQ((q + p.bulk_hi) % E, 0u);
              const uint64_t dst = p.slot0 + p.bulk_lo - x0;
              ASSERT_EQ(dst % E, 0u);
              ASSERT_GE(dst, region);
              ASSERT_LE(dst + (p.bulk_hi - p.bulk_lo), p.end);
              for (uint64_t i = p.bulk_lo; i < p.bulk_hi; ++i) ++cover[i];
            }
            ASSERT_LT(p.e0_hi - p.e0_lo, E);
            ASSERT_LT(p.e1_hi - p.e1_lo, E);
            for (uint64_t i = p.e0_lo; i < p.e0_hi; ++i) ++cover[i];
            for (uint64_t i = p.e1_lo; i < p.e1_hi; ++i) ++cover[i];
            for (uint64_t i = x0; i < x0 + len; ++i) ASSERT_EQ(cover[i], 1) << "element " << i;
            // Outside the range only whole-vector over-fetch by the bulk copy.
            for (uint64_t i = p.e0_lo; i < p.e0_hi; ++i) ASSERT_TRUE(i >= x0 && i < x0 + len);
            for (uint64_t i = p.e1_lo; i < p.e1_hi; ++i) ASSERT_TRUE(i >= x0 && i < x0 + len);
          }
  }
}

TEST(SimGlobalMerge, PlacementExhaustive4) { placement_exhaustive<int32_t>(); }
TEST(SimGlobalMerge, PlacementExhaustive8) { placement_exhaustive<double>(); }

// The partitioning stage alone: equidistant diagonals, monotone splits, every window
// a consistent corner-to-corner piece of the path (§2.1, Observation 2).
RC_GTEST_PROP(SimGlobalMerge, PartitionSplitsAreOnThePath, ()) {
  const uint64_t na = *rc::gen::inRange<uint64_t>(0, 300), nb = *rc::gen::inRange<uint64_t>(0, 300);
  const auto a = sorted_keys<int32_t>(na, 4, na * 7 + nb), b = sorted_keys<int32_t>(nb, 4, nb * 13 + na);
  const uint64_t windows = window_count<Tiny>(na, nb);
  uint64_t prev = 0;
  for (uint64_t w = 0; w <= windows; ++w) {
    const uint64_t s = window_split<Tiny>(a.data(), na, b.data(), nb, w, Less());
    const uint64_t d = std::min<uint64_t>(w * Tiny::tile, na + nb);
    RC_ASSERT(s >= prev);
    RC_ASSERT(s <= std::min(d, na));
    RC_ASSERT(d - s <= nb);
    // Everything before the corner precedes everything after it (stable order).
    if (s > 0 && d - s < nb) RC_ASSERT(a[s - 1] <= b[d - s]);  // A[s-1] is output before B[d-s]
    if (d - s > 0 && s < na) RC_ASSERT(b[d - s - 1] < a[s]);  // B[d-s-1] before A[s]: strictly less
    prev = s;
  }
  RC_ASSERT(prev == na);
}

}  // namespace
}  // namespace gpulin::merge_path
