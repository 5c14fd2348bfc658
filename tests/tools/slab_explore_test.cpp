// The slab hash in the explorer (structures/slab_hash/sim/slab_explore.h): exploration passes
// the map and the set under PCT with both allocators, catches each mutant and
// shrinks it to a replay string that replays to the same failure; the findings'
// counterexamples (docs/findings.md, S1-S3) replay to the failures they show, and
// pass in the multimap's fixed variant.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "sim/strategies/dfs_strategy.h"
#include "sim/strategies/replay_strategy.h"
#include "tests/tools/explore_options.h"
#include "structures/slab_hash/sim/slab_explore.h"

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

// Under the ptx memory mode a search reads each pair whole (docs/findings.md M2):
// no violation, no invariant failure, no fault, while loads do read older stores.
// (Proof-point failures are M4's: the explicit points are not linearization points
// under the model.) With one 32-bit load a lane, the map's first violation came at
// schedule 25.
TEST(SlabExplore, UnderPtxPairsAreReadWhole) {
  for (Mode mode : {Mode::Map, Mode::Multimap}) {
    SlabConfig c;
    c.mode = mode;
    if (mode == Mode::Multimap) c.variant = slab_hash::Variant::Fixed;
    c.memory = sim::memory::MemoryMode::Ptx;
    const ExploreSummary s = run_slab_explore(pct_options(300), c);
    for (Failure f : {Failure::Violation, Failure::Invariant, Failure::Fault, Failure::Deadlock, Failure::Livelock})
      EXPECT_EQ(s.counts.count(f) ? s.counts.at(f) : 0, 0u) << slab_mode_name(mode) << " " << to_string(f) << "\n"
                                                            << describe(s);
    EXPECT_GT(s.stale_reads, 0u) << slab_mode_name(mode);
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

// ---- The multimap's fixed variant (structures/slab_hash/bucket_version.h): no
// spot reused, writers serialized by a version word a bucket, readers validated
// against it. It must pass the paper's multimap model where the paper variant
// fails (docs/findings.md S1, S3).

// The history's one operation named `f`.
// (`f` a pointer: GCC 13's -Wdangling-reference takes the reference returned for a
// temporary string argument for one into it.)
const Operation& op_named(const Replayed& r, const char* f) {
  const auto& ops = r.run.history.ops;
  const auto it = std::find_if(ops.begin(), ops.end(), [&](const Operation& op) { return op.f == f; });
  if (it == ops.end()) throw std::runtime_error(std::string("no ") + f + " in the history");
  return *it;
}

// The replay string `s` with `variant=fixed` added after its buckets field.
std::string fixed(const std::string& s) {
  const size_t bar = s.find('|');
  return s.substr(0, bar) + ":variant=fixed" + s.substr(bar);
}

// The explorer at its defaults (gpulin explore: PCT depth 3, seed 1, 4 warps x 16
// operations, keys < 40, one bucket) and with keys < 4, 10 000 schedules each: no
// failure of any kind (no violation, no proof-point failure, no livelock, deadlock,
// fault or broken table). The paper variant on the same schedules: hundreds of
// violations (keys < 4: thousands).
TEST(SlabFixedMultimap, PassesTenThousandPctSchedules) {
  for (uint32_t keys : {40u, 4u}) {
    ExploreOptions o;
    o.strategy = "pct";
    o.schedules = 10000;
    SlabConfig c;
    c.mode = Mode::Multimap;
    c.variant = slab_hash::Variant::Fixed;
    c.keys = keys;
    const ExploreSummary s = run_slab_explore(o, c);
    EXPECT_EQ(s.schedules, 10000u);
    EXPECT_TRUE(s.counts.empty()) << "keys < " << keys << "\n" << describe(s);
    EXPECT_GT(s.distinct_histories, 9000u);
  }
}

// S1 and S3's strings with variant=fixed: each program passes. The picks were
// written for the paper variant's scheduling points, so they are replayed
// leniently (followed while they fit); the strict strings below are the fixed
// variant's own.
TEST(SlabFixedMultimap, FindingsS1AndS3Pass) {
  for (const char* paper : {"slab-multimap:buckets=1|i0=1,i0=2,d0,i0=3,s0|",
                            "slab-multimap:buckets=1:alloc=regular|i0=1,i0=2,d0,i0=3,s0|",
                            "slab-multimap:buckets=1|d0;i0=1,i0=2,i0=3,s0|1.0.1*3.0*2.1.0",
                            "slab-multimap:buckets=1|i0=1,i0=2,s0;x0|0*6.1*5.0",
                            "slab-multimap:buckets=1|i0=1,s0;x0|0*4.1*4.0"}) {
    const SlabReplayInput in = parse_slab_replay_string(fixed(paper));
    EXPECT_EQ(in.config.variant, slab_hash::Variant::Fixed);
    sim::ReplayStrategy lenient(in.picks, /*strict=*/false);
    lenient.begin_run(static_cast<uint32_t>(in.program.warps.size()));
    const SlabExecution e = execute_slab(in.config, in.program, lenient, 200'000);
    const Judgement j = judge_slab(e, JudgeOptions{});
    EXPECT_EQ(j.failure, Failure::None) << fixed(paper) << ": " << j.message;
  }
  // S1 with one warp: DELETE marks (0, 1) DELETED, INSERT(0, 3) takes a fresh spot
  // after (0, 2), and SEARCH returns the least recent pair left, 2.
  const Replayed one = replay("slab-multimap:buckets=1:variant=fixed|i0=1,i0=2,d0,i0=3,s0|");
  EXPECT_EQ(one.judgement.failure, Failure::None) << one.judgement.message;
  EXPECT_EQ(result(one, 4), "2");
  // S1's two-warp form, its picks extended to the fixed variant's points.
  const Replayed two = replay("slab-multimap:buckets=1:variant=fixed|d0;i0=1,i0=2,i0=3,s0|1.0.1*3.0*2.1.0*5");
  EXPECT_EQ(two.judgement.failure, Failure::None) << two.judgement.message;
  EXPECT_EQ(result(two, 4), "2");
  const Replayed three = replay("slab-multimap:buckets=1:variant=fixed|i0=1,s0;x0|0*4.1*4.0*3");
  EXPECT_EQ(three.judgement.failure, Failure::None) << three.judgement.message;
}

// Every schedule with at most two preemptions of S1's and S3's programs passes in
// the fixed variant (DFS, exhausted).
TEST(SlabFixedMultimap, FindingProgramsPassEveryScheduleWithTwoPreemptions) {
  for (const char* s : {"slab-multimap:buckets=1:variant=fixed|d0;i0=1,i0=2,i0=3,s0|",
                        "slab-multimap:buckets=1:variant=fixed|i0=1,i0=2,s0;x0|",
                        "slab-multimap:buckets=1:variant=fixed|i0=1,s0;x0|",
                        "slab-multimap:buckets=1:variant=fixed|i0=1,i0=2;x0;a0|"}) {
    const SlabReplayInput in = parse_slab_replay_string(s);
    sim::DfsStrategy dfs(2);
    uint64_t runs = 0;
    while (dfs.begin_run(static_cast<uint32_t>(in.program.warps.size()))) {
      const SlabExecution e = execute_slab(in.config, in.program, dfs, 200'000);
      const Judgement j = judge_slab(e, JudgeOptions{});
      ++runs;
      ASSERT_EQ(j.failure, Failure::None) << s << " picks " << slab_replay_string(in.config, in.program, e.run.picks)
                                          << ": " << j.message;
    }
    EXPECT_TRUE(dfs.exhausted()) << s;
    EXPECT_GT(runs, 10u) << s;
  }
}

// S3's interleaving in the fixed variant: SEARCH(0) reads the version (even), then
// DELETEALL(0) takes the bucket and removes (0, 1); the search's scan finds (0, 2).
// Its re-read of the version differs, so that scan is thrown away; the search
// waits out the hold and scans again after the DELETEALL: null. Without the
// version check (the scan's answer kept) the same schedule returns 2, S3's
// violation.
TEST(SlabFixedMultimap, ASearchInsideADeleteAllScansAgain) {
  const Replayed r = replay("slab-multimap:buckets=1:variant=fixed|i0=1,i0=2,s0;x0|0*13.1*7.0*3");
  EXPECT_EQ(r.judgement.failure, Failure::None) << r.judgement.message;
  const Operation& search = op_named(r, "search");
  const Operation& deleteall = op_named(r, "deleteall");
  EXPECT_LT(search.inv_t, deleteall.inv_t);  // the search began first ...
  EXPECT_GT(search.ret_t, deleteall.ret_t);  // ... and answered after the DELETEALL
  ASSERT_TRUE(search.res);
  EXPECT_EQ(search.res->to_json(), "null");
}

// SEARCHALL over a list of two slabs (docs/findings.md, S1: with spots no longer
// reused, this was the multimap's one remaining violation). Warp 0 fills the base
// slab with (0, 1) and 14 pairs of key 1, puts (0, 16) in a second slab, then
// deletes (0, 1) and inserts (0, 17); warp 1's SEARCHALL(0) reads the base slab
// before the delete removes (0, 1) and the second slab after the insert. Kept, that scan would
// answer [1, 16, 17], a set the multimap never held; the version changed between
// its reads, so the search scans again and answers [16, 17]. Without the version
// check this schedule is a violation.
TEST(SlabFixedMultimap, ASearchAllOverTwoSlabsIsValidated) {
  std::string program = "i0=1";
  for (uint32_t v = 2; v <= 15; ++v) program += ",i1=" + std::to_string(v);
  program += ",i0=16,d0,i0=17;a0";
  const Replayed r = replay("slab-multimap:buckets=1:variant=fixed|" + program + "|0*87.1*4.0*10.1*3");
  EXPECT_EQ(r.judgement.failure, Failure::None) << r.judgement.message;
  ASSERT_EQ(r.run.history.ops.size(), 19u);
  const Operation& searchall = op_named(r, "searchall");
  const Operation& last_insert = r.run.history.ops.back();  // by invocation: INSERT(0, 17)
  ASSERT_EQ(last_insert.args.to_json(), "[0,17]");
  EXPECT_LT(searchall.inv_t, op_named(r, "delete").ret_t);  // in flight across the delete ...
  EXPECT_GT(searchall.ret_t, last_insert.ret_t);            // ... and the whole insert
  ASSERT_TRUE(searchall.res);
  EXPECT_EQ(searchall.res->to_json(), "[16,17]");
}

// Replay strings: variant=fixed round-trips and is the multimap's alone; strings
// without it are the paper variant, as before.
TEST(SlabFixedMultimap, TheVariantIsInTheReplayString) {
  const SlabReplayInput old = parse_slab_replay_string("slab-multimap:buckets=1|i0=1,s0|");
  EXPECT_EQ(old.config.variant, slab_hash::Variant::Paper);
  EXPECT_EQ(slab_replay_string(old.config, old.program, old.picks), "slab-multimap:buckets=1|i0=1,s0|");
  const std::string s = "slab-multimap:buckets=2:variant=fixed:alloc=regular|i0=1,s0;a0|1.0";
  const SlabReplayInput in = parse_slab_replay_string(s);
  EXPECT_EQ(in.config.variant, slab_hash::Variant::Fixed);
  EXPECT_EQ(slab_replay_string(in.config, in.program, in.picks), s);
  EXPECT_EQ(parse_slab_replay_string("slab-multimap:buckets=1:variant=paper|s0|").config.variant,
            slab_hash::Variant::Paper);
  for (const char* bad : {"slab-map:buckets=1:variant=fixed|s0|", "slab-set:buckets=1:variant=fixed|s0|",
                          "slab-multimap:buckets=1:variant=nope|s0|"})
    EXPECT_THROW(parse_slab_replay_string(bad), std::invalid_argument) << bad;
}

}  // namespace
}  // namespace gpulin::explore
