// One level's share of step 2 or 3 (§III-B): the actor of `t.level` runs the
// insert-update processes there, then the delete-update process. Levels of one
// step are two apart, so their actors touch disjoint nodes (a process at level l
// works on levels l and l + 1) and run concurrently; the controller's barrier
// between the even and the odd steps keeps neighbours apart.
#pragma once

#include "structures/psync/psync_config.h"
#include "structures/psync/update_steps.h"

namespace gpulin::psync {

template <exec::SharedWords X, class P, class Scratch>
  requires exec::BulkData<X>
GPULIN_HD void level_step(X& x, const View<typename P::Key>& h, const LevelTask& t, uint64_t arrived_end,
                          Scratch scratch) {
  for (uint32_t i = 0; i < t.inserts; ++i) insert_update<X, P>(x, h, t.insert[i], scratch);
  if (!t.has_delete) return;
  delete_update<X, P>(x, h, t.delete_slot, arrived_end, scratch);
  // psync-two-levels: the process goes on to the next level in the same step,
  // onto nodes the next level's process of this step also works on.
  if constexpr (P::mutant == Mutant::TwoLevels) delete_update<X, P>(x, h, t.delete_slot, arrived_end, scratch);
}

}  // namespace gpulin::psync
