// The original slab hash's one translation unit (original_slab_hash.h): its
// headers are included here only, so that their globals and macros meet none of
// ours.
#include "bench/slab_hash/original_slab_hash.h"

#include <stdexcept>

#ifdef GPULIN_HAVE_ORIGINAL_SLABHASH
#include "slab_hash.cuh"  // .originals/SlabHash/src (its SlabAlloc's src beside it)
#endif

namespace gpulin::bench {

#ifdef GPULIN_HAVE_ORIGINAL_SLABHASH

bool original_slab_hash_built() { return true; }

struct OriginalSlabMap::Impl {
  DynamicAllocatorT allocator;
  GpuSlabHash<uint32_t, uint32_t, SlabHashTypeT::ConcurrentMap> table;
  Impl(uint32_t buckets, uint32_t seed) : table(buckets, &allocator, 0, seed) {}
};

OriginalSlabMap::OriginalSlabMap(uint32_t buckets, uint32_t seed) : impl_(std::make_unique<Impl>(buckets, seed)) {}
OriginalSlabMap::~OriginalSlabMap() = default;

void OriginalSlabMap::build(const uint32_t* keys, const uint32_t* values, uint32_t n) {
  impl_->table.buildBulk(const_cast<uint32_t*>(keys), const_cast<uint32_t*>(values), n);
}
void OriginalSlabMap::batched(const uint32_t* ops, uint32_t* results, uint32_t n) {
  impl_->table.batchedOperation(const_cast<uint32_t*>(ops), results, n);
}
void OriginalSlabMap::search(const uint32_t* keys, uint32_t* results, uint32_t n) {
  impl_->table.searchIndividual(const_cast<uint32_t*>(keys), results, n);
}

#else

bool original_slab_hash_built() { return false; }

struct OriginalSlabMap::Impl {};
OriginalSlabMap::OriginalSlabMap(uint32_t, uint32_t) {
  throw std::logic_error("the original slab hash is not in this build (scripts/fetch-originals.sh, then re-run cmake)");
}
OriginalSlabMap::~OriginalSlabMap() = default;
void OriginalSlabMap::build(const uint32_t*, const uint32_t*, uint32_t) {}
void OriginalSlabMap::batched(const uint32_t*, uint32_t*, uint32_t) {}
void OriginalSlabMap::search(const uint32_t*, uint32_t*, uint32_t) {}

#endif

}  // namespace gpulin::bench
