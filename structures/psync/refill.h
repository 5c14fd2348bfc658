// The refill of step 1 when a cycle brought too few new keys (§III-B, §IV-C): the
// root takes r - k keys from the newest insert-update processes' buffers, then
// from the end of the heap, and is sorted again. The controller runs it alone,
// between the root step and the update steps, so nothing races it (§IV-C: "it
// does not have to contend with any other pipelined processes").
#pragma once

#include <cstdint>

#include "structures/merge_path/block_merge.h"
#include "structures/psync/psync_config.h"
#include "structures/psync/psync_tasks.h"
#include "structures/psync/psync_view.h"

namespace gpulin::psync {

template <exec::BulkData X, class P, class Scratch>
GPULIN_HD void refill_root(X& x, const View<typename P::Key>& h, const RefillTask& t, Scratch scratch) {
  using Key = typename P::Key;
  const uint32_t r = h.r;
  const auto acc = scratch;              // the root's keys so far (r)
  const auto chunk = scratch + r;        // r
  const auto merged = scratch + 2 * r;   // 2r
  uint32_t n = t.root_fill;
  x.load_block(acc, h.node(1), n);
  for (uint32_t c = 0; c < t.chunks; ++c) {
    const RefillChunk& ch = t.chunk[c];
    const Key* source = ch.from_buffer ? h.insert_buffer(ch.index) : h.node(ch.index);
    // The taken keys are the source's last ones: the source keeps a sorted prefix.
    const uint32_t from = P::mutant == Mutant::RefillWrongEnd ? 0u : ch.from;
    x.load_block(chunk, source + from, ch.count);
    merge_path::merge_and_sort(x, acc, n, chunk, ch.count, merged);
    n += ch.count;
    merge_path::block_copy(x, acc, merged, n);
  }
  x.store_block(h.node(1), acc, n);
}

}  // namespace gpulin::psync
