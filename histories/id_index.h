// Maps arbitrary 64-bit ids (operation ids, actor ids) to dense indices.
// Histories from recorders number their operations 0..n-1, so a plain vector
// indexed by (id - min) is the common, fast case; sparse or huge id ranges fall
// back to a hash map. Used by the rule checker and the writers, which look an
// id up once or twice per event of files with millions of events.
#pragma once

#include <cstdint>
#include <iterator>
#include <unordered_map>
#include <vector>

#include "histories/huge_pages.h"

namespace gpulin {

class IdIndex {
 public:
  static constexpr uint32_t kAbsent = UINT32_MAX;

  // min_id..max_id bound every id that will be inserted; `count` is about how
  // many there will be (it decides between the vector and the hash map).
  IdIndex(int64_t min_id, int64_t max_id, size_t count) : min_(min_id) {
    const uint64_t range = static_cast<uint64_t>(max_id) - static_cast<uint64_t>(min_id);
    dense_ = min_id <= max_id && range < 4 * static_cast<uint64_t>(count) + 1024;
    if (dense_) assign_huge(slots_, range + 1, kAbsent);
    else map_.reserve(count);
  }

  uint32_t find(int64_t id) const {
    if (dense_) {
      const uint64_t off = static_cast<uint64_t>(id) - static_cast<uint64_t>(min_);
      return off < slots_.size() ? slots_[off] : kAbsent;
    }
    auto it = map_.find(id);
    return it == map_.end() ? kAbsent : it->second;
  }

  // Sets the index of `id` (which must lie in the bounds given).
  void set(int64_t id, uint32_t index) {
    if (dense_) slots_[static_cast<uint64_t>(id) - static_cast<uint64_t>(min_)] = index;
    else map_[id] = index;
  }

 private:
  int64_t min_;
  bool dense_ = false;
  std::vector<uint32_t> slots_;
  std::unordered_map<int64_t, uint32_t> map_;
};

// An index over the ids of a range's elements: index_ids(h.ops, [](auto& op) { return op.id; }).
// With `fill`, element i is entered as index i; without, the map starts empty.
template <class Range, class GetId>
IdIndex index_ids(const Range& items, GetId id_of, bool fill = true) {
  int64_t lo = 0, hi = -1;
  bool first = true;
  for (const auto& x : items) {
    const int64_t id = id_of(x);
    if (first || id < lo) lo = id;
    if (first || id > hi) hi = id;
    first = false;
  }
  IdIndex index(lo, hi, std::size(items));
  if (fill) {
    uint32_t i = 0;
    for (const auto& x : items) index.set(id_of(x), i++);
  }
  return index;
}

}  // namespace gpulin
