// `gpulin explore --structure merge`: many simulated schedules of merge programs,
// each output checked against std::merge; the first failure of each kind shrunk to
// smaller inputs and reported with a replay string `gpulin replay` accepts.
#pragma once

#include "tools/explore/explore.h"
#include "structures/merge_path/sim/merge_program.h"

namespace gpulin::explore {

// Uses the schedule settings of `o` (strategy, depth, preemptions, schedules, seed,
// program_every, max_points, out_dir, progress, shrink); FailureReport::ops is the
// shrunk program's number of input keys.
ExploreSummary run_merge_explore(const ExploreOptions& o, const MergeConfig& config);

}  // namespace gpulin::explore
