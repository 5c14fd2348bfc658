// The heap under the ptx memory mode: the fixed heaps stay correct, and the heap
// authors' ordering (relaxed-locks: lock CASes relaxed with no fence, batches weak)
// passes under sc but fails under ptx: a data race between a batch's weak write
// and its weak read under the next lock holder, both named; and under ptx-racy
// (races let be) with a replay string whose stale read (a recorded choice) is the
// difference: the same string replayed under sc passes.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/memory/memory_mode.h"
#include "sim/schedule_string.h"
#include "sim/strategies/replay_strategy.h"
#include "structures/gheap/sim/heap_explore.h"
#include "tools/explore/replay_fields.h"

namespace gpulin::explore {
namespace {

HeapExploreOptions options(gheap::Flavor f, gheap::Mutant m, sim::memory::MemoryMode memory, uint64_t schedules) {
  HeapExploreOptions o;
  o.config.flavor = f;
  o.config.mutant = m;
  o.config.memory = memory;
  o.shape.actors = 3;
  o.shape.ops = 3;
  o.strategy = "pct";
  o.schedules = schedules;
  o.seed = 1;
  return o;
}

// A replay string's verdict: whether its run failed.
bool replay_fails(const std::string& schedule) {
  const ReplayInput in = parse_replay_string(schedule);
  HeapRunner runner(in.config);
  sim::ReplayStrategy replay(in.picks, /*strict=*/true);
  replay.begin_run(static_cast<uint32_t>(in.program.actors.size()));
  return is_bug(judge(runner.execute(in.program, replay, 200'000), JudgeOptions{}).failure);
}

TEST(HeapUnderPtx, FixedHeapsPass) {
  for (gheap::Flavor f : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp}) {
    const ExploreSummary s = run_heap_explore(options(f, gheap::Mutant::None, sim::memory::MemoryMode::Ptx, 1000));
    EXPECT_FALSE(s.found_bug()) << structure_name(f);
  }
}

TEST(HeapUnderPtx, TheAuthorsOrderingRacesOnABatch) {
  for (gheap::Flavor f : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp}) {
    SCOPED_TRACE(structure_name(f));
    const ExploreSummary s = run_heap_explore(options(f, gheap::Mutant::RelaxedLocks, sim::memory::MemoryMode::Ptx, 300));
    ASSERT_TRUE(s.first.count(Failure::Race));
    const FailureReport& r = s.first.at(Failure::Race);
    // Most runs hand a batch over from one operation to another (the others may
    // read a lock word stale, relaxed, which is no race: proof-points fail).
    EXPECT_GT(s.counts.at(Failure::Race) * 2, s.schedules);
    EXPECT_LE(r.ops, 2u) << "shrunk: " << r.schedule;
    // A batch written weak by one operation, read weak by another, as the authors' code.
    EXPECT_NE(r.message.find("write weak at structures/gheap/"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("read weak at structures/gheap/"), std::string::npos) << r.message;
    EXPECT_TRUE(replay_fails(r.schedule)) << r.schedule;
    EXPECT_FALSE(replay_fails(with_memory_mode(r.schedule, sim::memory::MemoryMode::Sc))) << r.schedule;
  }
}

TEST(HeapUnderPtx, TheAuthorsOrderingFailsWithAStaleBatchReadThatScCannotMake) {
  for (gheap::Flavor f : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp}) {
    SCOPED_TRACE(structure_name(f));
    EXPECT_FALSE(run_heap_explore(options(f, gheap::Mutant::RelaxedLocks, sim::memory::MemoryMode::Sc, 1000)).found_bug());
    const ExploreSummary s =
        run_heap_explore(options(f, gheap::Mutant::RelaxedLocks, sim::memory::MemoryMode::PtxRacy, 1000));
    ASSERT_TRUE(s.found_bug());
    EXPECT_EQ(s.counts.count(Failure::Race), 0u) << "ptx-racy checks no races";
    const FailureReport& r = s.first.begin()->second;
    EXPECT_NE(r.schedule.find(":mutant=relaxed-locks:memory=ptx-racy|"), std::string::npos) << r.schedule;
    EXPECT_LE(r.ops, 3u) << "shrunk: " << r.schedule;
    const std::vector<uint32_t> picks = sim::decode_picks(r.schedule.substr(r.schedule.rfind('|') + 1));
    EXPECT_TRUE(std::any_of(picks.begin(), picks.end(), sim::is_choice)) << r.schedule;
    EXPECT_TRUE(replay_fails(r.schedule)) << r.schedule;
    const std::string under_sc = with_memory_mode(r.schedule, sim::memory::MemoryMode::Sc);
    EXPECT_EQ(under_sc.find("memory="), std::string::npos) << under_sc;
    EXPECT_FALSE(replay_fails(under_sc)) << under_sc;
  }
}

TEST(HeapUnderPtx, ReplayStringsNameTheMemory) {
  HeapConfig c;
  c.memory = sim::memory::MemoryMode::Ptx;
  EXPECT_EQ(encode_config(c), "gheap-td:fixed:k=4:t=2:memory=ptx");
  EXPECT_EQ(decode_config("gheap-td:fixed:k=4:t=2:memory=ptx").memory, sim::memory::MemoryMode::Ptx);
  EXPECT_EQ(decode_config("gheap-td:fixed:k=4:t=2").memory, sim::memory::MemoryMode::Sc);
  try {
    decode_config("gheap-td:fixed:memory=tso");
    FAIL() << "memory=tso accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "config: unknown memory 'tso' (sc, ptx, ptx-racy)");
  }
}

}  // namespace
}  // namespace gpulin::explore
