// The heap's memory on the host (for the simulator and CPU tests): owns the arrays a
// HeapView points into, and reads the heap back as plain batches.
#pragma once

#include <cstdint>
#include <algorithm>
#include <vector>

#include "structures/gheap/bit_reversal.h"
#include "structures/gheap/config.h"
#include "structures/gheap/heap_image.h"

namespace gpulin::gheap {

// The memory is a HeapImage itself, so the checks of a heap at rest read it in
// place (the simulator runs them at every quiescent point).
class HostHeap {
 public:
  // Room for `max_full_nodes` nodes in fill order; the arrays cover whole levels
  // because bit reversal spreads a level's nodes over all of it.
  HostHeap(uint32_t k, uint32_t max_full_nodes) {
    const uint32_t levels = floor_log2(max_full_nodes < 1 ? 1 : max_full_nodes) + 1;
    m_.k = k;
    m_.capacity = (1u << levels) - 1;
    m_.state.assign(m_.capacity + 1, AVAIL);
    m_.keys.assign(static_cast<size_t>(m_.capacity + 1) * k, KeyLimits<uint32_t>::max_value);
    m_.pbuffer.assign(k, KeyLimits<uint32_t>::max_value);
  }

  HeapView<uint32_t> view(Variant v, Mutant m) {
    HeapView<uint32_t> h;
    h.k = m_.k;
    h.capacity = m_.capacity;
    h.state = m_.state.data();
    h.keys = m_.keys.data();
    h.lastelem = &m_.lastelem;
    h.psize = &m_.psize;
    h.pbuffer = m_.pbuffer.data();
    h.variant = v;
    h.mutant = m;
    return h;
  }

  void reset() {
    std::fill(m_.state.begin(), m_.state.end(), AVAIL);
    std::fill(m_.keys.begin(), m_.keys.end(), KeyLimits<uint32_t>::max_value);
    m_.lastelem = 0;
    m_.psize = 0;
  }

  uint32_t k() const { return m_.k; }
  uint32_t capacity() const { return m_.capacity; }
  const HeapImage& image() const { return m_; }

 private:
  HeapImage m_;
};

}  // namespace gpulin::gheap
