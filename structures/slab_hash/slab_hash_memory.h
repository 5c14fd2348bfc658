// The slab hash's memory sizes and initial contents, shared by the host copy (the
// simulator's, host_slab_hash.h) and the device copy (structures/slab_hash/gpu/slab_hash_launch.h):
// every word starts all-ones (EMPTY keys, EMPTY pointers, free bitmaps are zero).
#pragma once

#include <cstddef>
#include <cstdint>

#include "structures/slab_hash/slab_alloc.h"

namespace gpulin::slab_hash {

struct SlabHashShape {
  uint32_t buckets = 1;
  uint32_t supers = 1;            // SlabAlloc super blocks
  uint32_t blocks_per_super = 1;  // memory blocks of 1024 units each
  uint32_t max_resident_changes = 64;
  uint64_t hash_seed = 1;

  size_t base_words() const { return size_t{buckets} * kSlabWords; }
  size_t version_words() const { return buckets; }
  size_t units() const { return size_t{supers} * blocks_per_super * kUnitsPerBlock; }
  size_t pool_words() const { return units() * kSlabWords; }
  size_t bitmap_words() const { return size_t{supers} * blocks_per_super * 32; }
  size_t super_words() const { return size_t{blocks_per_super} * kUnitsPerBlock * kSlabWords; }
};

// The paper's configuration (§VI): 32 super blocks (contiguous), 256 memory blocks
// each, 1024 units of 128 bytes: 1 GiB of slabs. Smaller shapes for tests and the
// simulator pass their own.
inline SlabHashShape paper_shape(uint32_t buckets) { return {buckets, 32, 256, 64, 1}; }

}  // namespace gpulin::slab_hash
