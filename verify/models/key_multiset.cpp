#include "verify/models/key_multiset.h"

#include <algorithm>
#include <functional>

namespace gpulin {

void KeyMultiset::insert(int64_t key) {
  heap_.push_back(key);
  std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
  sum_ += mix64(static_cast<uint64_t>(key));
}

void KeyMultiset::pop_smallest(size_t n, std::vector<int64_t>& out) {
  n = std::min(n, heap_.size());
  for (size_t i = 0; i < n; ++i) {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    out.push_back(heap_.back());
    sum_ -= mix64(static_cast<uint64_t>(heap_.back()));
    heap_.pop_back();
  }
}

std::vector<int64_t> KeyMultiset::smallest(size_t n) const {
  std::vector<int64_t> out(std::min(n, heap_.size()));
  std::partial_sort_copy(heap_.begin(), heap_.end(), out.begin(), out.end());
  return out;
}

bool KeyMultiset::equals(const ModelState& other) const {
  const auto& o = static_cast<const KeyMultiset&>(other);
  if (heap_.size() != o.heap_.size() || sum_ != o.sum_) return false;
  // Two heaps of one multiset may be laid out differently: compare sorted.
  std::vector<int64_t> a = heap_, b = o.heap_;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

std::string KeyMultiset::describe() const {
  constexpr size_t kShown = 32;
  std::vector<int64_t> keys = smallest(kShown);
  std::string s = "{";
  for (size_t i = 0; i < keys.size(); ++i) {
    s += i ? "," : "";
    s += std::to_string(keys[i]);
  }
  if (heap_.size() > kShown) s += ",... (" + std::to_string(heap_.size()) + " keys)";
  return s + "}";
}

bool shares_a_key(const Value& a, const Value& b) {
  for (const Value& x : a.as_array())
    for (const Value& y : b.as_array())
      if (x.as_int() == y.as_int()) return true;
  return false;
}

bool pop_and_compare(KeyMultiset& s, size_t want, const Value& expected) {
  thread_local std::vector<int64_t> popped;  // no allocation per operation
  popped.clear();
  s.pop_smallest(want, popped);
  const auto& exp = expected.as_array();
  bool same = exp.size() == popped.size();
  for (size_t i = 0; same && i < popped.size(); ++i) same = exp[i].as_int() == popped[i];
  if (!same)
    for (int64_t k : popped) s.insert(k);
  return same;
}

}  // namespace gpulin
