// Step 1 of a delete-insert cycle (§III-B 1): the k new keys merged with the r keys
// at the root; the r smallest go to the application, the next r stay at the root,
// the rest start insert-update processes (two when they span two nodes). The
// cycle is one operation of the psync-pq model: recorded from before the root is
// read to after its r smallest are known, its linearization point the store that
// hands them to the application.
#pragma once

#include <cstdint>

#include "structures/exec/memory_order.h"
#include "structures/merge_path/block_merge.h"
#include "structures/psync/psync_tasks.h"
#include "structures/psync/psync_view.h"

namespace gpulin::psync {

inline constexpr uint32_t kFnCycle = 0;

// The special cases of step 1 the controller tells apart before it launches
// (§IV-B: a kernel per case, so no kernel carries the branches of the others):
// the root keeps every key that is not handed out (k <= r; with too few keys the
// refill follows, its own kernel), or the extra keys start one or two
// insert-update processes (k > r).
enum class RootCase { Keep, Spawn };
inline RootCase root_case(const RootTask& t) { return t.spawned ? RootCase::Spawn : RootCase::Keep; }

template <exec::SharedWords X, class P, RootCase C, class Scratch>
  requires exec::BulkData<X> && exec::Recording<X>
GPULIN_HD void root_step(X& x, const View<typename P::Key>& h, const RootTask& t, Scratch scratch) {
  const uint32_t r = h.r;
  const auto root = scratch;            // r
  const auto fresh = scratch + r;       // 2r
  const auto merged = scratch + 3 * r;  // 3r
  x.begin_op(t.op);
  x.load_block(fresh, h.new_keys + t.new_offset, t.k);
  x.record_inv(kFnCycle, fresh, t.k);
  x.load_block(root, h.node(1), t.root_fill);
  merge_path::merge_and_sort(x, root, t.root_fill, fresh, t.k, merged);
  x.store_block(h.out + t.out_offset, merged, t.out_count);
  x.record_lp();  // the cycle's keys are handed out (history-format.md `explicit`)
  x.record_ret(merged, t.out_count, false);
  x.end_op();
  x.store_block(h.node(1), merged + t.out_count, t.root_keep);
  if constexpr (C == RootCase::Spawn) {
    uint32_t at = t.out_count + t.root_keep;
    for (uint32_t i = 0; i < t.spawned; ++i) {
      x.store_block(h.insert_buffer(t.spawn_slot[i]), merged + at, t.spawn_count[i]);
      at += t.spawn_count[i];
    }
  }
  // The cycle's delete-update process starts at the root (§III-B 2).
  x.store(h.delete_table + t.delete_slot, 1u, exec::relaxed);  // read in a later step's kernel
}

}  // namespace gpulin::psync
