// What the host controller (psync_plan.h) hands each step of a delete-insert cycle
// (§III-B, §IV-B): plain values, passed to a kernel by value or to a simulated
// actor, never changed while the step runs.
#pragma once

#include <cstdint>

namespace gpulin::psync {

// At most two insert-update processes start in a cycle (§III-B: k > r and the
// last node has no room for the k - r keys), so at most two are on one level.
inline constexpr uint32_t kMaxInsertsPerLevel = 2;
// Chunks one refill launch takes (more are split over several launches).
inline constexpr uint32_t kRefillChunks = 16;
// Levels one step may work on (a heap of up to 2^40 nodes).
inline constexpr uint32_t kMaxLevels = 40;

// Step 1: the cycle's k new keys (in View::new_keys, sorted) merged with the
// root's keys; the first out_count to the application, the next root_keep stay
// at the root, the rest start the new insert-update processes in order.
struct RootTask {
  uint32_t k = 0;
  uint32_t root_fill = 0;
  uint32_t out_count = 0;
  uint32_t root_keep = 0;
  uint32_t spawned = 0;                         // insert-update processes started
  uint32_t spawn_slot[kMaxInsertsPerLevel] = {};
  uint32_t spawn_count[kMaxInsertsPerLevel] = {};
  uint32_t delete_slot = 0;                     // the delete-update process started at the root
  int64_t op = 0;                               // the cycle's operation id
  uint64_t new_offset = 0;                      // the new keys are at View::new_keys + new_offset
  uint64_t out_offset = 0;                      // the keys handed out go to View::out + out_offset
};

// Step 1 with too few new keys (§III-B, §IV-C): the root takes r - k more keys from
// the insert buffer's newest processes, then from the end of the heap. A chunk is
// `count` keys of one source starting at `from` (its last keys).
struct RefillChunk {
  uint32_t from_buffer = 0;  // 1: insert buffer slot `index`; 0: node `index`
  uint32_t index = 0;
  uint32_t from = 0;
  uint32_t count = 0;
};
struct RefillTask {
  uint32_t root_fill = 0;  // keys at the root before this launch
  uint32_t chunks = 0;
  RefillChunk chunk[kRefillChunks] = {};
};

// One insert-update process's work on one level: merge its keys with `node`'s,
// the node keeping the smallest; at its target (`arrives`) the keys join the
// node's `fill` keys there.
struct InsertStep {
  uint32_t slot = 0;
  uint32_t node = 0;
  uint32_t count = 0;
  uint32_t fill = 0;  // keys at the node (r on the way; the target's so far)
  uint32_t arrives = 0;
};

// The processes one level's actor runs in a step: its insert-update processes,
// then its delete-update process (inserts first: a delete-update that merges a
// node with its children sees the keys an insert left there).
struct LevelTask {
  uint32_t level = 0;
  uint32_t inserts = 0;
  InsertStep insert[kMaxInsertsPerLevel] = {};
  uint32_t has_delete = 0;
  uint32_t delete_slot = 0;
};

// Step 2 (even levels) or 3 (odd levels) of a cycle: every level with work, and
// where the arrived keys end once this step's inserts arrived.
struct StepTasks {
  uint32_t levels = 0;
  LevelTask level[kMaxLevels] = {};
  uint64_t arrived_end = 0;
};

}  // namespace gpulin::psync
