// SeqHeap, the P-Sync paper's sequential baseline (§V-B): a binary min-heap on the
// host whose consecutive insert and delete-min combine into one insert-delete (the
// new key replaces the top and sifts down once). Run under the same relaxed hold
// workload as the parallel heap: the smallest key is taken, thought about, and
// replaced by its 0, 1 or 2 new keys.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/psync/think_time.h"

namespace gpulin::psync_bench {

class SeqHeap {
 public:
  explicit SeqHeap(std::vector<uint32_t> keys) : a_(std::move(keys)) {
    for (size_t i = a_.size() / 2; i-- > 0;) sift_down(i);
  }
  size_t size() const { return a_.size(); }

  // Processes `items` keys: counts[i] new keys for the i-th one. Returns the
  // checksum of the think results (kept, so the work is not optimised away) and
  // the keys in the order handed out go to `out` when it is not null.
  uint64_t hold(uint64_t items, const uint8_t* counts, uint32_t t, std::vector<uint32_t>* out = nullptr) {
    uint64_t sum = 0;
    for (uint64_t i = 0; i < items && !a_.empty(); ++i) {
      const uint32_t key = a_[0];
      if (out) out->push_back(key);
      const uint32_t v = think(key, t);
      sum += v;
      if (counts[i] == 0) {
        a_[0] = a_.back();
        a_.pop_back();
        if (!a_.empty()) sift_down(0);
        continue;
      }
      a_[0] = next_key(key, v, 0);  // the combined insert-delete
      sift_down(0);
      if (counts[i] == 2) push(next_key(key, v, 1));
    }
    return sum;
  }

 private:
  void sift_down(size_t i) {
    const size_t n = a_.size();
    const uint32_t x = a_[i];
    for (;;) {
      size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && a_[c + 1] < a_[c]) ++c;
      if (!(a_[c] < x)) break;
      a_[i] = a_[c];
      i = c;
    }
    a_[i] = x;
  }
  void push(uint32_t x) {
    size_t i = a_.size();
    a_.push_back(x);
    while (i > 0 && x < a_[(i - 1) / 2]) {
      a_[i] = a_[(i - 1) / 2];
      i = (i - 1) / 2;
    }
    a_[i] = x;
  }
  std::vector<uint32_t> a_;
};

}  // namespace gpulin::psync_bench
