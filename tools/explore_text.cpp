#include "tools/explore_text.h"

#include <algorithm>

#include <fmt/core.h>

namespace gpulin::cli {

std::string strategy_text(const explore::ExploreOptions& o) {
  return fmt::format("strategy={}{} seed={}", o.strategy,
                     o.strategy == "pct"    ? fmt::format(" depth={}", o.depth)
                     : o.strategy == "dfs"  ? fmt::format(" preemptions={}", o.preemptions)
                     : o.strategy == "dpor" ? (o.symmetry ? "" : " symmetry=off")
                                            : "",
                     o.seed);
}

namespace {
// What partial-order reduction did, and how complete it was.
void print_dpor(const explore::DporSummary& s, uint64_t schedules, uint64_t traces) {
  const sim::DporStrategy::Stats& d = s.counts;
  const uint64_t repeats = schedules - d.redundant - std::min(traces, schedules - d.redundant);
  fmt::print("  traces               {}  (dpor: distinct Mazurkiewicz traces run; of the other runs {} were sleep-set "
             "blocked and {} repeated a trace: a race reversed into a wait, or parts of a split)\n",
             traces, d.redundant, repeats);
  fmt::print("  avoided              {} alternatives never run, each one equivalent schedule or more ({} of them "
             "renamings of actors)\n",
             d.pruned, d.symmetric);
  fmt::print("  races reversed       {} of {}\n", d.reversals, d.races);
  if (d.value_choices) fmt::print("  values run           {} other values of loads (ptx)\n", d.value_choices);
  fmt::print("  symmetry             {}\n",
             s.orbits ? fmt::format("{} orbits of {} actors (one representative explored per orbit)", s.orbits, s.actors)
                      : std::string("not used"));
}

// Coverage: distinct traces, and whether more schedules would still meet new ones.
void print_coverage(const explore::TraceCoverage& c, uint64_t schedules) {
  if (schedules == 0) return;
  fmt::print("  distinct traces      {}  ({} met once: the chance that one more schedule meets a new trace is about "
             "{:.1f} %; {} of the last {} schedules met a new one)\n",
             c.traces.size(), c.seen_once, 100.0 * static_cast<double>(c.seen_once) / static_cast<double>(schedules),
             c.recent_new, c.recent);
}
}  // namespace

void print_counts(const std::string& strategy, const explore::ExploreSummary& s, bool histories) {
  const char* unit = histories ? "operations" : "input keys";
  fmt::print("  schedules            {}{}\n", s.schedules,
             strategy == "dfs"    ? (s.exhaustive  ? " (exhaustive within the bound)"
                                     : s.timed_out ? " (bound not exhausted: the time limit came first)"
                                                   : " (bound not exhausted)")
             : strategy == "dpor" ? (s.dpor && s.dpor->complete ? " (complete: every trace of the program)"
                                     : s.timed_out           ? " (not complete: the time limit came first)"
                                     : s.exhaustive          ? " (not complete: a run reached the point budget)"
                                                             : " (not complete: the schedule cap came first)")
             : s.timed_out        ? " (the time limit came first)"
                                  : "");
  if (s.dpor) print_dpor(*s.dpor, s.schedules, s.coverage.traces.size());
  if (strategy == "dfs")
    fmt::print("  distinct traces      {}  (schedules that differ only in the order of independent steps are one)\n",
               s.coverage.traces.size());
  else if (!s.dpor)
    print_coverage(s.coverage, s.schedules);
  fmt::print("  scheduling points/s  {:.1f} M  ({} points in {:.2f} s of simulation; {:.2f} s in all)\n",
             s.points / std::max(s.sim_seconds, 1e-9) / 1e6, s.points, s.sim_seconds, s.total_seconds);
  if (s.stale_reads || s.outside_writes)
    fmt::print("  stale reads          {}  (ptx: loads that read an older store; {} words written around the model)\n",
               s.stale_reads, s.outside_writes);
  fmt::print("  distinct {}   {}\n", histories ? "histories" : "outputs  ", s.distinct_histories);
  if (histories) fmt::print("  searched histories   {}  (a repeat of a history that passed is not checked again)\n", s.searched);
  auto n = [&s](explore::Failure f) { auto it = s.counts.find(f); return it == s.counts.end() ? 0 : it->second; };
  fmt::print("  violations           {}\n", n(explore::Failure::Violation));
  if (histories) fmt::print("  invariant failures   {}\n", n(explore::Failure::Invariant));
  fmt::print("  deadlocks            {}\n", n(explore::Failure::Deadlock));
  fmt::print("  livelocks            {}\n", n(explore::Failure::Livelock));
  fmt::print("  faults               {}\n", n(explore::Failure::Fault));
  fmt::print("  races                {}\n", n(explore::Failure::Race));
  if (histories) {
    fmt::print("  proof-point failures {}  (witness rule fails, search linearizes)\n", n(explore::Failure::WitnessOnly));
    fmt::print("  undecided            {}\n", n(explore::Failure::Undecided));
  }
  // A split dfs numbers schedules within its subtrees (the parts of the search).
  const bool in_subtree = explore::is_systematic(strategy) && s.units > 1;
  for (const auto& [kind, r] : s.first) {
    fmt::print("first {} ({}schedule {}), shrunk to {} {}:\n  {}\n  replay: gpulin replay --schedule '{}'\n",
               explore::to_string(kind), in_subtree ? fmt::format("subtree {}, ", r.unit) : "", r.found_at, r.ops, unit,
               r.message, r.schedule);
    if (!r.history_path.empty()) fmt::print("  history: {}\n", r.history_path);
  }
}

}  // namespace gpulin::cli
