#include "structures/merge_path/sim/merge_explore.h"

#include <utility>

#include "sim/strategies/replay_strategy.h"
#include "structures/merge_path/sim/merge_run.h"

namespace gpulin::explore {

namespace {

// Does `p` still fail with `kind`? The picks of a failing run.
std::optional<std::vector<uint32_t>> still_fails(const MergeConfig& c, const MergeProgram& p, Failure kind,
                                                 const std::vector<uint32_t>& picks, const ExploreOptions& o) {
  auto attempt = [&](sim::Strategy& s) -> std::optional<std::vector<uint32_t>> {
    MergeExecution e = execute_merge(c, p, s, o.max_points);
    if (e.ran && judge_merge(e).failure == kind) return e.run.picks;
    return std::nullopt;
  };
  return retry_schedules(attempt, picks, o, 50);
}

// Greedy shrinking: fewer blocks, then single keys dropped from A and from B (the
// inputs stay sorted), then the arrays moved onto 16-byte boundaries, while a real
// execution of the smaller program still fails the same way.
std::tuple<MergeConfig, MergeProgram, std::vector<uint32_t>> shrink(MergeConfig c, MergeProgram p,
                                                                    std::vector<uint32_t> picks, Failure kind,
                                                                    const ExploreOptions& o) {
  auto accept = [&](const MergeConfig& c2, const MergeProgram& p2) {
    auto r = still_fails(c2, p2, kind, picks, o);
    if (!r) return false;
    c = c2;
    p = p2;
    picks = std::move(*r);
    return true;
  };
  for (bool progress = true; progress;) {
    progress = false;
    while (c.blocks > 1) {
      MergeConfig fewer = c;
      --fewer.blocks;
      if (!accept(fewer, p)) break;
      progress = true;
    }
    for (auto member : {&MergeProgram::a, &MergeProgram::b}) {
      for (size_t i = 0; i < (p.*member).size();) {
        MergeProgram smaller = p;
        (smaller.*member).erase((smaller.*member).begin() + static_cast<long>(i));
        if (accept(c, smaller))
          progress = true;
        else
          ++i;
      }
    }
    for (auto member : {&MergeProgram::off_a, &MergeProgram::off_b, &MergeProgram::off_c}) {
      if (p.*member == 0) continue;
      MergeProgram aligned = p;
      aligned.*member = 0;
      progress |= accept(c, aligned);
    }
  }
  return {c, p, picks};
}


// An output's identity for counting distinct ones: its keys, then its tags.
uint64_t output_fingerprint(const MergeExecution& e) {
  uint64_t x = 1469598103934665603ULL;
  for (const auto* words : {&e.keys, &e.tags})
    for (uint32_t w : *words) x = (x ^ w) * 1099511628211ULL;
  return x;
}

}  // namespace

ExploreSummary run_merge_explore(const ExploreOptions& o, const MergeConfig& config) {
  MergeProgram program;
  MergeExecution e;
  HistoryExploration steps;
  steps.generate = [&](uint64_t seed) {
    program = generate_merge_program(config, seed);
    return merge_actors(config, program);
  };
  steps.execute = [&](sim::Strategy& strategy) {
    e = execute_merge(config, program, strategy, o.max_points, /*begun=*/true);
    return ExecutedRun{e.run.points, nullptr, output_fingerprint(e), e.run.stale_reads, e.run.outside_writes};
  };
  steps.judge = [&] { return judge_merge(e); };
  steps.report = [&](FailureReport& r) {
    MergeConfig c = config;
    MergeProgram p = program;
    std::vector<uint32_t> picks = e.run.picks;
    if (o.shrink) std::tie(c, p, picks) = shrink(c, p, picks, r.kind, o);
    sim::ReplayStrategy exact(picks, /*strict=*/true);
    const MergeExecution minimal = execute_merge(c, p, exact, o.max_points);
    r.message = judge_merge(minimal).message;
    r.schedule = merge_replay_string(c, p, minimal.run.picks);
    r.ops = p.size();
    write_failure_files(r, o.out_dir,
                        "merge" + (c.mutant == merge_path::MergeMutant::None ? "" : "-" + merge_mutant_name(c.mutant)),
                        nullptr, &minimal.run);
  };
  return explore_histories(o, steps);
}

}  // namespace gpulin::explore
