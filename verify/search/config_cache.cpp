#include "verify/search/config_cache.h"

#include <algorithm>
#include <cstring>

#include "verify/model.h"

namespace gpulin {

ConfigCache::ConfigCache(size_t words_per_set) : words_(words_per_set), slots_(64) {}

bool ConfigCache::insert(uint64_t set_hash, const std::vector<uint64_t>& bits, uint32_t state) {
  uint32_t lo = 0, hi = static_cast<uint32_t>(words_);
  while (lo < hi && bits[lo] == ~uint64_t{0}) ++lo;
  while (hi > lo && bits[hi - 1] == 0) --hi;
  const uint32_t len = hi - lo;
  const uint64_t h = set_hash ^ mix64(state);
  const size_t mask = slots_.size() - 1;
  size_t i = h & mask;
  for (; slots_[i].state != kEmpty; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.hash == h && s.state == state && s.lo == lo && s.len == len &&
        std::memcmp(arena_.data() + s.offset, bits.data() + lo, len * sizeof(uint64_t)) == 0)
      return false;
  }
  slots_[i] = Slot{h, arena_.size(), state, lo, len};
  arena_.insert(arena_.end(), bits.begin() + lo, bits.begin() + hi);
  if (++count_ * 2 > slots_.size()) grow();
  return true;
}

void ConfigCache::grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  const size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.state == kEmpty) continue;
    size_t i = s.hash & mask;
    while (slots_[i].state != kEmpty) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

}  // namespace gpulin
