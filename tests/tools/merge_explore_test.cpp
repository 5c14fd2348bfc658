// The global merge in the explorer (structures/merge_path/sim/): the simulated merge
// agrees with std::merge (stable, A first on equal keys) on random inputs under
// several schedules; exploration passes the correct merge and catches the
// compile-time mutants (merge-window-overrun, and the races merge-early-release and
// merge-no-warp-sync), whose replay strings replay to the same failure.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/strategies/pct_strategy.h"
#include "sim/strategies/random_strategy.h"
#include "sim/strategies/replay_strategy.h"
#include "tests/tools/explore_options.h"
#include "structures/merge_path/sim/merge_explore.h"
#include "structures/merge_path/sim/merge_run.h"

namespace gpulin::explore {
namespace {

std::vector<uint32_t> sorted_keys(uint32_t max_len, uint32_t distinct) {
  const auto n = *rc::gen::inRange<uint32_t>(0, max_len + 1);
  auto v = *rc::gen::container<std::vector<uint32_t>>(n, rc::gen::inRange<uint32_t>(0, distinct));
  std::sort(v.begin(), v.end());
  return v;
}

RC_GTEST_PROP(MergeInSimulator, AgreesWithStdMergeUnderSeveralSchedules, ()) {
  const uint32_t distinct = *rc::gen::element<uint32_t>(1, 2, 5, 1000);
  MergeProgram p;
  p.a = sorted_keys(150, distinct);
  p.b = sorted_keys(150, distinct);
  p.off_a = *rc::gen::inRange<uint32_t>(0, 4);
  p.off_b = *rc::gen::inRange<uint32_t>(0, 4);
  p.off_c = *rc::gen::inRange<uint32_t>(0, 4);
  MergeConfig c;
  c.blocks = *rc::gen::inRange<uint32_t>(1, kMergeMaxBlocks + 1);
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  for (uint64_t s = 0; s < 4; ++s) {
    sim::PctStrategy pct(seed + s, 3);
    sim::RandomStrategy rnd(seed + s);
    sim::Strategy& strategy = s % 2 ? static_cast<sim::Strategy&>(rnd) : static_cast<sim::Strategy&>(pct);
    const MergeExecution e = execute_merge(c, p, strategy, 1'000'000);
    RC_ASSERT(e.ran);
    const Judgement j = judge_merge(e);
    RC_ASSERT(j.failure == Failure::None);
    // The judgement's own ground: the output is the stable merge, tags included.
    const size_t n = p.size();
    RC_ASSERT(std::vector<uint32_t>(e.keys.begin(), e.keys.begin() + n) ==
              std::vector<uint32_t>(e.expected_keys.begin(), e.expected_keys.begin() + n));
    RC_ASSERT(std::is_sorted(e.keys.begin(), e.keys.begin() + n));
  }
}

TEST(MergeExplore, CorrectMergePassesEverySchedule) {
  const ExploreSummary s = run_merge_explore(pct_options(300), MergeConfig{});
  EXPECT_FALSE(s.found_bug());
  EXPECT_EQ(s.schedules, 300u);
  EXPECT_TRUE(s.counts.empty());
  EXPECT_GT(s.points, 300u);
}

// A mutant's report replays to the same failure and message; the same inputs and
// picks without the mutant merge correctly.
void expect_replays_and_fixed_passes(const FailureReport& r, Failure failure) {
  const MergeReplayInput in = parse_merge_replay_string(r.schedule);
  EXPECT_EQ(in.program.size(), r.ops);
  EXPECT_EQ(merge_replay_string(in.config, in.program, in.picks), r.schedule);  // round trip
  sim::ReplayStrategy exact(in.picks, /*strict=*/true);
  const Judgement j = judge_merge(execute_merge(in.config, in.program, exact, 200'000));
  EXPECT_EQ(j.failure, failure);
  EXPECT_EQ(j.message, r.message);
  MergeConfig fixed = in.config;
  fixed.mutant = merge_path::MergeMutant::None;
  sim::ReplayStrategy lenient(in.picks, /*strict=*/false);
  EXPECT_EQ(judge_merge(execute_merge(fixed, in.program, lenient, 200'000)).failure, Failure::None);
}

TEST(MergeExplore, WindowOverrunIsCaughtShrunkAndReplays) {
  MergeConfig c;
  c.mutant = merge_path::MergeMutant::WindowOverrun;
  const ExploreSummary s = run_merge_explore(pct_options(300), c);
  ASSERT_TRUE(s.found_bug());
  ASSERT_TRUE(s.first.count(Failure::Violation));
  const FailureReport& r = s.first.at(Failure::Violation);
  EXPECT_NE(r.message.find("wrong result"), std::string::npos) << r.message;
  // Shrunk: two windows (33 keys) are the least an overrun into a next window needs.
  EXPECT_EQ(r.ops, ExploreMergePolicy::tile + 1) << r.schedule;

  EXPECT_EQ(parse_merge_replay_string(r.schedule).config.mutant, merge_path::MergeMutant::WindowOverrun);
  expect_replays_and_fixed_passes(r, Failure::Violation);
}

// The splits pass from search warps to copy warps through global memory, published
// by a batch's flag (a release store) and taken under the flag's load (an acquire).
// Under ptx, without either half a copy warp can read a split from before its
// search and issue a window from stale corners (ablate's finding, docs/findings.md);
// with both, or under sc, the same schedule merges correctly.
TEST(MergeExplore, TheSplitsNeedTheirFlagsReleaseAndAcquireUnderPtx) {
  for (const char* weakened : {"structures/merge_path/global_merge.h@356@no-release",
                               "structures/merge_path/global_merge.h@382@no-acquire"}) {
    const std::string schedule = std::string("merge:blocks=1:memory=ptx@") + weakened + "|a=0:;b=0:10;c=0|0*6.1*2.0*2.1*5.r1*2.r0";
    const MergeReplayInput in = parse_merge_replay_string(schedule);
    sim::ReplayStrategy exact(in.picks, /*strict=*/true);
    const Judgement j = judge_merge(execute_merge(in.config, in.program, exact, 200'000));
    EXPECT_EQ(j.failure, Failure::Fault) << weakened;
    EXPECT_NE(j.message.find("stale corners"), std::string::npos) << j.message;
    for (const char* as_written : {"merge:blocks=1:memory=ptx|a=0:;b=0:10;c=0|", "merge:blocks=1|a=0:;b=0:10;c=0|"}) {
      const MergeReplayInput w = parse_merge_replay_string(as_written);
      sim::ReplayStrategy lenient(in.picks, /*strict=*/false);
      EXPECT_EQ(judge_merge(execute_merge(w.config, w.program, lenient, 200'000)).failure, Failure::None) << as_written;
    }
  }
}

// The block's shared memory is checked for races between its threads (the lanes'
// clocks, sim/private_memory/lane_clocks.h), under sc as under ptx. A consumer thread
// that hands its stage back before merging from it (merge-early-release) races with
// the refill; a warp that stores its slice without __syncwarp after its lanes wrote
// the buffer (merge-no-warp-sync) races within the warp. Neither changes an output in
// the simulator, whose lanes run in turn: only the clocks see them. Each is shrunk
// (a refill needs a third window: 2 * 32 + 1 keys), names both accesses, and
// replays; the merge as written replays the same picks clean.
TEST(MergeExplore, TheStagesAndBuffersNeedTheirBarriers) {
  struct Case {
    merge_path::MergeMutant mutant;
    uint64_t ops;
    const char* first;
    const char* second;
  };
  const Case cases[] = {
      {merge_path::MergeMutant::EarlyRelease, 2 * ExploreMergePolicy::tile + 1,
       "read it in the for_each_lane at structures/merge_path/global_merge.h", "lane 0 of warp 2"},
      {merge_path::MergeMutant::NoWarpSync, 4, "lane 1 of warp 0 wrote it in the for_each_lane",
       "lane 0 of warp 0 read it in the for_each_lane"},
  };
  for (const Case& k : cases) {
    MergeConfig c;
    c.mutant = k.mutant;
    const ExploreSummary s = run_merge_explore(pct_options(300), c);
    ASSERT_TRUE(s.first.count(Failure::Race)) << merge_mutant_name(k.mutant);
    const FailureReport& r = s.first.at(Failure::Race);
    EXPECT_EQ(r.ops, k.ops) << r.schedule;
    EXPECT_NE(r.message.find(k.first), std::string::npos) << r.message;
    EXPECT_NE(r.message.find(k.second), std::string::npos) << r.message;
    EXPECT_EQ(s.counts.count(Failure::Violation), 0u) << "the lanes run in turn: no output is wrong";
    expect_replays_and_fixed_passes(r, Failure::Race);
  }
}

TEST(MergeExplore, MalformedReplayStringsAreRejected) {
  for (const char* bad : {"merge:blocks=3|a=0:1,2;b=0:3|", "merge:blocks=0|a=0:;b=0:;c=0|", "merge:blocks=3|a=0:2,1;b=0:;c=0|",
                          "merge:blocks=3:mutant=nope|a=0:;b=0:;c=0|", "merge:blocks=3|a=9:;b=0:;c=0|"})
    EXPECT_THROW(parse_merge_replay_string(bad), std::invalid_argument) << bad;
}

}  // namespace
}  // namespace gpulin::explore
