// The P-Sync parallel heap in the explorer (structures/psync/sim/psync_explore.h): the
// heap passes under PCT for several node capacities, each planted mutant is caught,
// shrunk to a replay string that replays to the same failure (and the same program
// without the mutant passes under that schedule), random programs under random
// schedules keep every cycle's result (RapidCheck), and bad replay strings are
// refused naming the field.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "sim/strategies/random_strategy.h"
#include "sim/strategies/replay_strategy.h"
#include "tests/tools/explore_options.h"
#include "structures/psync/sim/psync_explore.h"

namespace gpulin::explore {
namespace {

std::string describe(const ExploreSummary& s) {
  std::string text;
  for (const auto& [kind, r] : s.first) text += std::string(to_string(kind)) + ": " + r.message + "\n  " + r.schedule + "\n";
  return text;
}

TEST(PsyncExplore, TheHeapPassesForSeveralNodeCapacities) {
  for (uint32_t r : {1u, 2u, 3u, 5u}) {
    PsyncConfig c;
    c.r = r;
    c.cycles = 24;
    const ExploreSummary s = run_psync_explore(pct_options(300), c);
    EXPECT_FALSE(s.found_bug()) << "r=" << r << "\n" << describe(s);
    EXPECT_EQ(s.schedules, 300u);
    EXPECT_GT(s.distinct_histories, 250u);
  }
}

TEST(PsyncExplore, EveryMutantIsCaughtShrunkAndReplays) {
  for (const std::string& name : psync_mutant_names()) {
    PsyncConfig c;
    c.mutant = *parse_psync_mutant(name);
    const ExploreSummary s = run_psync_explore(pct_options(1000), c);
    ASSERT_TRUE(s.found_bug()) << name << " was not caught";
    // Some runs break the heap property at a barrier while every cycle's result so
    // far is right: the barrier check sees the bug before the history does.
    EXPECT_EQ(s.first.count(Failure::Invariant), 1u) << name << "\n" << describe(s);
    for (const auto& [kind, r] : s.first) {
      SCOPED_TRACE(name + " " + to_string(kind) + ": " + r.schedule);
      EXPECT_LT(r.ops, 10u);  // from 16 cycles to the few that show the bug
      const PsyncReplayInput in = parse_psync_replay_string(r.schedule);
      EXPECT_EQ(in.config.mutant, c.mutant);
      EXPECT_EQ(in.program.cycles.size(), r.ops);
      EXPECT_EQ(psync_replay_string(in.config, in.program, in.picks), r.schedule);  // round trip
      const PsyncExecution again = replay_psync(in, 200'000);
      const Judgement j = judge_psync(again, JudgeOptions{});
      EXPECT_EQ(j.failure, kind);
      EXPECT_EQ(j.message, r.message);
      PsyncConfig fixed = in.config;
      fixed.mutant = psync::Mutant::None;
      sim::ReplayStrategy lenient(in.picks, /*strict=*/false);
      lenient.begin_run(psync_actors(fixed, in.program));
      EXPECT_EQ(judge_psync(execute_psync(fixed, in.program, lenient, 200'000), JudgeOptions{}).failure, Failure::None);
    }
  }
}

// Random programs (r, cycle sizes and keys drawn by RapidCheck, which prints its
// seed and shrinks a failure) under random schedules: every run completes, every
// cycle returns the r smallest keys, the heap property holds at every barrier and
// the keys left at rest are exactly the ones not handed out.
RC_GTEST_PROP(PsyncSim, RandomProgramsKeepEveryCycle, ()) {
  PsyncConfig c;
  c.r = *rc::gen::inRange<uint32_t>(1, 7);
  PsyncProgram p;
  const auto cycles = *rc::gen::inRange<size_t>(1, 30);
  for (size_t i = 0; i < cycles; ++i)
    p.cycles.push_back(*rc::gen::container<std::vector<uint32_t>>(*rc::gen::inRange<size_t>(0, 2 * c.r + 1),
                                                                  rc::gen::inRange<uint32_t>(0, 50)));
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  sim::RandomStrategy random(seed);
  random.begin_run(psync_actors(c, p));
  const PsyncExecution e = execute_psync(c, p, random, 1'000'000);
  const Judgement j = judge_psync(e, JudgeOptions{});
  RC_ASSERT(j.failure == Failure::None);
  RC_ASSERT(e.history.ops.size() == cycles);
}

// A step block's threads are a parameter (2 unless asked): the heap passes with 7,
// and the replay string keeps the count, round trip included.
TEST(PsyncExplore, AStepBlocksThreadsAreAParameterTheStringKeeps) {
  PsyncConfig c;
  c.threads = 7;
  const ExploreSummary s = run_psync_explore(pct_options(200), c);
  EXPECT_FALSE(s.found_bug()) << describe(s);
  const PsyncReplayInput in = parse_psync_replay_string("psync:r=2:threads=7|1,2;3|0*4");
  EXPECT_EQ(in.config.threads, 7u);
  EXPECT_EQ(psync_replay_string(in.config, in.program, in.picks), "psync:r=2:threads=7|1,2;3|0*4");
  EXPECT_EQ(parse_psync_replay_string("psync:r=2|1|").config.threads, 2u);
}

TEST(PsyncExplore, BadReplayStringsNameTheField) {
  const std::pair<const char*, const char*> bad[] = {
      {"psync:r=0|1|", "r must be"},
      {"psync:r=x|1|", "r 'x'"},
      {"psync:mutant=psync-no-barrier|1|", "needs r"},
      {"psync:r=1:mutant=nope|1|", "unknown mutant"},
      {"psync:r=1:depth=2|1|", "config field"},
      {"psync:r=1|1,2,3|", "at most 2r"},
      {"psync:r=1|1,|", "key ''"},
      {"psync:r=1|1", "want psync"},
      {"psync:r=1:threads=2000|1|", "threads must be 1..1024"},
  };
  for (const auto& [schedule, field] : bad) {
    try {
      parse_psync_replay_string(schedule);
      ADD_FAILURE() << schedule << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << schedule << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace gpulin::explore
