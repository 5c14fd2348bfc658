// GPU stress workloads for the heap (gpulin stress --workload ...): phases of
// operations, each phase one kernel launch in which thread blocks take operations
// round-robin.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/stress/workload_shape.h"

namespace gpulin::stress {

struct Phase {
  std::string name;
  std::vector<uint32_t> fn;    // gheap::kFnIns / kFnDel
  std::vector<uint32_t> n;     // keys of an insert
  std::vector<uint32_t> keys;  // [ops * k], insert keys (unused slots MAX)
  uint64_t inserted_keys = 0;
};

struct Workload {
  std::vector<Phase> phases;
  uint64_t total_inserts = 0;  // operations: sizes the heap
};

// The workload `spec` (workload_shape.h says what each name means) with its keys
// drawn on the host from `seed`. Throws std::invalid_argument for an unknown name.
Workload make_workload(const std::string& spec, uint64_t keys, uint32_t k, uint32_t blocks, uint64_t seed);

}  // namespace gpulin::stress
