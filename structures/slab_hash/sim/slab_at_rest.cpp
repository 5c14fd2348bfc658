#include "structures/slab_hash/sim/slab_at_rest.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace gpulin::explore {

namespace {
// A memory block of EMPTY words, to compare free units with: one for every policy.
const uint32_t* empty_block() {
  static const std::vector<uint32_t> words(size_t{slab_hash::kUnitsPerBlock} * slab_hash::kSlabWords,
                                           slab_hash::kEmptyKey);
  return words.data();
}
}  // namespace

template <class P>
std::optional<std::string> slab_table_at_rest(const slab_hash::SlabHashView<P>& h) {
  using namespace slab_hash;
  using T = ModeTraits<P::mode>;
  const auto& a = h.alloc;
  std::vector<uint8_t> reached(size_t{a.memory_blocks()} * kUnitsPerBlock, 0);
  auto allocated = [&a](uint32_t block, uint32_t u) { return (a.bitmaps[block * 32 + u / 32] >> (u % 32)) & 1u; };
  std::vector<uint32_t> keys;
  // The fixed multimap reuses no spot, so its lists keep the unique modes' prefix
  // property (slab_list.h).
  constexpr bool kPrefix = P::mode != Mode::Multimap || P::versioned;
  if (P::versioned && !h.versions) return std::string("the fixed multimap's view has no version words");
  if (h.versions)
    for (uint32_t b = 0; b < h.buckets(); ++b)
      if (h.versions[b] & 1u) return fmt::format("bucket {}: version {} is odd (a writer's hold never released)", b, h.versions[b]);
  for (uint32_t b = 0; b < h.buckets(); ++b) {
    keys.clear();  // the bucket's live keys so far (a few dozen: a linear search)
    bool empty_seen = false;
    uint32_t slab_index = 0;
    for (uint32_t next = kBaseSlab;; ++slab_index) {
      if (next != kBaseSlab) {
        const uint32_t block = a.block_of(next), u = next & 0x3FFu;
        if (block >= a.memory_blocks()) return fmt::format("bucket {}: slab address {:#x} is outside the pool", b, next);
        if (!allocated(block, u)) return fmt::format("bucket {}: slab {:#x} is on the list but free", b, next);
        if (reached[size_t{block} * kUnitsPerBlock + u]++) return fmt::format("slab {:#x} is reached twice", next);
      }
      const uint32_t* s = h.slab(b, next);
      for (uint32_t l = 0; l < 30; ++l) {
        if (!((T::kKeyLanes >> l) & 1u)) continue;
        const uint32_t k = s[l];
        if (k == kEmptyKey) {
          empty_seen = true;
          continue;
        }
        if (kPrefix && empty_seen)
          return fmt::format("bucket {} slab {} lane {}: key {} after an EMPTY spot (prefix property)", b, slab_index,
                             l, k);
        if (k == kDeletedKey) continue;
        if (h.hash(k) != b) return fmt::format("bucket {}: key {} belongs to bucket {}", b, k, h.hash(k));
        if (P::mode != Mode::Multimap && std::find(keys.begin(), keys.end(), k) != keys.end())
          return fmt::format("bucket {}: key {} lives twice", b, k);
        keys.push_back(k);
      }
      if (s[kAddressLane] == kEmptyPointer) break;
      next = s[kAddressLane];
    }
  }
  // Every free unit must be all-EMPTY. This runs after every simulated run, so the
  // free units of a block are compared a run of neighbours at a time, one memcmp
  // each (a unit's words are contiguous and so are a block's units): under ASan a
  // loop's every load is checked, and so is every memcmp's range, once.
  for (uint32_t block = 0; block < a.memory_blocks(); ++block) {
    uint32_t run = 0;  // the first free unit not yet compared
    for (uint32_t u = 0; u <= kUnitsPerBlock; ++u) {  // u == kUnitsPerBlock ends the last run
      if (u < kUnitsPerBlock && !allocated(block, u)) continue;
      if (run < u) {
        const uint32_t* first = a.unit(a.address_of(block, run));
        if (std::memcmp(first, empty_block(), size_t{u - run} * kSlabWords * sizeof(uint32_t)) != 0)
          for (uint32_t w = 0; w < (u - run) * kSlabWords; ++w)
            if (first[w] != kEmptyKey)
              return fmt::format("free slab {:#x} is not empty (lane {} holds {})",
                                 a.address_of(block, run + w / kSlabWords), w % kSlabWords, first[w]);
      }
      if (u < kUnitsPerBlock && !reached[size_t{block} * kUnitsPerBlock + u])
        return fmt::format("slab {:#x} is allocated but on no list (lost)", a.address_of(block, u));
      run = u + 1;
    }
  }
  return std::nullopt;
}

#define GPULIN_AT_REST(MODE, LIGHT, MUTANT, VARIANT)                                                      \
  template std::optional<std::string> slab_table_at_rest(                                               \
      const slab_hash::SlabHashView<slab_hash::SlabPolicy<slab_hash::MODE, LIGHT, slab_hash::MUTANT, \
                                                          slab_hash::VARIANT>>&);
#define GPULIN_AT_REST_MODE(MODE, VARIANT)                         \
  GPULIN_AT_REST(MODE, true, Mutant::None, VARIANT)                \
  GPULIN_AT_REST(MODE, false, Mutant::None, VARIANT)               \
  GPULIN_AT_REST(MODE, true, Mutant::SearchFirstSlab, VARIANT)     \
  GPULIN_AT_REST(MODE, false, Mutant::SearchFirstSlab, VARIANT)    \
  GPULIN_AT_REST(MODE, true, Mutant::InsertNoReread, VARIANT)      \
  GPULIN_AT_REST(MODE, false, Mutant::InsertNoReread, VARIANT)     \
  GPULIN_AT_REST(MODE, true, Mutant::LostNextCas, VARIANT)         \
  GPULIN_AT_REST(MODE, false, Mutant::LostNextCas, VARIANT)
GPULIN_AT_REST_MODE(Mode::Map, Variant::Paper)
GPULIN_AT_REST_MODE(Mode::Set, Variant::Paper)
GPULIN_AT_REST_MODE(Mode::Multimap, Variant::Paper)
GPULIN_AT_REST_MODE(Mode::Multimap, Variant::Fixed)

}  // namespace gpulin::explore
