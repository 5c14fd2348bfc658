// The heap's memory on the host (for the simulator and CPU tests): owns the arrays a
// HeapView points into, and reads the heap back as plain batches.
#pragma once

#include <cstdint>
#include <vector>

#include "structures/gheap/bit_reversal.h"
#include "structures/gheap/config.h"

namespace gpulin::gheap {

template <class Key>
class HostHeap {
 public:
  // Room for `max_full_nodes` nodes in fill order; the arrays cover whole levels
  // because bit reversal spreads a level's nodes over all of it.
  HostHeap(uint32_t k, uint32_t max_full_nodes) : k_(k) {
    uint32_t levels = floor_log2(max_full_nodes < 1 ? 1 : max_full_nodes) + 1;
    capacity_ = (1u << levels) - 1;
    state_.assign(capacity_ + 1, AVAIL);
    keys_.assign(static_cast<size_t>(capacity_ + 1) * k, KeyLimits<Key>::max_value);
    pbuffer_.assign(k, KeyLimits<Key>::max_value);
  }

  HeapView<Key> view(Variant v, Mutant m) {
    HeapView<Key> h;
    h.k = k_;
    h.capacity = capacity_;
    h.state = state_.data();
    h.keys = keys_.data();
    h.lastelem = &lastelem_;
    h.psize = &psize_;
    h.pbuffer = pbuffer_.data();
    h.variant = v;
    h.mutant = m;
    return h;
  }

  void reset() {
    std::fill(state_.begin(), state_.end(), AVAIL);
    std::fill(keys_.begin(), keys_.end(), KeyLimits<Key>::max_value);
    lastelem_ = 0;
    psize_ = 0;
  }

  uint32_t k() const { return k_; }
  uint32_t capacity() const { return capacity_; }
  uint32_t lastelem() const { return lastelem_; }
  uint32_t psize() const { return psize_; }
  const Key* node(uint32_t x) const { return keys_.data() + static_cast<size_t>(x) * k_; }
  uint32_t state(uint32_t x) const { return state_[x]; }
  const Key* pbuffer() const { return pbuffer_.data(); }

 private:
  uint32_t k_;
  uint32_t capacity_;
  std::vector<uint32_t> state_;
  std::vector<Key> keys_;
  std::vector<Key> pbuffer_;
  uint32_t lastelem_ = 0;
  uint32_t psize_ = 0;
};

}  // namespace gpulin::gheap
