// Maps arbitrary 64-bit ids (operation ids, actor ids) to dense indices.
// Histories from recorders number their operations 0..n-1, so a plain vector
// indexed by (id - min) is the common, fast case; sparse or huge id ranges (the
// simulator's runners number an actor's operations from actor << 20) fall back to
// an open-addressing table, one probe sequence in two flat arrays: the simulator
// builds an index per explored schedule, where a node-based hash map's allocation
// per id cost more than the rest of the conversion. Used by the rule checker and
// the writers, which look an id up once or twice per event of files with millions
// of events.
#pragma once

#include <cstdint>
#include <iterator>
#include <vector>

#include "histories/huge_pages.h"

namespace gpulin {

class IdIndex {
 public:
  static constexpr uint32_t kAbsent = UINT32_MAX;

  // min_id..max_id bound every id that will be inserted; `count` is about how
  // many there will be (it decides between the vector and the table, and sizes them).
  IdIndex(int64_t min_id, int64_t max_id, size_t count) : min_(min_id) {
    const uint64_t range = static_cast<uint64_t>(max_id) - static_cast<uint64_t>(min_id);
    dense_ = min_id <= max_id && range < 4 * static_cast<uint64_t>(count) + 1024;
    if (dense_) assign_huge(slots_, range + 1, kAbsent);
    else size_table(count);
  }

  uint32_t find(int64_t id) const {
    if (dense_) {
      const uint64_t off = static_cast<uint64_t>(id) - static_cast<uint64_t>(min_);
      return off < slots_.size() ? slots_[off] : kAbsent;
    }
    for (size_t i = home(id);; i = (i + 1) & mask_) {
      if (slots_[i] == kAbsent) return kAbsent;
      if (ids_[i] == id) return slots_[i];
    }
  }

  // Sets the index of `id` (which must lie in the bounds given; the index is never
  // kAbsent).
  void set(int64_t id, uint32_t index) {
    if (dense_) {
      slots_[static_cast<uint64_t>(id) - static_cast<uint64_t>(min_)] = index;
      return;
    }
    if (2 * (used_ + 1) > slots_.size()) grow();
    put(id, index);
  }

 private:
  // A multiplicative hash: ids that differ in their high bits (actor << 20) spread.
  size_t home(int64_t id) const { return static_cast<size_t>((static_cast<uint64_t>(id) * 0x9e3779b97f4a7c15ull) >> shift_); }
  void size_table(size_t count) {
    size_t cap = 16;
    shift_ = 60;
    while (cap < 2 * count) cap <<= 1, --shift_;
    mask_ = cap - 1;
    ids_.assign(cap, 0);
    slots_.assign(cap, kAbsent);
    used_ = 0;
  }
  void put(int64_t id, uint32_t index) {
    for (size_t i = home(id);; i = (i + 1) & mask_) {
      if (slots_[i] == kAbsent) {
        ids_[i] = id;
        slots_[i] = index;
        ++used_;
        return;
      }
      if (ids_[i] == id) {
        slots_[i] = index;
        return;
      }
    }
  }
  // More ids than the count given: twice the room, every id placed again.
  void grow() {
    std::vector<int64_t> ids = std::move(ids_);
    std::vector<uint32_t> slots = std::move(slots_);
    size_table(slots.size());
    for (size_t i = 0; i < slots.size(); ++i)
      if (slots[i] != kAbsent) put(ids[i], slots[i]);
  }

  int64_t min_;
  bool dense_ = false;
  std::vector<uint32_t> slots_;  // dense: by id - min; the table: by probe position
  std::vector<int64_t> ids_;     // the table's ids, where its slot is not kAbsent
  size_t mask_ = 0, used_ = 0;
  unsigned shift_ = 60;
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
