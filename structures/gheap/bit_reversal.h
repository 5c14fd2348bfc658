// Target selection with the bit-reversal permutation (§4.3, after Hunt et al. 1996):
// the n-th node of the heap (1-based fill order) sits at level L = floor(log2 n),
// position i = n - 2^L; the node used is 2^L + reverse_L(i). Two consecutive inserts
// then share only the root on their paths; deletes take node_of(lastelem), the
// same order reversed.
#pragma once

#include <cstdint>

#include "structures/exec/context.h"
#include "structures/gheap/config.h"

namespace gpulin::gheap {

GPULIN_HD inline uint32_t floor_log2(uint32_t n) {
  uint32_t l = 0;
  while (n >>= 1) ++l;
  return l;
}

GPULIN_HD inline uint32_t reverse_bits(uint32_t v, uint32_t bits) {
  uint32_t r = 0;
  for (uint32_t b = 0; b < bits; ++b) r |= ((v >> b) & 1u) << (bits - 1 - b);
  return r;
}

// Node id of the n-th node in fill order (n >= 1). The off-by-one mutant reverses
// one bit too few.
template <Mutant M = Mutant::None>
GPULIN_HD inline uint32_t node_of(uint32_t n) {
  uint32_t level = floor_log2(n);
  uint32_t base = 1u << level;
  uint32_t bits = level;
  if constexpr (M == Mutant::BitReversalOffByOne) bits = level > 0 ? level - 1 : level;
  return base + reverse_bits(n - base, bits);
}

// The same for host code that learns the mutant at run time (the checks of a heap
// at rest).
inline uint32_t node_of(uint32_t n, Mutant m) {
  return m == Mutant::BitReversalOffByOne ? node_of<Mutant::BitReversalOffByOne>(n) : node_of<Mutant::None>(n);
}

// Nodes to allocate for `max_full_nodes` full nodes in fill order: whole levels,
// because bit reversal spreads a level's nodes over all of it. 0 when that needs
// 2^32 nodes or more (the caller reports it).
inline uint32_t heap_capacity_for(uint64_t max_full_nodes) {
  uint32_t levels = 1;
  while (levels < 33 && (uint64_t{1} << levels) - 1 < max_full_nodes) ++levels;
  return levels >= 32 ? 0 : (1u << levels) - 1;
}

}  // namespace gpulin::gheap
