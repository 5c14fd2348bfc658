// The parallel heap property (P-Sync heap §III-A) on a snapshot of the nodes: every
// node's keys sorted, and no key of a node larger than a key of its children -
// except at the nodes where a delete-update process is still at work (between
// steps its node may hold keys larger than its children's until it moves on).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpulin::explore {

// `nodes`: node i's keys at [(i - 1) r, i r); the first arrived_end slots hold
// keys. `working`: nodes exempt from the parent-child order (live delete-updates).
std::optional<std::string> psync_heap_property(const uint32_t* nodes, uint32_t r, uint64_t arrived_end,
                                               const std::vector<uint32_t>& working);

}  // namespace gpulin::explore
