// An open-addressing hash table from 64-bit keys to 64-bit values, for the
// search's hot lookups (state interning, the transition memo): one allocation,
// no per-entry nodes, linear probing kept at most half full (most lookups of
// the memo miss, and a miss probes to the next empty slot). Keys may repeat (a
// multimap), which is how states with equal hashes are kept; the caller tells
// them apart. The key ~0 is taken as ~0 - 1: callers either use hashes, where
// that only adds a collision, or keys that never reach it.
#pragma once

#include <cstdint>
#include <vector>

#include "verify/model.h"

namespace gpulin {

class FlatTable {
 public:
  FlatTable() : slots_(16) {}

  // Calls f(value) for each entry with this key until f returns true; returns
  // whether one did.
  template <class F>
  bool find_if(uint64_t key, F f) const {
    const size_t mask = slots_.size() - 1;
    key = fold(key);
    for (size_t i = mix64(key) & mask; slots_[i].key != kEmpty; i = (i + 1) & mask)
      if (slots_[i].key == key && f(slots_[i].value)) return true;
    return false;
  }
  // The value of the first entry with this key, or `absent`.
  uint64_t find(uint64_t key, uint64_t absent) const {
    uint64_t out = absent;
    find_if(key, [&](uint64_t v) { out = v; return true; });
    return out;
  }
  void insert(uint64_t key, uint64_t value) {
    if ((count_ + 1) * 2 > slots_.size()) grow();
    place(fold(key), value);
    ++count_;
  }
  size_t size() const { return count_; }
  size_t bytes() const { return slots_.capacity() * sizeof(Slot); }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  struct Slot {
    uint64_t key = kEmpty;
    uint64_t value = 0;
  };
  static uint64_t fold(uint64_t key) { return key == kEmpty ? kEmpty - 1 : key; }
  void place(uint64_t key, uint64_t value) {
    const size_t mask = slots_.size() - 1;
    size_t i = mix64(key) & mask;
    while (slots_[i].key != kEmpty) i = (i + 1) & mask;
    slots_[i] = Slot{key, value};
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Slot& s : old)
      if (s.key != kEmpty) place(s.key, s.value);
  }

  std::vector<Slot> slots_;
  size_t count_ = 0;
};

}  // namespace gpulin
