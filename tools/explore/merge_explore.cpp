#include "tools/explore/merge_explore.h"

#include <chrono>
#include <cstdio>
#include <unordered_set>
#include <utility>

#include "sim/strategies/replay_strategy.h"
#include "tools/explore/merge_run.h"

namespace gpulin::explore {

namespace {

using Clock = std::chrono::steady_clock;

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
  ExploreSummary sum;
  ExploreProgress progress(o);
  auto strategy = make_strategy(o, o.seed);
  MergeProgram program = generate_merge_program(config, o.seed);
  std::unordered_set<uint64_t> seen;  // distinct outputs (keys, then tags), hashed
  for (uint64_t i = 0; i < o.schedules; ++i) {
    if (o.strategy != "dfs" && o.program_every && i && i % o.program_every == 0)
      program = generate_merge_program(config, o.seed + i);
    const auto t0 = Clock::now();
    MergeExecution e = execute_merge(config, program, *strategy, o.max_points);
    sum.sim_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    if (!e.ran) break;  // the strategy has explored everything
    sum.points += e.run.points;
    ++sum.schedules;
    seen.insert(output_fingerprint(e));
    const Judgement j = judge_merge(e);
    count_failure(sum, j.failure, i, [&](FailureReport& r) {
      MergeConfig c = config;
      MergeProgram p = program;
      std::vector<uint32_t> picks = e.run.picks;
      if (o.shrink) std::tie(c, p, picks) = shrink(c, p, picks, j.failure, o);
      sim::ReplayStrategy exact(picks, /*strict=*/true);
      const MergeExecution minimal = execute_merge(c, p, exact, o.max_points);
      r.message = judge_merge(minimal).message;
      r.schedule = merge_replay_string(c, p, minimal.run.picks);
      r.ops = p.size();
      write_failure_files(r, o.out_dir,
                          "merge" + (c.mutant == merge_path::MergeMutant::None ? "" : "-" + merge_mutant_name(c.mutant)),
                          nullptr);
    });
    progress.update(sum);
  }
  progress.finish(sum, strategy->exhausted(), seen);
  return sum;
}

}  // namespace gpulin::explore
