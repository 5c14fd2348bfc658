// The parallel bucket heap's memory (§2.2): q levels, level i a bucket B_i of up to
// d * 2^(2i+1) elements and a signal buffer S_i of up to d * 2^(2i), both sorted by
// value (and a second buffer S'_i as large, for a policy of two, config.h); the
// level's threshold p_i; how many RESOLVE(i) have completed (the signal the level
// blocks wait on, §4.1); each level actor's scratch.
#pragma once

#include <cstdint>

#include "structures/bucket_heap/config.h"

namespace gpulin::bucket_heap {

GPULIN_HD inline uint64_t bucket_cap(uint32_t d, uint32_t i) { return uint64_t{d} << (2 * i + 1); }
GPULIN_HD inline uint64_t signal_cap(uint32_t d, uint32_t i) { return uint64_t{d} << (2 * i); }
// Room for B_i: its capacity and a signal buffer's more. Line 11 of Algorithm 1
// merges S_{i+1} into B_{i+1} and line 17 returns only what is past p_{i+1}, so
// between two RESOLVE(i+1) a bucket may hold up to that (the next RESOLVE(i+1)
// brings it back to its capacity).
GPULIN_HD inline uint64_t bucket_room(uint32_t d, uint32_t i) { return bucket_cap(d, i) + signal_cap(d, i); }
// Where level i's arrays start in one allocation of each kind: the sum of the
// rooms (capacities) of the levels above.
GPULIN_HD inline uint64_t bucket_base(uint32_t d, uint32_t i) { return uint64_t{d} * ((uint64_t{1} << (2 * i)) - 1); }
GPULIN_HD inline uint64_t signal_base(uint32_t d, uint32_t i) { return uint64_t{d} * (((uint64_t{1} << (2 * i)) - 1) / 3); }

// Scratch elements a level actor needs (resolve.h's regions, each room for both
// levels' arrays), and a few words for counts.
GPULIN_HD inline uint64_t scratch_region(uint32_t d, uint32_t i) {
  return bucket_room(d, i) + signal_cap(d, i) + bucket_room(d, i + 1) + signal_cap(d, i + 1);
}
// Six regions of elements, one of a partition's 64-bit places, and a slot.
inline constexpr uint32_t kScratchRegions = 7;
GPULIN_HD inline uint64_t scratch_for_level(uint32_t d, uint32_t i) { return kScratchRegions * scratch_region(d, i) + 1; }

struct View {
  uint32_t d = 1, levels = 1;
  Element* buckets = nullptr;    // B_i at bucket_base(d, i)
  Element* signals = nullptr;    // S_i at signal_base(d, i)
  uint32_t* bucket_n = nullptr;  // |B_i|
  uint32_t* signal_n = nullptr;  // |S_i|
  uint64_t* threshold = nullptr; // p_i as a rank_key
  uint32_t* done = nullptr;      // RESOLVE(i) completed so far
  Element* scratch = nullptr;    // level i's at scratch_base[i]
  const uint64_t* scratch_base = nullptr;
  Element* signals_b = nullptr;    // S'_i at signal_base(d, i)
  uint32_t* signal_n_b = nullptr;  // |S'_i|

  GPULIN_HD Element* bucket(uint32_t i) const { return buckets + bucket_base(d, i); }
  // Signal buffer b of level i: 0 is S_i, 1 is S'_i.
  GPULIN_HD Element* signal(uint32_t i, uint32_t b = 0) const { return (b ? signals_b : signals) + signal_base(d, i); }
  GPULIN_HD uint32_t* signal_count(uint32_t i, uint32_t b = 0) const { return (b ? signal_n_b : signal_n) + i; }
  GPULIN_HD Element* scratch_of(uint32_t i) const { return scratch + scratch_base[i]; }
};

}  // namespace gpulin::bucket_heap
