#include "tools/explore/op_explore.h"

#include <utility>

#include "histories/recorder.h"
#include "sim/schedule_string.h"
#include "sim/simulator.h"
#include "sim/strategies/replay_strategy.h"
#include "tools/explore/judge_history.h"
#include "tools/explore/replay_fields.h"

namespace gpulin::explore {

namespace {

// One run of `p` under `s`; its picks when it failed with `kind`.
std::optional<std::vector<uint32_t>> picks_if_failing(const OpStructure& st, const OpProgram& p, Failure kind,
                                                      sim::Strategy& s, const ExploreOptions& o) {
  s.begin_run(static_cast<uint32_t>(p.actors.size()));
  const OpExecution e = execute_ops(st, p, s, o.max_points);
  if (judge_ops(e, o.judge).failure != kind) return std::nullopt;
  return e.run.picks;
}

// Greedy shrinking while a real run of the smaller program still fails the same
// way: whole actors dropped, then single calls.
std::pair<OpProgram, std::vector<uint32_t>> shrink_ops(const OpStructure& st, OpProgram p, std::vector<uint32_t> picks,
                                                       Failure kind, const ExploreOptions& o) {
  constexpr uint64_t kTries = 200;
  ShrinkState<OpProgram> state(
      std::move(p), std::move(picks),
      [&](const OpProgram& q, sim::Strategy& s) { return picks_if_failing(st, q, kind, s, o); }, o, kTries);
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t a = state.program().actors.size(); a-- > 0 && state.program().actors.size() > 1;) {
      OpProgram smaller = state.program();
      smaller.actors.erase(smaller.actors.begin() + static_cast<long>(a));
      progress |= state.accept(smaller);
    }
    for (size_t a = state.program().actors.size(); a-- > 0;)
      for (size_t i = state.program().actors[a].size(); i-- > 0;) {
        OpProgram smaller = state.program();
        smaller.actors[a].erase(smaller.actors[a].begin() + static_cast<long>(i));
        progress |= state.accept(smaller);
      }
  }
  return std::move(state).result();
}

}  // namespace

OpProgram generate_op_program(const OpStructure& s, uint64_t seed) {
  std::mt19937_64 rng(seed);
  OpProgram p;
  p.actors.resize(s.actors);
  for (auto& calls : p.actors)
    for (uint32_t i = 0; i < s.ops; ++i) calls.push_back(s.random_call(rng));
  return p;
}

OpExecution execute_ops(const OpStructure& s, const OpProgram& program, sim::Strategy& strategy, uint64_t max_points) {
  OpExecution e;
  HostRecorder recorder(s.fns);
  std::unique_ptr<OpInstance> instance = s.make();
  // One simulator a thread, its fiber stacks kept between runs (a fresh one maps
  // and faults in a stack a fiber every run).
  thread_local sim::Simulator sim;
  sim.set_memory_mode(s.memory);
  sim.set_shared_regions(instance->shared());
  e.run = sim.run(
      static_cast<uint32_t>(program.actors.size()),
      [&](uint32_t a) {
        sim::SimContext x(sim, a, &recorder, s.lanes);
        int64_t id = int64_t{a} << 20;
        for (const OpCall& call : program.actors[a]) {
          x.begin_op(id++);
          instance->run(x, call);
          x.end_op();
        }
      },
      strategy, max_points);
  if (e.run.outcome == sim::Outcome::Completed) e.at_rest_failure = instance->at_rest();
  e.history = recorder.to_history(s.header, "explore");
  return e;
}

Judgement judge_ops(const OpExecution& e, const JudgeOptions& options) {
  return judge_run(e.run, e.history, e.at_rest_failure, options);
}

std::string op_replay_string(const OpStructure& s, const OpProgram& p, const std::vector<uint32_t>& picks) {
  return s.config + "|" + encode_op_program(p) + "|" + sim::encode_picks(picks);
}

OpReplayParts split_op_replay_string(const std::string& schedule, const char* kind) {
  const auto parts = split_fields(schedule, '|');
  if (parts.size() != 3) throw std::invalid_argument(std::string(kind) + " schedule: want CONFIG|PROGRAM|PICKS");
  return {parts[0], decode_op_program(parts[1], kind), sim::decode_picks(parts[2])};
}

OpExecution replay_ops(const OpStructure& s, const OpProgram& p, const std::vector<uint32_t>& picks,
                       uint64_t max_points) {
  sim::ReplayStrategy exact(picks, /*strict=*/true);
  exact.begin_run(static_cast<uint32_t>(p.actors.size()));
  return execute_ops(s, p, exact, max_points);
}

ExploreSummary run_op_explore(const ExploreOptions& o, const OpStructure& s) {
  OpProgram program;
  OpExecution e;
  HistoryExploration steps;
  steps.generate = [&](uint64_t seed) {
    program = generate_op_program(s, seed);
    return static_cast<uint32_t>(program.actors.size());
  };
  steps.execute = [&](sim::Strategy& strategy) {
    e = execute_ops(s, program, strategy, o.max_points);
    return ExecutedRun{e.run.points, &e.history, 0, e.run.stale_reads, e.run.outside_writes};
  };
  PassedHistories passed;
  const JudgeOptions judged = schedule_judge_options(o, passed);
  steps.judge = [&] { return judge_ops(e, judged); };
  steps.report = [&](FailureReport& r) {
    OpProgram p = program;
    std::vector<uint32_t> picks = e.run.picks;
    if (o.shrink) std::tie(p, picks) = shrink_ops(s, p, picks, r.kind, o);
    const OpExecution m = replay_ops(s, p, picks, o.max_points);
    r.message = judge_ops(m, o.judge).message;
    r.schedule = op_replay_string(s, p, m.run.picks);
    r.ops = p.op_count();
    write_failure_files(r, o.out_dir, s.file_name, &m.history, &m.run);
  };
  return explore_histories(o, steps);
}

}  // namespace gpulin::explore
