// Judging a recorded history, for every structure's explorer: the proof's witness
// check where the history names a linearization-point rule, the general search
// (always for small histories, and to tell a violation from a failed proof), and
// the run's own outcome before either.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "histories/history.h"
#include "sim/simulator.h"
#include "tools/explore/judgement.h"
#include "tools/explore/passed_histories.h"

namespace gpulin::explore {

// Ops up to which the general search runs on every history (beside the witness).
struct JudgeOptions {
  size_t search_max_ops = 48;
  uint64_t search_max_states = 2'000'000;
  // Histories judged passing before, passed again unchecked and remembered when they
  // pass (passed_histories.h); null: every history is judged.
  PassedHistories* passed = nullptr;
};
// The history part of a judgement: witness, then search when small or needed.
Judgement judge_history(const History& history, const JudgeOptions& options);
// A run whose structure checks its own conditions as it goes (the P-Sync and bucket
// heaps): the run's outcome (deadlock, livelock, fault), then the history (a wrong
// result is what a user sees first), then the first failed condition, an Invariant.
Judgement judge_run(const sim::RunResult& run, const History& history, const std::optional<std::string>& invariant,
                    const JudgeOptions& options);

}  // namespace gpulin::explore
