// The slab hash in device memory: base slabs, the buckets' version words,
// SlabAlloc's pool and bitmaps, in the initial state of slab_hash_memory.h. Plain C++ (the .cu holds the CUDA calls),
// so host code includes it without nvcc. view<P>() is what the kernels take; the
// regular SlabAlloc's super blocks are separate device allocations, their bases in
// a device table, SlabAlloc-light's one contiguous pool.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "structures/slab_hash/slab_hash_memory.h"
#include "structures/slab_hash/slab_hash_view.h"

namespace gpulin::slab_hash {

class DeviceSlabHash {
 public:
  // Throws std::runtime_error (with CUDA's message) when the memory is not there.
  DeviceSlabHash(const SlabHashShape& shape, bool light);
  ~DeviceSlabHash();
  DeviceSlabHash(const DeviceSlabHash&) = delete;
  DeviceSlabHash& operator=(const DeviceSlabHash&) = delete;

  void reset();  // every slab EMPTY, every unit free, failures 0 (synchronous)

  template <class P>
  SlabHashView<P> view() const {
    SlabHashView<P> v;
    v.base_slabs = base_;
    v.versions = versions_;
    v.hash = UniversalHash::from_seed(shape_.hash_seed, shape_.buckets);
    v.alloc.bitmaps = bitmaps_;
    v.alloc.pool = supers_host_.empty() ? nullptr : supers_host_[0];
    v.alloc.super_blocks = super_table_;
    v.alloc.supers = shape_.supers;
    v.alloc.blocks_per_super = shape_.blocks_per_super;
    v.alloc.max_resident_changes = shape_.max_resident_changes;
    v.alloc.failures = failures_;
    return v;
  }

  const SlabHashShape& shape() const { return shape_; }
  bool light() const { return light_; }
  uint32_t failures() const;          // allocations that found no free unit
  uint64_t allocated_units() const;   // bits set in the bitmaps (synchronous)
  size_t bytes() const;               // device memory held
  // Host copies, for checks at rest (slab_at_rest on a HostSlabHash-shaped copy).
  std::vector<uint32_t> base_words() const;
  std::vector<uint32_t> version_words() const;
  std::vector<uint32_t> pool_words() const;  // every super block, back to back
  std::vector<uint32_t> bitmap_words() const;

 private:
  SlabHashShape shape_;
  bool light_;
  uint32_t* base_ = nullptr;
  uint32_t* versions_ = nullptr;  // one a bucket (bucket_version.h), every table's
  uint32_t* bitmaps_ = nullptr;
  uint32_t* failures_ = nullptr;
  uint32_t** super_table_ = nullptr;  // device copy of supers_host_
  std::vector<uint32_t*> supers_host_;
};

}  // namespace gpulin::slab_hash
