// Warp-cooperative search over 32 lanes, written once on the contract's lane
// collectives (ballot, shuffle): which lane first satisfies a predicate, and its
// value for every lane. A warp-cooperative structure (a slab of 32 words, one per
// lane) finds its slot this way.
#pragma once

#include <cstdint>

#include "structures/exec/context.h"

namespace gpulin {

GPULIN_HD inline uint32_t lowest_lane(uint32_t mask) {
#if defined(__CUDA_ARCH__)
  return mask ? static_cast<uint32_t>(__ffs(mask) - 1) : 32u;
#else
  return mask ? static_cast<uint32_t>(__builtin_ctz(mask)) : 32u;
#endif
}

// The first lane set in `mask` counting up from `start` and wrapping past 31, or 32
// when the mask is empty (warps that should not all pick the same lane start apart).
GPULIN_HD inline uint32_t lowest_lane_from(uint32_t mask, uint32_t start) {
  start &= 31u;
  const uint32_t rotated = start ? (mask >> start) | (mask << (32 - start)) : mask;
  return rotated ? (lowest_lane(rotated) + start) & 31u : 32u;
}

// The lowest lane l with pred(l), or 32 when none.
template <class X, class Pred>
GPULIN_HD uint32_t first_lane_where(X& x, Pred&& pred) {
  return lowest_lane(x.ballot(pred));
}

// values[l] of the lowest lane l with values[l] > bound, broadcast from that lane;
// `none` when no lane's value exceeds it.
template <class X>
GPULIN_HD uint32_t first_value_above(X& x, const uint32_t* values, uint32_t bound, uint32_t none) {
  const uint32_t lane = first_lane_where(x, [&](uint32_t l) { return values[l] > bound; });
  if (lane == 32) return none;
  return x.shuffle([&](uint32_t l) { return values[l]; }, lane);
}

}  // namespace gpulin
