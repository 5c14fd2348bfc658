// `gpulin explore --structure bucket-heap`: many simulated schedules of bucket heap
// programs (structures/bucket_heap/sim/bucket_run.h), every run judged; the first failure of each
// kind shrunk (fewer operations, fewer updates in one) and reported with a replay
// string `gpulin replay` accepts.
#pragma once

#include "structures/bucket_heap/sim/bucket_program.h"
#include "structures/bucket_heap/sim/bucket_run.h"
#include "tools/explore/explore.h"

namespace gpulin::explore {

ExploreSummary run_bucket_explore(const ExploreOptions& o, const BucketConfig& config);
BucketExecution replay_bucket(const BucketReplayInput& in, uint64_t max_points);

}  // namespace gpulin::explore
