// The slab hash in host memory, for the simulator: base slabs, SlabAlloc-light's
// pool (or the regular SlabAlloc's super blocks), bitmaps and the buckets' version
// words, reset to the initial state of slab_hash_memory.h; view<P>() is what the structure's templates take.
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "structures/slab_hash/slab_hash_memory.h"
#include "structures/slab_hash/slab_hash_view.h"

namespace gpulin::slab_hash {

class HostSlabHash {
 public:
  explicit HostSlabHash(const SlabHashShape& shape) : shape_(shape) { reset(); }

  // A table of `shape`, every word EMPTY again; the vectors keep their storage (the
  // explorer reuses one table for all its runs: slab_run.cpp).
  void reset(const SlabHashShape& shape) {
    shape_ = shape;
    reset();
  }

  void reset() {
    // 32 spare words so that base slabs and units can sit on 128-byte lines. Filled
    // with memset, not word by word: the explorer resets before every run, and under
    // ASan each store of a fill loop is checked.
    static_assert(kEmptyKey == ~0u, "EMPTY is the all-ones word memset makes");
    fill_bytes(base_, shape_.base_words() + kSlabWords, 0xFF);
    fill_bytes(pool_, shape_.pool_words() + kSlabWords, 0xFF);
    fill_bytes(bitmaps_, shape_.bitmap_words(), 0);
    fill_bytes(versions_, shape_.version_words(), 0);
    failures_ = 0;
    supers_.clear();
    for (uint32_t s = 0; s < shape_.supers; ++s) supers_.push_back(aligned(pool_) + s * shape_.super_words());
  }

  template <class P>
  SlabHashView<P> view() {
    SlabHashView<P> v;
    v.base_slabs = aligned(base_);
    v.versions = versions_.data();
    v.hash = UniversalHash::from_seed(shape_.hash_seed, shape_.buckets);
    v.alloc.bitmaps = bitmaps_.data();
    v.alloc.pool = aligned(pool_);
    v.alloc.super_blocks = supers_.data();
    v.alloc.supers = shape_.supers;
    v.alloc.blocks_per_super = shape_.blocks_per_super;
    v.alloc.max_resident_changes = shape_.max_resident_changes;
    v.alloc.failures = &failures_;
    return v;
  }
  const SlabHashShape& shape() const { return shape_; }
  // The memory the warps share, as (address, bytes): the base slabs, the pool, the
  // allocator's bitmaps, the multimap's bucket versions.
  // The base slabs and the pool from where their aligned first slab starts (not
  // the spare words before it, which move with the vectors' addresses), so that
  // the words of a run read alike in every process (the stepper's states).
  std::vector<std::pair<const void*, size_t>> shared_bytes() const {
    auto& self = const_cast<HostSlabHash&>(*this);
    return {{aligned(self.base_), shape_.base_words() * sizeof(uint32_t)},
            {aligned(self.pool_), shape_.pool_words() * sizeof(uint32_t)},
            {bitmaps_.data(), bitmaps_.size() * sizeof(uint32_t)},
            {versions_.data(), versions_.size() * sizeof(uint32_t)}};
  }
  uint32_t failures() const { return failures_; }

 private:
  static void fill_bytes(std::vector<uint32_t>& v, size_t words, int byte) {
    v.resize(words);
    std::memset(v.data(), byte, words * sizeof(uint32_t));
  }
  static uint32_t* aligned(std::vector<uint32_t>& v) {
    auto p = reinterpret_cast<uintptr_t>(v.data());
    return v.data() + ((128 - p % 128) % 128) / sizeof(uint32_t);
  }
  SlabHashShape shape_;
  std::vector<uint32_t> base_, pool_, bitmaps_, versions_;
  std::vector<uint32_t*> supers_;
  uint32_t failures_ = 0;
};

}  // namespace gpulin::slab_hash
