// The slab hash in the explorer (tools/explore/slab_explore.h): exploration passes
// the map and the set under PCT with both allocators, catches each mutant and
// shrinks it to a replay string that replays to the same failure; the findings'
// counterexamples (docs/findings.md, S1-S3) replay to the failures they show.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "sim/strategies/replay_strategy.h"
#include "tests/tools/explore_options.h"
#include "tools/explore/slab_explore.h"

namespace gpulin::explore {
namespace {

using slab_hash::Mode;
using slab_hash::Mutant;

std::string describe(const ExploreSummary& s) {
  std::string text;
  for (const auto& [kind, r] : s.first) text += std::string(to_string(kind)) + ": " + r.message + "\n  " + r.schedule + "\n";
  return text;
}

// The failure a replay string comes to, and the run's history.
struct Replayed {
  Judgement judgement;
  SlabExecution run;
};
Replayed replay(const std::string& schedule) {
  const SlabExecution e = replay_slab(parse_slab_replay_string(schedule), 200'000);
  return {judge_slab(e, JudgeOptions{}), e};
}

TEST(SlabExplore, MapAndSetPassWithBothAllocators) {
  for (Mode mode : {Mode::Map, Mode::Set})
    for (bool light : {true, false}) {
      SlabConfig c;
      c.mode = mode;
      c.light = light;
      const ExploreSummary s = run_slab_explore(pct_options(300), c);
      EXPECT_FALSE(s.found_bug()) << slab_mode_name(mode) << "\n" << describe(s);
      EXPECT_EQ(s.schedules, 300u);
      EXPECT_GT(s.distinct_histories, 250u);
      EXPECT_GT(s.points, 300u * 64);  // 64 operations, each at least a slab read
    }
}

// One test a mutant, so that ctest -j runs them side by side (under ASan the three
// together took 293 s, the sanitizer suite's last and longest test).
class SlabMutantExplore : public testing::TestWithParam<std::string> {};

TEST_P(SlabMutantExplore, IsCaughtShrunkAndReplays) {
  const std::string& name = GetParam();
  SlabConfig c;
  c.mutant = *parse_slab_mutant(name);
  const ExploreSummary s = run_slab_explore(pct_options(300), c);
  ASSERT_TRUE(s.found_bug()) << name << " was not caught";
  for (const auto& [kind, r] : s.first) {
    SCOPED_TRACE(name + " " + to_string(kind) + ": " + r.schedule);
    // From 64 generated operations: bugs to about the least that shows them (a
    // second slab takes 16 keys); proof-point failures need more interleaving.
    EXPECT_LT(r.ops, is_bug(kind) ? 20u : 32u);
    const SlabReplayInput in = parse_slab_replay_string(r.schedule);
    EXPECT_EQ(in.config.mutant, c.mutant);
    EXPECT_EQ(in.program.size(), r.ops);
    EXPECT_EQ(slab_replay_string(in.config, in.program, in.picks), r.schedule);  // round trip
    const Replayed again = replay(r.schedule);
    EXPECT_EQ(again.judgement.failure, kind);
    EXPECT_EQ(again.judgement.message, r.message);
    if (!is_bug(kind)) continue;
    // The same program without the mutant is no bug under the same schedule.
    SlabConfig fixed = in.config;
    fixed.mutant = Mutant::None;
    sim::ReplayStrategy lenient(in.picks, /*strict=*/false);
    lenient.begin_run(static_cast<uint32_t>(in.program.warps.size()));
    EXPECT_FALSE(is_bug(judge_slab(execute_slab(fixed, in.program, lenient, 200'000), JudgeOptions{}).failure));
  }
}

INSTANTIATE_TEST_SUITE_P(EveryMutant, SlabMutantExplore, testing::ValuesIn(slab_mutant_names()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string id = info.param;
                           std::replace(id.begin(), id.end(), '-', '_');
                           return id;
                         });

TEST(SlabExplore, ShrinkingMakesTheFewestWarpsAndKeys) {
  // slab-insert-no-reread: two inserts of one key race for the same EMPTY spot;
  // the loser takes the next spot without re-reading, and the key lives twice.
  SlabConfig c;
  c.mutant = Mutant::InsertNoReread;
  c.buckets = 3;
  const ExploreSummary s = run_slab_explore(pct_options(300), c);
  ASSERT_TRUE(s.first.count(Failure::Invariant)) << describe(s);
  const FailureReport& r = s.first.at(Failure::Invariant);
  EXPECT_EQ(r.ops, 2u);
  const SlabReplayInput in = parse_slab_replay_string(r.schedule);
  EXPECT_EQ(in.config.buckets, 1u);
  ASSERT_EQ(in.program.warps.size(), 2u);
  EXPECT_EQ(in.program.warps[0][0].key, 0u);  // renumbered
  EXPECT_EQ(in.program.warps[1][0].key, 0u);
}

TEST(SlabExplore, MalformedReplayStringsNameTheField) {
  const std::pair<const char*, const char*> bad[] = {
      {"slab-map:buckets=0|i1=2|", "buckets"},       {"slab-map:buckets=x|i1=2|", "buckets"},
      {"slab-tree:buckets=1|i1=2|", "structure"},    {"slab-map:buckets=1:alloc=big|i1=2|", "config field"},
      {"slab-map:buckets=1:mutant=nope|i1=2|", "mutant"}, {"slab-map:buckets=1|q1|", "operation"},
      {"slab-map:buckets=1|i1=x|", "value"},         {"slab-map:buckets=1|iq=1|", "key"},
      {"slab-map:buckets=1|i4294967295=1|", "key"},  {"slab-map:buckets=1|i1=2", "PICKS"},
  };
  for (const auto& [text, field] : bad) {
    try {
      parse_slab_replay_string(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << text << ": " << e.what();
    }
  }
  // Well-formed, but the picks do not fit the program: strict replay refuses it.
  EXPECT_THROW(replay("slab-map:buckets=1|i1=2;s1|9"), std::runtime_error);
}

// The result of the history's i-th operation (by invocation), as JSON.
std::string result(const Replayed& r, size_t i) {
  const Operation& op = r.run.history.ops.at(i);
  return op.res ? op.res->to_json() : "pending";
}

// S1: the paper's SEARCH returns the least recently inserted pair, and its multimap
// DELETE empties the spot for later INSERTs. Together, with one warp (no concurrency
// at all): the third insert takes the spot the delete freed, ahead of the older
// pair (0, 2), and SEARCH returns the newest value.
TEST(SlabFindings, S1MultimapSearchReturnsANewerPairFromAFreedSpot) {
  for (const char* s : {"slab-multimap:buckets=1|i0=1,i0=2,d0,i0=3,s0|",
                        "slab-multimap:buckets=1:alloc=regular|i0=1,i0=2,d0,i0=3,s0|"}) {
    const Replayed r = replay(s);
    EXPECT_EQ(r.judgement.failure, Failure::Violation) << s << ": " << r.judgement.message;
    EXPECT_EQ(result(r, 4), "3");  // the model: 2, the least recent pair left
    EXPECT_TRUE(is_bug(r.judgement.failure));
  }
}

// S2: in the unique modes a DELETE writes DELETED with a plain store (Fig. 2 line
// 59). When another delete of the key wrote DELETED between this delete's read and
// its store, and an insert put the key in a new spot, the store changes nothing: the
// delete took effect before the other delete, not at its store. The history is
// linearizable (the search finds an order), the recorded points are not.
TEST(SlabFindings, S2UniqueDeleteDoesNotTakeEffectAtItsStore) {
  for (const auto& [s, found] : {std::pair{"slab-map:buckets=1|d0,i0=1;i0=2,d0,s0|1*5.0*6", "1"},
                                 std::pair{"slab-set:buckets=1|d0,i0;i0,d0,s0|1*5.0*6", "true"},
                                 std::pair{"slab-map:buckets=1:alloc=regular|d0,i0=1;i0=2,d0,s0|1*5.0*6", "1"}}) {
    const Replayed r = replay(s);
    EXPECT_EQ(r.judgement.failure, Failure::WitnessOnly) << s << ": " << r.judgement.message;
    EXPECT_FALSE(is_bug(r.judgement.failure));
    EXPECT_EQ(result(r, 4), found) << s;  // the model, in the order of the points: absent
  }
}

// S3: DELETEALL empties the key's pairs one CAS at a time; a SEARCH between two of
// them returns a pair that is neither the least recent (before the DELETEALL) nor
// absent (after it). With one pair, its recorded point (the final read) comes after
// the CAS that emptied the pair, and a search in between is explained by no point
// of the rule.
TEST(SlabFindings, S3DeleteAllIsNotAtomic) {
  const Replayed v = replay("slab-multimap:buckets=1|i0=1,i0=2,s0;x0|0*6.1*5.0");
  EXPECT_EQ(v.judgement.failure, Failure::Violation) << v.judgement.message;
  EXPECT_EQ(result(v, 2), "2");  // the search: 1 before the deleteall, null after
  const Replayed w = replay("slab-multimap:buckets=1|i0=1,s0;x0|0*4.1*4.0");
  EXPECT_EQ(w.judgement.failure, Failure::WitnessOnly) << w.judgement.message;
}

}  // namespace
}  // namespace gpulin::explore
