#include "tools/explore/survey_table.h"

#include <algorithm>

#include <fmt/core.h>

namespace gpulin::explore {

namespace {

uint64_t count(const ExploreSummary& s, Failure f) {
  const auto it = s.counts.find(f);
  return it == s.counts.end() ? 0 : it->second;
}

// The first failure worth replaying: a bug first, else an undecided history.
std::string first_failure(const ExploreSummary& s) {
  for (bool bugs : {true, false})
    for (const auto& [kind, r] : s.first)
      if (bugs ? is_bug(kind) : kind == Failure::Undecided)
        return fmt::format("{} ({} ops): {}", to_string(kind), r.ops, r.schedule);
  return "-";
}

constexpr const char* kRow = "{:<14} {:<9} {:>9} {:>9} {:>10} {:>9} {:>9} {:>9} {:>6} {:>5} {:>7} {:>9}  {}\n";

}  // namespace

std::string survey_header() {
  return fmt::format(kRow, "structure", "variant", "schedules", "Mpoints/s", "histories", "violation", "invariant",
                     "deadlock", "fault", "race", "proof", "undecided", "first failure (replay with gpulin replay)");
}

std::string survey_row(const std::string& structure, const std::string& variant, const ExploreSummary& s) {
  return fmt::format(kRow, structure, variant, s.schedules,
                     fmt::format("{:.1f}", s.points / std::max(s.sim_seconds, 1e-9) / 1e6), s.distinct_histories,
                     count(s, Failure::Violation), count(s, Failure::Invariant),
                     count(s, Failure::Deadlock) + count(s, Failure::Livelock), count(s, Failure::Fault),
                     count(s, Failure::Race), count(s, Failure::WitnessOnly), count(s, Failure::Undecided), first_failure(s));
}

std::string survey_legend() {
  return "columns: violation = no linearization exists (search), or the merge's output is wrong; invariant =\n"
         "the structure at rest broke its own properties (heap properties 1-3, a well-formed slab list, a lock\n"
         "left held); deadlock = every live actor blocked (or livelock); fault = the structure stopped itself\n"
         "(capacity, impossible state) or broke the lock protocol; race = under --memory ptx, two accesses no\n"
         "causality orders, not both strong (the run stops at the first); proof = the paper's linearization\n"
         "points (root-release / last-lock / explicit) fail although the history is linearizable; undecided =\n"
         "the search ran out of its budget: not a pass. histories: distinct histories (the merge: outputs).\n";
}

bool survey_clean(const ExploreSummary& s) { return !s.found_bug() && count(s, Failure::Undecided) == 0; }

}  // namespace gpulin::explore
