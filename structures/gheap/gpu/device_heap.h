// The heap's memory on the GPU: allocates what a HeapView points into, resets it,
// and reads it back for the invariant check. Plain C++ (the CUDA calls are in
// device_heap.cu), so host code includes it without nvcc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "structures/gheap/config.h"
#include "structures/gheap/heap_image.h"
#include "structures/gheap/lock_value.h"

namespace gpulin::gheap {

// Built for the key types of the GPU kernels, uint32_t and uint64_t
// (device_heap.cu).
template <class Key = uint32_t>
class DeviceHeap {
 public:
  // Room for `max_full_nodes` nodes in fill order (heap_capacity_for).
  // Throws std::runtime_error when the GPU has no room.
  DeviceHeap(uint32_t k, uint64_t max_full_nodes);
  ~DeviceHeap();
  DeviceHeap(const DeviceHeap&) = delete;
  DeviceHeap& operator=(const DeviceHeap&) = delete;

  HeapMemory<Key> memory() const;
  template <class P>
  HeapView<Key, P> view() const {
    return view_as<P>(memory());
  }
  void reset();                 // empty heap: every node AVAIL and MAX_VALUE
  HeapImage<Key> download() const;  // synchronous
  uint32_t lastelem() const;    // synchronous
  uint32_t k() const { return k_; }
  uint32_t capacity() const { return capacity_; }
  size_t bytes() const;
  // The GPU watchdog's name for a word a block waited on (cuda/watchdog_host.h):
  // "the lock of node N" for the heap's lock words; empty when not the heap's.
  std::string word_name(uint64_t address) const {
    const uint64_t node = lock_node(address);
    return node == kNotALock ? std::string() : "the lock of node " + std::to_string(node);
  }
  // What such a word's value means (lock_value.h: the root's counts its holds in
  // a recording run); empty where the number says it.
  std::string value_name(uint64_t address, uint32_t value) const {
    const uint64_t node = lock_node(address);
    return node == kNotALock ? std::string() : lock_value_text(static_cast<uint32_t>(node), value);
  }

 private:
  // The node whose lock word is at `address`, or kNotALock.
  static constexpr uint64_t kNotALock = ~uint64_t{0};
  uint64_t lock_node(uint64_t address) const {
    const uint64_t base = reinterpret_cast<uint64_t>(state_);
    if (address < base || address >= base + 4 * (uint64_t{capacity_} + 1) || (address - base) % 4) return kNotALock;
    return (address - base) / 4;
  }
  uint32_t k_;
  uint32_t capacity_;
  uint32_t* state_ = nullptr;
  Key* keys_ = nullptr;
  uint32_t* scalars_ = nullptr;  // [0] lastelem, [1] psize
  Key* pbuffer_ = nullptr;
};
extern template class DeviceHeap<uint32_t>;
extern template class DeviceHeap<uint64_t>;

}  // namespace gpulin::gheap
