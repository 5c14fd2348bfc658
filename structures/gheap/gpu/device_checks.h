// The checks of a GPU stress run that need no history, on the GPU (issue:
// checking at GPU scale): every deleted batch at most k keys and ascending; keys
// conserved (inserted = deleted + left in the heap, as multisets: CUB radix sorts,
// then one compare); the heap at rest (no lock held, empty nodes empty,
// properties 1-3 of §3.1) by a kernel over the nodes. The host versions
// (explore::check_heap_at_rest, the host sort) stay for `--check host`.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "structures/gheap/config.h"

namespace gpulin::stress {

// `Key`: the heap's key type; built for uint32_t and uint64_t (device_checks.cu).
template <class Key>
class DeviceConservation {
 public:
  // Room for `max_keys` inserted keys and as many taken out.
  explicit DeviceConservation(uint64_t max_keys);
  ~DeviceConservation();
  DeviceConservation(const DeviceConservation&) = delete;
  DeviceConservation& operator=(const DeviceConservation&) = delete;

  // After a phase: its inserts' keys (fn, n, keys as uploaded, k slots each) and
  // its deletes' outputs (out, out_n). Deleted batches over k or not ascending
  // are counted. Device pointers; asynchronous.
  void add_phase(const uint32_t* fn, const uint32_t* n, const Key* keys, const Key* out, const uint32_t* out_n,
                 uint64_t ops, uint32_t k);
  // The heap's keys at rest join the "taken out" side; then both sides are sorted
  // and compared. Failures in words, empty when everything holds.
  std::vector<std::string> finish(const gheap::HeapMemory<Key>& heap);

  uint64_t inserted() const { return inserted_; }
  uint64_t deleted() const { return deleted_; }

 private:
  struct Buffers;
  std::unique_ptr<Buffers> b_;
  uint64_t inserted_ = 0, deleted_ = 0;
};

// The heap at rest, checked on the GPU; nullopt when it holds. Built for uint32_t
// and uint64_t keys.
template <class Key>
std::optional<std::string> check_device_heap_at_rest(const gheap::HeapMemory<Key>& heap);

}  // namespace gpulin::stress
