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

// The workload `spec` (workload_shape.h says what each name means) with its keys
// (workload_keys.h's stream of `seed`) drawn on the host: the reference that
// device_workload.h's draw on the GPU is tested against. Throws
// std::invalid_argument for an unknown name. Built for uint32_t and uint64_t keys.
template <class Key>
Workload<Key> make_workload(const std::string& spec, uint64_t keys, uint32_t k, uint32_t blocks, uint64_t seed);

}  // namespace gpulin::stress
