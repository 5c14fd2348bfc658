// One simulated execution of a slab hash program (one fiber per warp, its 32 lanes
// simulated; structures/slab_hash/ on sim/sim_context.h), and its judgement: the
// run's outcome, the table at rest (slab_at_rest.h), the explicit-rule witness and
// the search on the recorded history.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "histories/history.h"
#include "sim/simulator.h"
#include "sim/strategy.h"
#include "tools/explore/judge_history.h"
#include "tools/explore/judgement.h"
#include "structures/slab_hash/sim/slab_program.h"
#include "structures/slab_hash/slab_hash_memory.h"

namespace gpulin::explore {

struct SlabExecution {
  sim::RunResult run;
  History history;
  std::optional<std::string> at_rest_failure;
  uint32_t alloc_failures = 0;
};

// Runs `program` under `strategy` (begin_run already called).
// The simulator's table for c: its buckets, 2 super blocks of 1 memory block
// (the stepper's drawing decodes slab addresses with it).
slab_hash::SlabHashShape sim_shape(const SlabConfig& c);
SlabExecution execute_slab(const SlabConfig& c, const SlabProgram& p, sim::Strategy& strategy, uint64_t max_points);
// Deadlock, livelock, fault from the run; a broken table at rest is an Invariant
// failure; then the history (judge_history: witness, and the search when small).
Judgement judge_slab(const SlabExecution& e, const JudgeOptions& options);

}  // namespace gpulin::explore
