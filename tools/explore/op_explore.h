// `gpulin explore` for a structure described by operations (op_program.h): each
// actor a fiber running its calls on one shared instance, every history judged on
// the structure's model, the first failure of each kind shrunk (fewer actors, fewer
// calls) and reported with a replay string. The counter array and a user's own
// structures (docs/own-structure.md) explore through this.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "histories/history.h"
#include "sim/sim_context.h"
#include "tools/explore/explore.h"
#include "tools/explore/op_program.h"

namespace gpulin::explore {

// One run's shared memory: made fresh for every run.
class OpInstance {
 public:
  virtual ~OpInstance() = default;
  // Runs one call as actor x; records its inv and ret (and its holds) through x.
  virtual void run(sim::SimContext& x, const OpCall& call) = 0;
  // After a run that completed: what is wrong with the structure at rest, if anything.
  virtual std::optional<std::string> at_rest() { return std::nullopt; }
  // The memory its actors share, guarded during a ptx run (Simulator::set_shared_regions).
  virtual std::vector<sim::memory::GuardedRange> shared() const { return {}; }
};

struct OpStructure {
  std::string config;              // the replay string's CONFIG part, e.g. "counter-array:counters=2"
  std::string file_name;           // failure files: out_dir/FILE_NAME-KIND.*
  std::vector<std::string> fns;    // recorded operation names by code
  Header header;                   // model, params and lp_rule of its histories
  uint32_t lanes = 1;              // threads of a simulated actor
  uint32_t actors = 3, ops = 4;    // the generated programs' shape
  sim::memory::MemorySetting memory;
  std::function<std::unique_ptr<OpInstance>()> make;
  std::function<OpCall(std::mt19937_64& rng)> random_call;
};

struct OpExecution {
  sim::RunResult run;
  History history;
  std::optional<std::string> at_rest_failure;
};

OpProgram generate_op_program(const OpStructure& s, uint64_t seed);
// Runs `program` under `strategy` (begin_run already called).
OpExecution execute_ops(const OpStructure& s, const OpProgram& program, sim::Strategy& strategy, uint64_t max_points);
// The run's outcome, then the history (witness where the header names a rule, and
// the search), then the structure at rest.
Judgement judge_ops(const OpExecution& e, const JudgeOptions& options);

ExploreSummary run_op_explore(const ExploreOptions& o, const OpStructure& s);

// CONFIG|PROGRAM|PICKS; CONFIG is s.config.
std::string op_replay_string(const OpStructure& s, const OpProgram& p, const std::vector<uint32_t>& picks);
// The three parts of such a string (throws std::invalid_argument naming `kind`).
struct OpReplayParts {
  std::string config;
  OpProgram program;
  std::vector<uint32_t> picks;
};
OpReplayParts split_op_replay_string(const std::string& schedule, const char* kind);
// The exact run a replay names (strict: throws when the picks do not fit).
OpExecution replay_ops(const OpStructure& s, const OpProgram& p, const std::vector<uint32_t>& picks,
                       uint64_t max_points);

}  // namespace gpulin::explore
