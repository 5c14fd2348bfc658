// `gpulin explore --structure slab-map|slab-set|slab-multimap`: many simulated
// schedules of slab hash programs (structures/slab_hash/sim/slab_run.h), every history judged;
// the first failure of each kind shrunk to a minimal program (fewer warps, fewer
// operations, fewer buckets and keys) and reported with a replay string `gpulin
// replay` accepts.
#pragma once

#include <cstdint>

#include "tools/explore/explore.h"
#include "structures/slab_hash/sim/slab_program.h"
#include "structures/slab_hash/sim/slab_run.h"

namespace gpulin::explore {

// Uses the schedule settings of `o` (strategy, depth, preemptions, schedules, seed,
// program_every, max_points, judge, out_dir, progress, shrink); `config` gives the
// table and the generated programs' shape. FailureReport::ops is the shrunk
// program's number of operations.
ExploreSummary run_slab_explore(const ExploreOptions& o, const SlabConfig& config);

// The run a replay string names, exactly (strict replay: throws std::runtime_error
// when the picks do not fit the program).
SlabExecution replay_slab(const SlabReplayInput& in, uint64_t max_points);

}  // namespace gpulin::explore
