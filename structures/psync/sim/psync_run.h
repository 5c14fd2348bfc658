// One simulated execution of a parallel heap program (structures/psync/ on
// sim/sim_context.h): the controller is actor 0, each level of the heap an actor of
// its own, so the processes of one step run concurrently and a missing barrier or
// a process on the wrong level shows up as a race; the steps' barriers are a
// SimBlock's. Judged by the run's outcome, the parallel heap property at every
// barrier (psync_at_rest.h), the keys left in the heap once every process is done,
// and the recorded psync-pq history.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "histories/history.h"
#include "sim/simulator.h"
#include "sim/strategy.h"
#include "tools/explore/judge_history.h"
#include "tools/explore/judgement.h"
#include "structures/psync/psync_tasks.h"
#include "structures/psync/sim/psync_program.h"

namespace gpulin::explore {

struct PsyncExecution {
  sim::RunResult run;
  History history;
  std::optional<std::string> invariant_failure;  // the first barrier, or the heap at rest
  uint32_t actors = 0;
};

// Actors a program's run has: the controller and one per level the heap can reach.
uint32_t psync_actors(const PsyncConfig& c, const PsyncProgram& p);

// The controller's plan as the run publishes it (a named region, drawn by the
// stepper): the cycle's next barrier, then for steps 2 and 3 each level's
// insert-update processes' (slot, node), kPsyncPlanStepWords words a step.
inline constexpr uint32_t kPsyncPlanStepWords = 2 * psync::kMaxLevels * psync::kMaxInsertsPerLevel;
// Runs `program` under `strategy` (begin_run(psync_actors(...)) already called).
PsyncExecution execute_psync(const PsyncConfig& c, const PsyncProgram& p, sim::Strategy& strategy, uint64_t max_points);
Judgement judge_psync(const PsyncExecution& e, const JudgeOptions& options);

}  // namespace gpulin::explore
