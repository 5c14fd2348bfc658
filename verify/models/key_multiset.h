// The state of the priority-queue models (pq-batch, pq, psync-pq): a multiset of
// integer keys kept as a binary min-heap, so the witness replay of millions of
// operations costs O(log n) a key, with an order-independent hash kept up to date
// on the way for the search.
#pragma once

#include <cstdint>
#include <vector>

#include "verify/model.h"

namespace gpulin {

class KeyMultiset final : public ModelState {
 public:
  void insert(int64_t key);
  // Removes the min(n, size()) smallest keys and appends them, ascending, to out.
  void pop_smallest(size_t n, std::vector<int64_t>& out);
  // The min(n, size()) smallest keys, ascending, left in place (for reports).
  std::vector<int64_t> smallest(size_t n) const;
  size_t size() const { return heap_.size(); }

  std::unique_ptr<ModelState> clone() const override { return std::make_unique<KeyMultiset>(*this); }
  size_t hash() const override { return sum_ ^ mix64(heap_.size()); }
  bool equals(const ModelState& other) const override;
  std::string describe() const override;
  size_t bytes() const override { return sizeof(*this) + heap_.capacity() * sizeof(int64_t); }

 private:
  std::vector<int64_t> heap_;  // a min-heap (std::greater)
  uint64_t sum_ = 0;           // sum of mix64(key): the multiset's hash
};

// Whether two integer arrays have a key in common (a pq op that inserted a key
// another returned).
bool shares_a_key(const Value& a, const Value& b);

// Pops the min(want, size) smallest keys of s and compares them with `expected`
// (an ascending int array). On a mismatch, puts them back and returns false.
bool pop_and_compare(KeyMultiset& s, size_t want, const Value& expected);

}  // namespace gpulin
