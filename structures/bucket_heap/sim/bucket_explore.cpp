#include "structures/bucket_heap/sim/bucket_explore.h"

#include <utility>

#include "sim/strategies/replay_strategy.h"

namespace gpulin::explore {

namespace {

std::optional<std::vector<uint32_t>> picks_if_failing(const BucketConfig& c, const BucketProgram& p, Failure kind,
                                                      sim::Strategy& s, const ExploreOptions& o) {
  s.begin_run(bucket_actors(c, p));
  const BucketExecution e = execute_bucket(c, p, s, o.max_points);
  if (judge_bucket(e, o.judge).failure != kind) return std::nullopt;
  return e.run.picks;
}

// Greedy shrinking while a real execution still fails the same way: operations
// dropped (the last first), then single updates out of a BULKUPDATE.
std::pair<BucketProgram, std::vector<uint32_t>> shrink(const BucketConfig& c, BucketProgram p, std::vector<uint32_t> picks,
                                                       Failure kind, const ExploreOptions& o) {
  ShrinkState<BucketProgram> state(
      std::move(p), std::move(picks),
      [&](const BucketProgram& q, sim::Strategy& s) { return picks_if_failing(c, q, kind, s, o); }, o, 60);
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = state.program().ops.size(); i-- > 0 && state.program().ops.size() > 1;) {
      BucketProgram fewer = state.program();
      fewer.ops.erase(fewer.ops.begin() + static_cast<long>(i));
      progress |= state.accept(fewer);
    }
    for (size_t i = state.program().ops.size(); i-- > 0;)
      for (size_t j = state.program().ops[i].updates.size(); j-- > 0 && state.program().ops[i].updates.size() > 1;) {
        BucketProgram fewer = state.program();
        fewer.ops[i].updates.erase(fewer.ops[i].updates.begin() + static_cast<long>(j));
        progress |= state.accept(fewer);
      }
  }
  return std::move(state).result();
}

}  // namespace

BucketExecution replay_bucket(const BucketReplayInput& in, uint64_t max_points) {
  sim::ReplayStrategy exact(in.picks, /*strict=*/true);
  exact.begin_run(bucket_actors(in.config, in.program));
  return execute_bucket(in.config, in.program, exact, max_points);
}

ExploreSummary run_bucket_explore(const ExploreOptions& o, const BucketConfig& config) {
  BucketProgram program;
  BucketExecution e;
  HistoryExploration steps;
  steps.generate = [&](uint64_t seed) {
    program = generate_bucket_program(config, seed);
    return bucket_actors(config, program);
  };
  steps.execute = [&](sim::Strategy& strategy) {
    e = execute_bucket(config, program, strategy, o.max_points);
    return ExecutedRun{e.run.points, &e.history, 0, e.run.stale_reads, e.run.outside_writes};
  };
  PassedHistories passed;  // one exploration (one rank) meets the same histories again and again
  const JudgeOptions judged = schedule_judge_options(o, passed);
  steps.judge = [&] { return judge_bucket(e, judged); };
  steps.report = [&](FailureReport& r) {
    BucketReplayInput minimal{config, program, e.run.picks};
    if (o.shrink) std::tie(minimal.program, minimal.picks) = shrink(config, program, e.run.picks, r.kind, o);
    const BucketExecution m = replay_bucket(minimal, o.max_points);
    r.message = judge_bucket(m, o.judge).message;
    r.schedule = bucket_replay_string(minimal.config, minimal.program, m.run.picks);
    r.ops = minimal.program.ops.size();
    // Appended piece by piece: GCC 12 takes `"-" + name` for an overlapping copy
    // (-Wrestrict, a false positive of its inliner; verify/keys_text.h).
    std::string name = "bucket-heap-" + bucket_variant_name(config);
    if (config.mutant != bucket_heap::Mutant::None) {
      name += '-';
      name += bucket_mutant_name(config.mutant);
    }
    write_failure_files(r, o.out_dir, name, &m.history, &m.run);
  };
  return explore_histories(o, steps);
}

}  // namespace gpulin::explore
