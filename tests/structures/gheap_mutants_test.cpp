// Every named mutant must be caught by PCT exploration of the FIXED heap it
// applies to, within 10 000 schedules (4 actors x 8 ops, k = 4): the ordering
// mutants under the ptx memory mode (under sc they run the fixed heap's code),
// except relaxed-locks-fenced, the control that must pass.
#include <gtest/gtest.h>

#include <optional>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sim/strategies/replay_strategy.h"
#include "structures/gheap/sim/heap_explore.h"

namespace gpulin::explore {
namespace {

struct Case {
  gheap::Mutant mutant;
  gheap::Flavor flavor;
};

std::string case_name(const testing::TestParamInfo<Case>& info) {
  std::string s = mutant_name(info.param.mutant) + "_" + structure_name(info.param.flavor);
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (gheap::Mutant m : kAllMutants)
    for (gheap::Flavor f : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp})
      if (mutant_applies(m, f) && m != gheap::Mutant::RelaxedLocksFenced) cases.push_back({m, f});
  return cases;
}

// An ordering mutant runs under ptx unless `memory` says otherwise.
HeapExploreOptions options_for(const Case& c, uint64_t schedules,
                               std::optional<sim::memory::MemoryMode> memory = std::nullopt) {
  HeapExploreOptions o;
  o.config.flavor = c.flavor;
  o.config.variant = gheap::Variant::Fixed;
  o.config.mutant = c.mutant;
  o.config.k = 4;
  if (mutant_is_ordering(c.mutant)) o.config.memory = sim::memory::MemoryMode::Ptx;
  if (memory) o.config.memory = *memory;
  o.shape.actors = 4;
  o.shape.ops = 8;
  o.shape.k = 4;
  o.strategy = "pct";
  o.depth = 3;
  o.schedules = schedules;
  o.seed = 1;
  o.shrink = false;
  return o;
}

class MutantCaught : public testing::TestWithParam<Case> {};

// A replay string's judgement (strict replay: every pick used).
Judgement replay_heap_schedule(const std::string& schedule) {
  const ReplayInput in = parse_replay_string(schedule);
  HeapRunner runner(in.config);
  sim::ReplayStrategy replay(in.picks, /*strict=*/true);
  replay.begin_run(static_cast<uint32_t>(in.program.actors.size()));
  return judge(runner.execute(in.program, replay, 200'000), JudgeOptions{});
}

// Explores in rounds (fresh seeds each) and stops at the first round that finds a
// bug, so a quickly caught mutant does not pay for 10 000 schedules. Returns
// whether a bug was found.
bool explore_until_bug(const Case& c, uint64_t limit, std::optional<sim::memory::MemoryMode> memory = std::nullopt) {
  uint64_t done = 0;
  bool found = false;
  std::string kinds;
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t round = 0, size = 250; done < limit && !found; ++round, size *= 2) {
    HeapExploreOptions o = options_for(c, std::min(size, limit - done), memory);
    o.seed = 1 + round * 1'000'003;
    const ExploreSummary s = run_heap_explore(o);
    done += s.schedules;
    found = s.found_bug();
    for (const auto& [kind, n] : s.counts)
      if (n) kinds += std::string(to_string(kind)) + " x" + std::to_string(n) + " ";
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[ mutant   ] %s on %s: %s within %llu schedules (%.2fs) %s\n", mutant_name(c.mutant).c_str(),
              structure_name(c.flavor).c_str(), found ? "bug found" : "no bug", static_cast<unsigned long long>(done),
              secs, kinds.c_str());
  std::fflush(stdout);
  return found;
}

TEST_P(MutantCaught, WithinTenThousandPctSchedules) {
  // In a child process: a mutant that crashes the explorer (instead of being
  // reported as a fault) must fail this test, not the whole binary.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(std::exit(explore_until_bug(GetParam(), 10'000) ? 0 : 1), testing::ExitedWithCode(0), "")
      << "mutant " << mutant_name(GetParam().mutant) << " on " << structure_name(GetParam().flavor)
      << " not caught (exit 1) or crashed the explorer";
}

// The control: without a mutant the fixed heaps show no bug in as many schedules.
// Without it a caught mutant proves nothing.
TEST(MutantControl, FixedTopDownWithoutMutantHasNoBug) {
  EXPECT_FALSE(explore_until_bug({gheap::Mutant::None, gheap::Flavor::TopDown}, 2'000));
}

TEST(MutantControl, FixedBottomUpWithoutMutantHasNoBug) {
  EXPECT_FALSE(explore_until_bug({gheap::Mutant::None, gheap::Flavor::BottomUp}, 2'000));
}

// The heap authors' ordering with a fence on either side of every lock-word access
// is correct under the model, as their code with __threadfence() is on the GPU
// (ptx-racy: races let be). TD is race-free too; BU's insert reads its ancestors'
// largest keys before it takes a lock, with plain loads in this ordering: a data
// race with the batch stores of the lock holders (docs/findings.md M5).
TEST(MutantControl, RelaxedLocksWithFencesHaveNoBugUnderPtx) {
  for (gheap::Flavor f : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp})
    EXPECT_FALSE(explore_until_bug({gheap::Mutant::RelaxedLocksFenced, f}, 1'000, sim::memory::MemoryMode::PtxRacy))
        << structure_name(f);
  EXPECT_FALSE(explore_until_bug({gheap::Mutant::RelaxedLocksFenced, gheap::Flavor::TopDown}, 1'000));
  HeapExploreOptions o = options_for({gheap::Mutant::RelaxedLocksFenced, gheap::Flavor::BottomUp}, 1'000);
  o.shrink = true;
  const ExploreSummary s = run_heap_explore(o);
  ASSERT_EQ(s.first.size(), 1u);
  const FailureReport& r = s.first.begin()->second;
  EXPECT_EQ(r.kind, Failure::Race);
  EXPECT_NE(r.message.find("read weak at structures/gheap/bu_insert.h:"), std::string::npos) << r.message;
}

// docs/findings.md M3: the BU insert's scan of its ancestors' maxima, gathered where
// the next merge writes, is a race between the block's threads - found by
// compute-sanitizer's racecheck on the GPU, and by the simulator's barrier phases
// under sc (no memory model needed), shrunk to a few operations; the fixed heap
// replays the same schedule clean.
TEST(MutantRace, MaximaInMergedIsARaceBetweenTheBlocksThreads) {
  HeapExploreOptions o = options_for({gheap::Mutant::MaximaInMerged, gheap::Flavor::BottomUp}, 1'000);
  o.shrink = true;
  ASSERT_EQ(o.config.memory.mode, sim::memory::MemoryMode::Sc);
  const ExploreSummary s = run_heap_explore(o);
  ASSERT_EQ(s.first.size(), 1u);
  const FailureReport& r = s.first.begin()->second;
  EXPECT_EQ(r.kind, Failure::Race);
  EXPECT_LE(r.ops, 6u);
  EXPECT_NE(r.message.find("data race in block-private memory"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("every thread read it in actor-uniform code after the barrier at "
                           "structures/gheap/bu_insert.h:"),
            std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("wrote it in the parallel_for at structures/merge_path/block_merge.h:"), std::string::npos)
      << r.message;
  const Judgement again = replay_heap_schedule(r.schedule);
  EXPECT_EQ(again.failure, Failure::Race);
  std::string fixed = r.schedule;
  fixed.replace(fixed.find(":mutant=maxima-in-merged"), std::string(":mutant=maxima-in-merged").size(), "");
  EXPECT_EQ(replay_heap_schedule(fixed).failure, Failure::None) << fixed;
}

INSTANTIATE_TEST_SUITE_P(AllMutants, MutantCaught, testing::ValuesIn(all_cases()), case_name);

TEST(MutantCases, EveryMutantAppliesSomewhere) {
  for (gheap::Mutant m : kAllMutants)
    EXPECT_TRUE(mutant_applies(m, gheap::Flavor::TopDown) || mutant_applies(m, gheap::Flavor::BottomUp))
        << mutant_name(m);
}

}  // namespace
}  // namespace gpulin::explore
