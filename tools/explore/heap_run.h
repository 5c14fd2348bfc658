// One simulated execution of a heap program, and its judgement: the run's outcome,
// the history it recorded, the heap invariant at every quiescent state, the
// proof's witness check and (for small histories) the general search.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "histories/history.h"
#include "histories/recorder.h"
#include "sim/simulator.h"
#include "structures/gheap/host_heap.h"
#include "tools/explore/heap_config.h"
#include "tools/explore/judgement.h"
#include "tools/explore/passed_histories.h"
#include "tools/explore/program.h"

namespace gpulin::explore {

struct Execution {
  sim::RunResult run;
  History history;
  std::optional<std::string> invariant_failure;
};

class HeapRunner {
 public:
  explicit HeapRunner(const HeapConfig& config);
  // Runs `program` under `strategy` (begin_run already called).
  Execution execute(const Program& program, sim::Strategy& strategy, uint64_t max_points);
  const HeapConfig& config() const { return config_; }

 private:
  std::optional<std::string> quiescent_check() const;

  HeapConfig config_;
  sim::Simulator sim_;
  HostRecorder recorder_;
  std::optional<gheap::HostHeap<>> heap_;
};

// Ops up to which the general search runs on every history (beside the witness).
struct JudgeOptions {
  size_t search_max_ops = 48;
  uint64_t search_max_states = 2'000'000;
  // Histories judged passing before, passed again unchecked and remembered when they
  // pass (passed_histories.h); null: every history is judged.
  PassedHistories* passed = nullptr;
};
Judgement judge(const Execution& e, const JudgeOptions& options);
// The history part of a judgement: witness, then search when small or needed.
Judgement judge_history(const History& history, const JudgeOptions& options);
// A run whose structure checks its own conditions as it goes (the P-Sync and bucket
// heaps): the run's outcome (deadlock, livelock, fault), then the history (a wrong
// result is what a user sees first), then the first failed condition, an Invariant.
Judgement judge_run(const sim::RunResult& run, const History& history, const std::optional<std::string>& invariant,
                    const JudgeOptions& options);

// The replay string of an execution: CONFIG|PROGRAM|PICKS.
std::string replay_string(const HeapConfig& c, const Program& p, const std::vector<uint32_t>& picks);
struct ReplayInput {
  HeapConfig config;
  Program program;
  std::vector<uint32_t> picks;
};
ReplayInput parse_replay_string(const std::string& s);  // throws std::invalid_argument

}  // namespace gpulin::explore
