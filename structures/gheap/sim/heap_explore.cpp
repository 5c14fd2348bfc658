#include "structures/gheap/sim/heap_explore.h"

#include <tuple>

#include "sim/strategies/replay_strategy.h"

namespace gpulin::explore {

namespace {

// Does `program` still fail with `kind`? Tries the old schedule leniently, then a
// few fresh PCT and random schedules. Returns the failing execution's picks.
std::optional<std::vector<uint32_t>> still_fails(HeapRunner& runner, const Program& program, Failure kind,
                                                 const std::vector<uint32_t>& picks, const ExploreOptions& o,
                                                 uint64_t tries) {
  auto attempt = [&](sim::Strategy& s) -> std::optional<std::vector<uint32_t>> {
    s.begin_run(static_cast<uint32_t>(program.actors.size()));
    Execution e = runner.execute(program, s, o.max_points);
    if (judge(e, o.judge).failure == kind) return e.run.picks;
    return std::nullopt;
  };
  return retry_schedules(attempt, picks, o, tries);
}

// Greedy shrinking: drop whole actors, then single operations, while the failure
// of the same kind stays reachable (a real execution of the smaller program fails).
std::pair<Program, std::vector<uint32_t>> shrink(HeapRunner& runner, Program program, std::vector<uint32_t> picks,
                                                 Failure kind, const ExploreOptions& o) {
  bool progress = true;
  while (progress) {
    progress = false;
    for (size_t a = 0; a < program.actors.size() && program.actors.size() > 1; ++a) {
      Program smaller = program;
      smaller.actors.erase(smaller.actors.begin() + static_cast<long>(a));
      if (auto p = still_fails(runner, smaller, kind, picks, o, 200)) {
        program = std::move(smaller);
        picks = *p;
        progress = true;
        --a;
      }
    }
    for (size_t a = 0; a < program.actors.size(); ++a) {
      for (size_t i = 0; i < program.actors[a].size(); ++i) {
        Program smaller = program;
        smaller.actors[a].erase(smaller.actors[a].begin() + static_cast<long>(i));
        if (auto p = still_fails(runner, smaller, kind, picks, o, 200)) {
          program = std::move(smaller);
          picks = *p;
          progress = true;
          --i;
        }
      }
    }
  }
  return {program, picks};
}

}  // namespace

ExploreSummary run_heap_explore(const ExploreOptions& o, const HeapConfig& config, WorkloadShape shape) {
  HeapRunner runner(config);
  shape.k = config.k;
  Program program;
  Execution e;
  HistoryExploration steps;
  steps.generate = [&](uint64_t seed) {
    program = generate_program(shape, seed);
    return static_cast<uint32_t>(program.actors.size());
  };
  // The heap's code never reads its block's index: blocks with the same operations
  // are interchangeable.
  steps.roles = [&] { return roles_of(program.actors); };
  steps.execute = [&](sim::Strategy& strategy) {
    e = runner.execute(program, strategy, o.max_points, std::move(e.history));  // its storage reused
    return ExecutedRun{e.run.points, &e.history, 0, e.run.stale_reads, e.run.outside_writes};
  };
  PassedHistories passed;  // one exploration (one rank) meets the same histories again and again
  const JudgeOptions judged = schedule_judge_options(o, passed);
  steps.judge = [&] { return judge(e, judged); };
  steps.report = [&](FailureReport& r) {
    Program p = program;
    std::vector<uint32_t> picks = e.run.picks;
    if (o.shrink) std::tie(p, picks) = shrink(runner, p, picks, r.kind, o);
    sim::ReplayStrategy exact(picks, /*strict=*/true);
    exact.begin_run(static_cast<uint32_t>(p.actors.size()));
    Execution minimal = runner.execute(p, exact, o.max_points);
    const Judgement mj = judge(minimal, o.judge);
    r.message = mj.message;
    r.schedule = replay_string(config, p, minimal.run.picks);
    r.ops = p.op_count();
    write_failure_files(r, o.out_dir,
                        structure_name(config.flavor) + "-" + variant_name(config.variant) +
                            (config.mutant == gheap::Mutant::None ? "" : "-" + mutant_name(config.mutant)),
                        &minimal.history, &minimal.run);
  };
  return explore_histories(o, steps);
}

}  // namespace gpulin::explore
