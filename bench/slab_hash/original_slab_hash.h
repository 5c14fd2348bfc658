// The original slab hash (Ashkiani, Farach-Colton and Owens, IPDPS 2018:
// owensgroup/SlabHash at eec7135 with its SlabAlloc at d655028, SlabAlloc-light
// with the 32 x 256 x 1024-unit pool its benchmarks use), behind a small plain C++
// interface so that gpulin_bench_slab measures it beside ours in one program run,
// on the same keys, timed the same way. Its headers stay in
// original_slab_hash.cu, built only when scripts/fetch-originals.sh has put the
// sources in .originals/ (they are not ours to copy into the repository).
//
// Its semantics, where they differ from ours (docs/findings.md has the slab hash's):
//   - a batch's operation is a key's top two bits (1 insert, 2 delete, 3 search),
//     so keys are below 2^30, and an insert stores the key as its value;
//   - within a warp, its batched kernel runs the inserts, then the deletes, then the
//     searches;
//   - an insert does not look for the key first (ours replaces a present key's
//     value), and a delete empties the slot, which a later insert may reuse (ours
//     leaves a tombstone).
#pragma once

#include <cstdint>
#include <memory>

namespace gpulin::bench {

// Whether this build holds the original (GPULIN_HAVE_ORIGINAL_SLABHASH).
bool original_slab_hash_built();

class OriginalSlabMap {
 public:
  // A table of `buckets` base slabs and a fresh allocator; `seed` seeds its hash.
  OriginalSlabMap(uint32_t buckets, uint32_t seed);
  ~OriginalSlabMap();
  OriginalSlabMap(const OriginalSlabMap&) = delete;
  OriginalSlabMap& operator=(const OriginalSlabMap&) = delete;

  // Device pointers; asynchronous on the default stream.
  void build(const uint32_t* keys, const uint32_t* values, uint32_t n);  // its buildBulk
  // Its batched_operations: ops[i] = code << 30 | key; a found search writes the
  // key's value to results[i] and leaves it untouched otherwise.
  void batched(const uint32_t* ops, uint32_t* results, uint32_t n);
  // Its searchIndividual: results[i] the value, or 0xFFFFFFFF when absent.
  void search(const uint32_t* keys, uint32_t* results, uint32_t n);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

inline constexpr uint32_t kOriginalInsert = 1, kOriginalDelete = 2, kOriginalSearch = 3;

}  // namespace gpulin::bench
