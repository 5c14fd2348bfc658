// One simulated execution of a bucket heap program (structures/bucket_heap/ on
// sim/sim_context.h): actor 0 runs the operations, each followed by RESOLVE(0);
// actor i > 0 is level i, running its RESOLVEs under the schedule (schedule.h), so
// that a wrong schedule shows up as a race. Judged by the run's outcome, the
// preconditions and postconditions of Algorithm 1 at every RESOLVE, and the
// recorded bucket-pq history.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "histories/history.h"
#include "sim/simulator.h"
#include "sim/strategy.h"
#include "structures/bucket_heap/sim/bucket_program.h"
#include "tools/explore/judge_history.h"
#include "tools/explore/judgement.h"

namespace gpulin::explore {

struct BucketExecution {
  sim::RunResult run;
  History history;
  std::optional<std::string> invariant_failure;  // the first RESOLVE whose conditions failed
};

uint32_t bucket_actors(const BucketConfig& c, const BucketProgram& p);  // = the heap's levels
BucketExecution execute_bucket(const BucketConfig& c, const BucketProgram& p, sim::Strategy& strategy,
                               uint64_t max_points);
Judgement judge_bucket(const BucketExecution& e, const JudgeOptions& options);

}  // namespace gpulin::explore
