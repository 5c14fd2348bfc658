// The P-Sync parallel heap's memory as the update processes see it (§III-A, §IV-C):
// nodes of r sorted keys, node i (1-based) with children 2i and 2i + 1; the insert
// buffers (one per insert-update process slot, the keys it carries down); the
// delete table (one word per delete-update process slot: the node it works on
// next, 0 once it is done); the new keys of a cycle (sorted by the controller) and
// the r keys a cycle hands to the application; each actor's private scratch.
//
// Which node holds how many keys is the controller's bookkeeping (psync_plan.h):
// the arrived keys fill slots [0, arrived_end) in node order, so a node's fill
// follows from one number, passed with each step.
#pragma once

#include <cstdint>

#include "common/host_device.h"

namespace gpulin::psync {

// Scratch keys per actor: a delete-update's three nodes (3r), the children merged
// (2r) and the three merged (3r).
inline constexpr uint32_t kScratchPerR = 8;

template <class Key>
struct View {
  uint32_t r = 0;
  uint32_t max_nodes = 0;
  Key* nodes = nullptr;
  Key* insert_buffers = nullptr;  // slot s: r keys at insert_buffers + s * r
  // Read and written relaxed: each step is a kernel of its own (one grid-wide
  // barrier in the simulator), and within a step no two actors touch one slot, so
  // the kernel boundary orders every access (`gpulin ablate --structure psync`
  // shows no ordering needed here).
  uint32_t* delete_table = nullptr;
  Key* new_keys = nullptr;        // 2r at RootTask::new_offset
  Key* out = nullptr;             // r at RootTask::out_offset (a cycle's or a ring's place)
  Key* scratch = nullptr;         // kScratchPerR * r per actor

  GPULIN_HD Key* node(uint32_t i) const { return nodes + static_cast<uint64_t>(i - 1) * r; }
  GPULIN_HD Key* insert_buffer(uint32_t slot) const { return insert_buffers + static_cast<uint64_t>(slot) * r; }
  GPULIN_HD Key* scratch_of(uint32_t actor) const { return scratch + static_cast<uint64_t>(actor) * kScratchPerR * r; }
  // Keys at node i when the arrived keys fill slots [0, arrived_end).
  GPULIN_HD uint32_t fill(uint32_t i, uint64_t arrived_end) const {
    const uint64_t first = static_cast<uint64_t>(i - 1) * r;
    if (arrived_end <= first) return 0;
    const uint64_t n = arrived_end - first;
    return n > r ? r : static_cast<uint32_t>(n);
  }
};

// Level of node i (the root's is 0).
GPULIN_HD inline uint32_t node_level(uint32_t node) {
#ifdef __CUDA_ARCH__
  return 31u - static_cast<uint32_t>(__clz(node));
#else
  return 31u - static_cast<uint32_t>(__builtin_clz(node));
#endif
}

}  // namespace gpulin::psync
