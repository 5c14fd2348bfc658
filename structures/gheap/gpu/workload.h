// GPU stress workloads for the heap (gpulin stress --workload ...): phases of
// operations, each phase one kernel launch in which thread blocks take operations
// round-robin.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "structures/gheap/gpu/workload_shape.h"

namespace gpulin::stress {

// `Key`: the heap's key type, uint32_t or uint64_t (gpulin stress --key-bits).
template <class Key>
struct Phase {
  std::string name;
  std::vector<uint32_t> fn;    // gheap::kFnIns / kFnDel
  std::vector<uint32_t> n;     // keys of an insert
  std::vector<Key> keys;       // [ops * k], insert keys (unused slots MAX)
  uint64_t inserted_keys = 0;
};

template <class Key>
struct Workload {
  std::vector<Phase<Key>> phases;
  uint64_t total_inserts = 0;  // operations: sizes the heap
};

// Keys are drawn uniformly below workload_key_bound<Key>: 32-bit keys from
// [0, 2^32 - 2) (MAX_VALUE marks empty slots); 64-bit keys from [0, 2^63), the
// whole range of a history integer (history-format.md: signed 64-bit), so that a
// key narrowed anywhere on the way (heap, recorder, checks) changes its value.
template <class Key>
constexpr uint64_t workload_key_bound = sizeof(Key) == 4 ? uint64_t{0xfffffffeu} : uint64_t{1} << 63;

// The workload `spec` (workload_shape.h says what each name means) with its keys
// drawn on the host from `seed`. Throws std::invalid_argument for an unknown name.
// Built for uint32_t and uint64_t keys.
template <class Key>
Workload<Key> make_workload(const std::string& spec, uint64_t keys, uint32_t k, uint32_t blocks, uint64_t seed);

}  // namespace gpulin::stress
