#include "structures/psync/sim/psync_explore.h"

#include <map>
#include <tuple>
#include <utility>

#include "sim/strategies/replay_strategy.h"

namespace gpulin::explore {

namespace {

// One run of `p` under `s`; its picks when it failed with `kind`.
std::optional<std::vector<uint32_t>> picks_if_failing(const PsyncConfig& c, const PsyncProgram& p, Failure kind,
                                                      sim::Strategy& s, const ExploreOptions& o) {
  s.begin_run(psync_actors(c, p));
  const PsyncExecution e = execute_psync(c, p, s, o.max_points);
  if (judge_psync(e, o.judge).failure != kind) return std::nullopt;
  return e.run.picks;
}

// The program with its keys renumbered 0, 1, ... in their order (the same
// comparisons, so the same run): easier to read.
PsyncProgram canonical(PsyncProgram p) {
  std::map<uint32_t, uint32_t> rank;
  for (const auto& cycle : p.cycles)
    for (uint32_t k : cycle) rank.emplace(k, 0);
  uint32_t next = 0;
  for (auto& [key, r] : rank) r = next++;
  for (auto& cycle : p.cycles)
    for (uint32_t& k : cycle) k = rank[k];
  return p;
}

// Greedy shrinking while a real execution of the smaller program still fails the
// same way: whole cycles dropped (the last first), then single keys.
class PsyncShrinker {
 public:
  PsyncShrinker(PsyncConfig c, PsyncProgram p, std::vector<uint32_t> picks, Failure kind, const ExploreOptions& o)
      : c_(std::move(c)), p_(std::move(p)), picks_(std::move(picks)), kind_(kind), o_(o) {}

  std::pair<PsyncProgram, std::vector<uint32_t>> run() {
    for (bool progress = true; progress;) {
      progress = drop_cycles();
      progress |= drop_keys();
    }
    accept(canonical(p_));
    return {p_, picks_};
  }

 private:
  bool accept(const PsyncProgram& p) {
    auto attempt = [&](sim::Strategy& s) { return picks_if_failing(c_, p, kind_, s, o_); };
    auto picks = retry_schedules(attempt, picks_, o_, kTries);
    if (!picks) return false;
    p_ = p;
    picks_ = std::move(*picks);
    return true;
  }

  bool drop_cycles() {
    bool any = false;
    for (size_t i = p_.cycles.size(); i-- > 0 && p_.cycles.size() > 1;) {
      PsyncProgram fewer = p_;
      fewer.cycles.erase(fewer.cycles.begin() + static_cast<long>(i));
      any |= accept(fewer);
    }
    return any;
  }

  bool drop_keys() {
    bool any = false;
    for (size_t i = p_.cycles.size(); i-- > 0;)
      for (size_t j = p_.cycles[i].size(); j-- > 0;) {
        PsyncProgram fewer = p_;
        fewer.cycles[i].erase(fewer.cycles[i].begin() + static_cast<long>(j));
        any |= accept(fewer);
      }
    return any;
  }

  static constexpr uint64_t kTries = 60;
  PsyncConfig c_;
  PsyncProgram p_;
  std::vector<uint32_t> picks_;
  Failure kind_;
  const ExploreOptions& o_;
};

}  // namespace

PsyncExecution replay_psync(const PsyncReplayInput& in, uint64_t max_points) {
  sim::ReplayStrategy exact(in.picks, /*strict=*/true);
  exact.begin_run(psync_actors(in.config, in.program));
  return execute_psync(in.config, in.program, exact, max_points);
}

ExploreSummary run_psync_explore(const ExploreOptions& o, const PsyncConfig& config) {
  PsyncProgram program;
  PsyncExecution e;
  HistoryExploration steps;
  steps.generate = [&](uint64_t seed) {
    program = generate_psync_program(config, seed);
    return psync_actors(config, program);
  };
  steps.execute = [&](sim::Strategy& strategy) {
    e = execute_psync(config, program, strategy, o.max_points);
    return ExecutedRun{e.run.points, &e.history, 0, e.run.stale_reads, e.run.outside_writes};
  };
  PassedHistories passed;  // one exploration (one rank) meets the same histories again and again
  const JudgeOptions judged = schedule_judge_options(o, passed);
  steps.judge = [&] { return judge_psync(e, judged); };
  steps.report = [&](FailureReport& r) {
    PsyncReplayInput minimal{config, program, e.run.picks};
    if (o.shrink) std::tie(minimal.program, minimal.picks) = PsyncShrinker(config, program, e.run.picks, r.kind, o).run();
    const PsyncExecution m = replay_psync(minimal, o.max_points);
    r.message = judge_psync(m, o.judge).message;
    r.schedule = psync_replay_string(minimal.config, minimal.program, m.run.picks);
    r.ops = minimal.program.cycles.size();
    write_failure_files(r, o.out_dir,
                        "psync" + (config.mutant == psync::Mutant::None ? "" : "-" + psync_mutant_name(config.mutant)),
                        &m.history, &m.run);
  };
  return explore_histories(o, steps);
}

}  // namespace gpulin::explore
