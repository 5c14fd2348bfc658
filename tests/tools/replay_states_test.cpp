// The stepper's states (tools/registry/replay_states.h): for every structure with a
// drawing, a replay observed to its end and a fresh replay stopped at point P have
// the same shared words at P (what the page draws when it steps there, and what
// `gpulin replay --state-at P` prints), and the states are those of the run: they
// change along it, they are taken at every scheduling point, a point past the end
// is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "histories/point_states.h"
#include "tools/registry/registry.h"
#include "tools/registry/replay_states.h"

namespace replay_states_test {

using gpulin::registry::StructureRow;

// A planted bug's (or a paper variant's) first failure, as explore shrinks it:
// a real schedule of each structure, whatever its code makes of it.
std::string failing_schedule(const std::string& structure, const std::string& variant, const std::string& mutant,
                             std::map<std::string, std::string> params = {}) {
  const StructureRow* row = gpulin::registry::structures().find(structure);
  EXPECT_NE(row, nullptr) << structure;
  if (!row) return "";
  gpulin::registry::Selection s = gpulin::registry::default_selection(*row);
  if (!variant.empty()) s.variant = variant;
  s.mutant = mutant;
  for (const auto& [k, v] : params) s.params[k] = v;
  gpulin::explore::ExploreOptions o;
  o.schedules = 2000;
  o.seed = 1;
  const gpulin::explore::ExploreSummary sum = row->explore(o, s);
  EXPECT_FALSE(sum.first.empty()) << structure << " " << variant << " " << mutant << ": no failure to step through";
  return sum.first.empty() ? "" : sum.first.begin()->second.schedule;
}

struct Case {
  std::string structure, variant, mutant;
  std::map<std::string, std::string> params;
};

const std::vector<Case> kCases = {
    {"gheap-td", "paper", "none", {{"actors", "3"}, {"ops", "3"}}},
    {"gheap-bu", "fixed", "maxima-in-merged", {{"k", "2"}}},
    {"slab-map", "", "slab-insert-no-reread", {}},
    {"slab-multimap", "paper", "none", {}},
    {"psync", "", "psync-no-barrier", {}},
    {"bucket-heap", "paper", "none", {}},
    {"merge", "", "merge-window-overrun", {}},
    {"counter-array", "", "lost-update", {}},
};

TEST(ReplayStates, AStoppedReplayHasTheWordsOfTheFullReplayAtItsPoint) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.structure);
    const std::string schedule = failing_schedule(c.structure, c.variant, c.mutant, c.params);
    if (schedule.empty()) continue;
    const StructureRow* row = gpulin::registry::structures().owner_of_replay(schedule);
    ASSERT_NE(row, nullptr) << schedule;
    const gpulin::PointStates full = gpulin::registry::replay_states(*row, schedule, 200'000);
    const size_t n = full.size();
    ASSERT_GE(n, 3u) << schedule;
    EXPECT_FALSE(full.changes.empty()) << c.structure << ": no word changed along the run";
    EXPECT_EQ(full.change_end.size(), n);
    EXPECT_EQ(full.keyframes.size(), (n - 1) / full.keyframe_every + 1);
    // Points at both ends, in the middle and around each keyframe.
    std::set<size_t> probes = {0, 1, n / 3, n / 2, n - 2, n - 1};
    for (size_t k = full.keyframe_every; k < n; k += full.keyframe_every) probes.insert({k - 1, k, std::min(n - 1, k + 1)});
    for (size_t p : probes) {
      const gpulin::PointStates stopped = gpulin::registry::replay_states(*row, schedule, 200'000, p);
      ASSERT_EQ(stopped.size(), p + 1) << c.structure << " at " << p;
      EXPECT_EQ(stopped.words_at(p), full.words_at(p)) << c.structure << " at point " << p << " of " << n;
      EXPECT_EQ(stopped.actor[p], full.actor[p]) << c.structure << " at " << p;
      EXPECT_EQ(stopped.events[p], full.events[p]) << c.structure << " at " << p;
    }
    EXPECT_THROW(gpulin::registry::replay_states(*row, schedule, 200'000, n), std::out_of_range) << c.structure;
  }
}

// The states are the run's: one a scheduling point (and the end), the first the
// words before any step, the last the words after it.
TEST(ReplayStates, OneStateAPointAndTheEnd) {
  const std::string schedule = failing_schedule("counter-array", "", "lost-update");
  ASSERT_FALSE(schedule.empty());
  const StructureRow& row = *gpulin::registry::structures().owner_of_replay(schedule);
  const gpulin::registry::Replayed r = row.replay(schedule, 200'000);
  const gpulin::PointStates s = gpulin::registry::replay_states(row, schedule, 200'000);
  EXPECT_EQ(s.size(), r.run.points + 1);
  const std::vector<uint32_t> first = s.words_at(0), last = s.words_at(s.size() - 1);
  for (uint32_t w : first) EXPECT_EQ(w, 0u);  // locks free, counters zero
  EXPECT_NE(first, last);
  EXPECT_EQ(s.events.back(), r.history->events.size());
}

TEST(ReplayStates, EveryStructureDrawsItsState) {
  for (const std::string& name : gpulin::registry::structures().names()) {
    const StructureRow* row = gpulin::registry::structures().find(name);
    EXPECT_FALSE(row->draw_js.empty()) << name << " registers no drawing";
    EXPECT_TRUE(static_cast<bool>(row->state_layout)) << name << " registers no state layout";
  }
}

}  // namespace replay_states_test
