// The heap's memory on the host (for the simulator and CPU tests): owns the arrays a
// HeapView points into, and reads the heap back as plain batches.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "structures/gheap/bit_reversal.h"
#include "structures/gheap/config.h"
#include "structures/gheap/heap_image.h"

namespace gpulin::gheap {

// The memory is a HeapImage itself, so the checks of a heap at rest read it in
// place (the simulator runs them at every quiescent point).
template <class Key = uint32_t>
class HostHeap {
 public:
  // Room for `max_full_nodes` nodes in fill order (heap_capacity_for).
  HostHeap(uint32_t k, uint64_t max_full_nodes) { reshape(k, max_full_nodes); }
  // The same as a new heap of this shape, reusing the memory held (the simulator
  // makes one per run).
  void reshape(uint32_t k, uint64_t max_full_nodes) {
    m_.k = k;
    m_.capacity = heap_capacity_for(max_full_nodes);
    if (m_.capacity == 0) throw std::runtime_error("HostHeap: too many nodes");
    m_.state.resize(m_.capacity + 1);
    m_.keys.resize(static_cast<size_t>(m_.capacity + 1) * k);
    m_.pbuffer.resize(k);
    reset();
  }

  HeapMemory<Key> memory() {
    return {m_.k, m_.capacity, m_.state.data(), m_.keys.data(), &m_.lastelem, &m_.psize, m_.pbuffer.data()};
  }
  template <class P>
  HeapView<Key, P> view() {
    return view_as<P>(memory());
  }

  void reset() {
    reset_heap(memory(), [](auto* p, uint64_t n, auto v) { std::fill_n(p, n, v); });
  }

  uint32_t k() const { return m_.k; }
  uint32_t capacity() const { return m_.capacity; }
  const HeapImage<Key>& image() const { return m_; }

 private:
  HeapImage<Key> m_;
};

}  // namespace gpulin::gheap
