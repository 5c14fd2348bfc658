// `gpulin explore --structure psync`: many simulated schedules of parallel heap
// programs (structures/psync/sim/psync_run.h), every run judged; the first failure of each
// kind shrunk to a minimal program (fewer cycles, fewer keys, the keys renumbered)
// and reported with a replay string `gpulin replay` accepts.
#pragma once

#include <cstdint>

#include "tools/explore/explore.h"
#include "structures/psync/sim/psync_program.h"
#include "structures/psync/sim/psync_run.h"

namespace gpulin::explore {

// Uses the schedule settings of `o`; `config` gives r, the mutant and the
// generated programs' shape. FailureReport::ops is the shrunk program's cycles.
ExploreSummary run_psync_explore(const ExploreOptions& o, const PsyncConfig& config);

// The run a replay string names, exactly (strict replay: throws std::runtime_error
// when the picks do not fit the program).
PsyncExecution replay_psync(const PsyncReplayInput& in, uint64_t max_points);

}  // namespace gpulin::explore
