// The per-key rules of a rule-ordered pq-batch history, written once for the host
// checker (host_check.cpp, threads) and the GPU checker (gpu_check.cu, kernels).
//
// Once a linearization-point rule fixes the order of the operations (positions
// 0..m-1), legality needs no replay of a multiset. Every (key, position) pair of
// an insert's arguments or a delete's result is a "tuple"; sorted by (key,
// position), the tuples of one key form a segment, and the running count of its
// copies (+1 per insert, -1 per delete) after each tuple is c_after. Then the
// history is legal exactly when, at every position p holding a delete:
//   sorted   its result is ascending (the model returns it so);
//   size     it returns min(k, |S|) keys, |S| the keys present before p (prefix sums);
//   missing  every key it returns is present: c_after >= 0 at its tuple;
//   bypassed no key that stays present after p is smaller than the largest key it
//            returns: for a tuple with c_after > 0, every delete from the tuple's
//            position (inclusive when the tuple is a delete's, exclusive when an
//            insert's) up to the key's next tuple returns keys no larger than it
//            (a range maximum over positions: the sparse table below, or on the
//            host block_max.h).
// Together these say each delete returns exactly the min(k, |S|) smallest keys, so by
// induction the replay's state and this check's counts agree up to the first
// failing position, and that position is the replay's first failure
// (docs/checking-at-scale.md has the argument).
#pragma once

#include <cstdint>

#include "common/host_device.h"  // GPULIN_HD

namespace gpulin::pq_linear {

// What failed first, ordered so that at one position the most basic reason wins.
enum FailKind : uint32_t { kNoFail = 0, kUnsorted = 1, kSize = 2, kMissing = 3, kBypassed = 4 };

// No delete at the position (an insert, or a delete that returned nothing).
constexpr int64_t kNoMax = INT64_MIN;

// A failure as one comparable word: position first, then the kind. The key
// involved is found by a second look at the tuples of that position.
GPULIN_HD inline uint64_t fail_word(uint64_t pos, uint32_t kind) { return pos << 3 | kind; }
GPULIN_HD inline uint64_t fail_pos(uint64_t w) { return w >> 3; }
GPULIN_HD inline uint32_t fail_kind(uint64_t w) { return static_cast<uint32_t>(w & 7); }
constexpr uint64_t kNoFailWord = ~uint64_t{0};

// A sparse table over the positions' largest returned keys: level l holds, at i,
// the maximum of [i, i + 2^l). Stored level after level, m entries each.
struct SparseMaxView {
  const int64_t* levels = nullptr;
  uint64_t m = 0;
  uint32_t level_count = 0;

  GPULIN_HD const int64_t* level(uint32_t l) const { return levels + uint64_t(l) * m; }
  // Maximum over [lo, hi], lo <= hi < m.
  GPULIN_HD int64_t max(uint64_t lo, uint64_t hi) const {
    const uint32_t l = floor_log2(hi - lo + 1);
    const int64_t a = level(l)[lo], b = level(l)[hi + 1 - (uint64_t{1} << l)];
    return a > b ? a : b;
  }
  // The first position in [lo, hi] whose value exceeds v, or hi + 1: skip whole
  // blocks whose maximum is at most v, the largest first (each level at most once).
  GPULIN_HD uint64_t first_above(uint64_t lo, uint64_t hi, int64_t v) const {
    for (uint32_t l = level_count; l-- > 0;) {
      const uint64_t len = uint64_t{1} << l;
      if (lo + len - 1 <= hi && level(l)[lo] <= v) lo += len;
    }
    return lo;
  }
  GPULIN_HD static uint32_t floor_log2(uint64_t x) {
    uint32_t r = 0;
    while (x >>= 1) ++r;
    return r;
  }
};

// Levels a table over m positions needs.
GPULIN_HD inline uint32_t sparse_levels(uint64_t m) { return m ? SparseMaxView::floor_log2(m) + 1 : 1; }

// One level from the one below: out[i] = max(below[i], below[i + half]).
GPULIN_HD inline int64_t sparse_entry(const int64_t* below, uint64_t i, uint64_t half, uint64_t m) {
  const int64_t a = below[i];
  if (i + half >= m) return a;
  const int64_t b = below[i + half];
  return a > b ? a : b;
}

// The rule for one tuple: key v at position p (a delete's result when is_del),
// c_after copies of v present after it, the key's next tuple at position next_p
// (m when none). Returns a fail_word, or kNoFailWord. `table`: the range maximum
// over the positions' largest returned keys (a SparseMaxView, or the host's
// BlockMaxTable, block_max.h).
template <class MaxTable>
GPULIN_HD inline uint64_t check_tuple(int64_t v, uint64_t p, bool is_del, int64_t c_after, uint64_t next_p,
                                      const MaxTable& table) {
  if (is_del && c_after < 0) return fail_word(p, kMissing);
  if (c_after > 0) {
    const uint64_t lo = is_del ? p : p + 1;
    if (next_p > lo) {
      const uint64_t hi = next_p - 1;
      if (table.max(lo, hi) > v) return fail_word(table.first_above(lo, hi, v), kBypassed);
    }
  }
  return kNoFailWord;
}

// The size rule for a delete at a position: `present` keys before it.
GPULIN_HD inline bool size_ok(uint64_t returned, uint64_t present, uint64_t k) {
  return returned == (present < k ? present : k);
}

}  // namespace gpulin::pq_linear
