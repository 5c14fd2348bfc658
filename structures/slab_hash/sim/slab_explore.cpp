#include "structures/slab_hash/sim/slab_explore.h"

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "sim/strategies/replay_strategy.h"

namespace gpulin::explore {

namespace {

uint32_t warp_count(const SlabProgram& p) { return static_cast<uint32_t>(p.warps.size()); }

// One run of `p` under `s`; its picks when it failed with `kind`. `judged` may
// remember passed histories (the shrinker's runs meet the same ones again and again).
std::optional<std::vector<uint32_t>> picks_if_failing(const SlabConfig& c, const SlabProgram& p, Failure kind,
                                                      sim::Strategy& s, const ExploreOptions& o,
                                                      const JudgeOptions& judged) {
  s.begin_run(warp_count(p));
  const SlabExecution e = execute_slab(c, p, s, o.max_points);
  if (judge_slab(e, judged).failure != kind) return std::nullopt;
  return e.run.picks;
}

// The program with its keys renumbered 0, 1, ... and its values 1, 2, ... in order
// of first appearance (set inserts keep value 0): the same program, easier to read.
SlabProgram canonical(const SlabConfig& c, SlabProgram p) {
  std::map<uint32_t, uint32_t> keys;
  uint32_t value = 1;
  for (auto& warp : p.warps)
    for (SlabTask& t : warp) {
      t.key = keys.emplace(t.key, static_cast<uint32_t>(keys.size())).first->second;
      if (t.fn == slab_hash::kFnInsert && c.mode != slab_hash::Mode::Set) t.value = value++;
    }
  return p;
}

// Greedy shrinking while a real execution of the smaller program still fails the
// same way (the old schedule replayed leniently, then fresh PCT and random ones):
// whole warps dropped, single operations dropped, two warps' queues joined into one
// (fewer warps), fewer buckets, two keys made one, then keys and values renumbered.
class SlabShrinker {
 public:
  SlabShrinker(SlabConfig c, SlabProgram p, std::vector<uint32_t> picks, Failure kind, const ExploreOptions& o)
      : c_(std::move(c)), p_(std::move(p)), picks_(std::move(picks)), kind_(kind), o_(o),
        judged_(schedule_judge_options(o, passed_)) {}

  std::tuple<SlabConfig, SlabProgram, std::vector<uint32_t>> run() {
    for (bool progress = true; progress;) {
      progress = drop_warps();
      progress |= drop_operations();
      progress |= join_warps();
      progress |= fewer_buckets();
      progress |= fewer_keys();
    }
    accept(c_, canonical(c_, p_));
    return {c_, p_, picks_};
  }

 private:
  bool accept(const SlabConfig& c, const SlabProgram& p) {
    auto attempt = [&](sim::Strategy& s) { return picks_if_failing(c, p, kind_, s, o_, judged_); };
    auto picks = retry_schedules(attempt, picks_, o_, kTries);
    if (!picks) return false;
    c_ = c;
    p_ = p;
    picks_ = std::move(*picks);
    return true;
  }

  bool drop_warps() {
    bool any = false;
    for (size_t w = p_.warps.size(); w-- > 0 && p_.warps.size() > 1;) {
      SlabProgram fewer = p_;
      fewer.warps.erase(fewer.warps.begin() + static_cast<long>(w));
      any |= accept(c_, fewer);
    }
    return any;
  }

  bool drop_operations() {
    bool any = false;
    for (size_t w = 0; w < p_.warps.size(); ++w)
      for (size_t i = p_.warps[w].size(); i-- > 0;) {
        SlabProgram fewer = p_;
        fewer.warps[w].erase(fewer.warps[w].begin() + static_cast<long>(i));
        any |= accept(c_, fewer);
      }
    return any;
  }

  // Two actors' queues made one (at most `lanes` operations, one per lane), either first.
  bool join_warps() {
    for (size_t w = p_.warps.size(); w-- > 1;)
      for (size_t v = 0; v < w; ++v) {
        if (p_.warps[v].size() + p_.warps[w].size() > c_.lanes) continue;
        for (const auto& [first, second] : {std::pair{v, w}, std::pair{w, v}}) {
          SlabProgram joined = p_;
          joined.warps[v] = p_.warps[first];
          joined.warps[v].insert(joined.warps[v].end(), p_.warps[second].begin(), p_.warps[second].end());
          joined.warps.erase(joined.warps.begin() + static_cast<long>(w));
          if (accept(c_, joined)) return true;
        }
      }
    return false;
  }

  bool fewer_buckets() {
    for (uint32_t b = 1; b < c_.buckets; ++b) {
      SlabConfig smaller = c_;
      smaller.buckets = b;
      if (accept(smaller, p_)) return true;
    }
    return false;
  }

  // Every use of key `from` becomes `to`, for each pair of the program's keys.
  bool fewer_keys() {
    std::set<uint32_t> keys;
    for (const auto& warp : p_.warps)
      for (const SlabTask& t : warp) keys.insert(t.key);
    for (auto to = keys.begin(); to != keys.end(); ++to)
      for (auto from = std::next(to); from != keys.end(); ++from) {
        SlabProgram merged = p_;
        for (auto& warp : merged.warps)
          for (SlabTask& t : warp)
            if (t.key == *from) t.key = *to;
        if (accept(c_, merged)) return true;
      }
    return false;
  }

  static constexpr uint64_t kTries = 100;
  SlabConfig c_;
  SlabProgram p_;
  std::vector<uint32_t> picks_;
  Failure kind_;
  const ExploreOptions& o_;
  PassedHistories passed_;
  JudgeOptions judged_;
};

}  // namespace

SlabExecution replay_slab(const SlabReplayInput& in, uint64_t max_points) {
  sim::ReplayStrategy exact(in.picks, /*strict=*/true);
  exact.begin_run(warp_count(in.program));
  return execute_slab(in.config, in.program, exact, max_points);
}

ExploreSummary run_slab_explore(const ExploreOptions& o, const SlabConfig& config) {
  if (const std::string why = slab_lanes_problem(config); !why.empty()) throw std::invalid_argument("slab hash: " + why);
  if (config.ops > config.lanes)
    throw std::invalid_argument("slab hash: " + std::to_string(config.ops) + " operations an actor of " +
                                std::to_string(config.lanes) + " lanes (one a lane)");
  SlabProgram program;
  SlabExecution e;
  HistoryExploration steps;
  steps.generate = [&](uint64_t seed) {
    program = generate_slab_program(config, seed);
    return warp_count(program);
  };
  steps.execute = [&](sim::Strategy& strategy) {
    e = execute_slab(config, program, strategy, o.max_points);
    return ExecutedRun{e.run.points, &e.history, 0, e.run.stale_reads, e.run.outside_writes};
  };
  PassedHistories passed;  // one exploration (one rank) meets the same histories again and again
  const JudgeOptions judged = schedule_judge_options(o, passed);
  steps.judge = [&] { return judge_slab(e, judged); };
  steps.report = [&](FailureReport& r) {
    SlabReplayInput minimal{config, program, e.run.picks};
    if (o.shrink)
      std::tie(minimal.config, minimal.program, minimal.picks) =
          SlabShrinker(config, program, e.run.picks, r.kind, o).run();
    const SlabExecution m = replay_slab(minimal, o.max_points);
    r.message = judge_slab(m, o.judge).message;
    r.schedule = slab_replay_string(minimal.config, minimal.program, m.run.picks);
    r.ops = minimal.program.size();
    const SlabConfig& mc = minimal.config;
    write_failure_files(r, o.out_dir,
                        "slab-" + slab_mode_name(mc.mode) +
                            (mc.mode == slab_hash::Mode::Multimap ? "-" + slab_variant_name(mc.variant) : "") +
                            (mc.light ? "" : "-regular") +
                            (mc.lanes == 32 ? "" : "-lanes" + std::to_string(mc.lanes)) +
                            (mc.mutant == slab_hash::Mutant::None ? "" : "-" + slab_mutant_name(mc.mutant)),
                        &m.history, &m.run);
  };
  return explore_histories(o, steps);
}

}  // namespace gpulin::explore
