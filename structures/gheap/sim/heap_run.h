// One simulated execution of a heap program, and its judgement: the run's outcome,
// the history it recorded, the heap invariant at every quiescent state, the
// proof's witness check and (for small histories) the general search.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "histories/history.h"
#include "histories/recorder.h"
#include "sim/private_memory/kept_memory.h"
#include "sim/simulator.h"
#include "structures/gheap/host_heap.h"
#include "structures/gheap/sim/heap_config.h"
#include "tools/explore/judge_history.h"
#include "structures/gheap/sim/heap_program.h"

namespace gpulin::explore {

struct Execution {
  sim::RunResult run;
  History history;
  std::optional<std::string> invariant_failure;
};

class HeapRunner {
 public:
  explicit HeapRunner(const HeapConfig& config);
  // Runs `program` under `strategy` (begin_run already called). Its history is
  // made in the storage of `reuse` (an explorer passes its previous schedule's).
  Execution execute(const Program& program, sim::Strategy& strategy, uint64_t max_points, History reuse = {});
  const HeapConfig& config() const { return config_; }

 private:
  std::optional<std::string> quiescent_check() const;

  HeapConfig config_;
  sim::Simulator sim_;
  HostRecorder recorder_;
  Header header_;  // every run's history's (the config's)
  std::optional<gheap::HostHeap<>> heap_;
  std::vector<sim::KeptPrivateMemory> kept_;  // each actor's private memory, from run to run
};

// The run's outcome, its invariant at every quiescent state, then its history.
Judgement judge(const Execution& e, const JudgeOptions& options);

// The replay string of an execution: CONFIG|PROGRAM|PICKS.
std::string replay_string(const HeapConfig& c, const Program& p, const std::vector<uint32_t>& picks);
struct ReplayInput {
  HeapConfig config;
  Program program;
  std::vector<uint32_t> picks;
};
ReplayInput parse_replay_string(const std::string& s);  // throws std::invalid_argument

}  // namespace gpulin::explore
