// The search's memo of configurations already explored: (set of linearized
// operations, model state). Reaching one again cannot lead anywhere new, which is
// what makes Lowe's search practical.
//
// The set comes with a hash kept by the caller (an XOR of per-operation random
// words, updated in O(1) per step). Sets are stored trimmed: the leading words
// that are all ones and the trailing words that are zero are implied, since the
// linearized operations are mostly a prefix of the history plus a window.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpulin {

class ConfigCache {
 public:
  explicit ConfigCache(size_t words_per_set);
  // Adds (bits, state); false when it was already there.
  bool insert(uint64_t set_hash, const std::vector<uint64_t>& bits, uint32_t state);
  size_t size() const { return count_; }
  size_t bytes() const { return slots_.capacity() * sizeof(Slot) + arena_.capacity() * sizeof(uint64_t); }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  struct Slot {
    uint64_t hash;
    uint64_t offset;  // of the stored words in arena_
    uint32_t state = kEmpty;
    uint32_t lo;      // first stored word; those before it are all ones
    uint32_t len;     // stored words; those after are zero
  };
  void grow();

  size_t words_;
  std::vector<Slot> slots_;  // open addressing, linear probing, power-of-two size
  std::vector<uint64_t> arena_;
  size_t count_ = 0;
};

}  // namespace gpulin
