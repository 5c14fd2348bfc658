#include "tools/explore_text.h"

#include <algorithm>

#include <fmt/core.h>

namespace gpulin::cli {

std::string strategy_text(const explore::ExploreOptions& o) {
  return fmt::format("strategy={}{} seed={}", o.strategy,
                     o.strategy == "pct"   ? fmt::format(" depth={}", o.depth)
                     : o.strategy == "dfs" ? fmt::format(" preemptions={}", o.preemptions)
                                           : "",
                     o.seed);
}

void print_counts(const std::string& strategy, const explore::ExploreSummary& s, bool histories) {
  const char* unit = histories ? "operations" : "input keys";
  fmt::print("  schedules            {}{}\n", s.schedules,
             strategy == "dfs" ? (s.exhaustive ? " (exhaustive within the bound)" : " (bound not exhausted)") : "");
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
  const bool in_subtree = strategy == "dfs" && s.units > 1;
  for (const auto& [kind, r] : s.first) {
    fmt::print("first {} ({}schedule {}), shrunk to {} {}:\n  {}\n  replay: gpulin replay --schedule '{}'\n",
               explore::to_string(kind), in_subtree ? fmt::format("subtree {}, ", r.unit) : "", r.found_at, r.ops, unit,
               r.message, r.schedule);
    if (!r.history_path.empty()) fmt::print("  history: {}\n", r.history_path);
  }
}

}  // namespace gpulin::cli
