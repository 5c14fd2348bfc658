// The parallel bucket heap in the explorer (structures/bucket_heap/sim/bucket_explore.h): the
// fixed variant passes for several d with every RESOLVE's conditions held; each
// planted mutant is caught, shrunk and replays; the findings' counterexamples
// (docs/findings.md B1, B2) replay to their failures; bad replay strings are refused
// naming the field.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include <string>

#include "sim/strategies/replay_strategy.h"
#include "tests/tools/explore_options.h"
#include "structures/bucket_heap/operations.h"
#include "structures/bucket_heap/sim/bucket_explore.h"

namespace gpulin::explore {
namespace {

using bucket_heap::Mutant;
using bucket_heap::Variant;

std::string describe(const ExploreSummary& s) {
  std::string text;
  for (const auto& [kind, r] : s.first) text += std::string(to_string(kind)) + ": " + r.message + "\n  " + r.schedule + "\n";
  return text;
}

Judgement replayed(const std::string& schedule) {
  return judge_bucket(replay_bucket(parse_bucket_replay_string(schedule), 200'000), JudgeOptions{});
}

TEST(BucketExplore, TheFixedHeapPassesForSeveralD) {
  for (uint32_t d : {2u, 3u, 4u}) {
    BucketConfig c;
    c.d = d;
    c.ops = 80;
    const ExploreSummary s = run_bucket_explore(pct_options(300), c);
    EXPECT_FALSE(s.found_bug()) << "d=" << d << "\n" << describe(s);
    EXPECT_EQ(s.schedules, 300u);
    EXPECT_GT(s.distinct_histories, 250u);
  }
}

// The lazy refill (structures/bucket_heap/config.h, PARDIJKSTRA's): RESOLVE(0)
// fills B_0 only when it holds fewer than d, by d. It passes as the fixed heap
// does, B_0 between d and 2d after every RESOLVE(0) and Algorithm 1's other
// conditions held at every level, and it merges level 1 less often: the same
// programs and schedules take fewer scheduling points.
TEST(BucketExplore, TheLazyRefillPassesAndFillsLessOften) {
  for (uint32_t d : {2u, 3u, 4u}) {
    BucketConfig c;
    c.d = d;
    c.ops = 80;
    c.refill = bucket_heap::Refill::Lazy;
    const ExploreSummary lazy = run_bucket_explore(pct_options(300), c);
    EXPECT_FALSE(lazy.found_bug()) << "d=" << d << "\n" << describe(lazy);
    EXPECT_EQ(lazy.schedules, 300u);
    c.refill = bucket_heap::Refill::Full;
    const ExploreSummary full = run_bucket_explore(pct_options(300), c);
    EXPECT_LT(lazy.points * 10, full.points * 9) << "d=" << d << ": lazy " << lazy.points << ", full " << full.points;
  }
  const BucketReplayInput in = parse_bucket_replay_string("bucket-heap:d=2:variant=lazy|x|");
  EXPECT_EQ(in.config.refill, bucket_heap::Refill::Lazy);
  EXPECT_EQ(in.config.variant, Variant::Fixed);
  EXPECT_EQ(bucket_variant_name(in.config), "lazy");
}

// Two signal buffers a level (config.h, PARDIJKSTRA's heap, the variant
// "pipelined"): RESOLVE(i) runs beside RESOLVE(i+1) except where it fills. It
// passes with every condition held (B_{i+1}'s where a fill begins), the schedules
// reach interleavings the one-buffer schedule forbids (more distinct traces of one
// program), and the schedule's planted bugs are still caught.
TEST(BucketExplore, TwoSignalBuffersPassAndOverlapTheLevels) {
  for (uint32_t d : {1u, 2u, 3u, 4u}) {
    BucketConfig c;
    c.d = d;
    c.ops = 80;
    ASSERT_TRUE(set_bucket_variant(c, "pipelined"));
    const ExploreSummary two = run_bucket_explore(pct_options(300), c);
    EXPECT_FALSE(two.found_bug()) << "d=" << d << "\n" << describe(two);
    // One program, 300 schedules of it: the one-buffer schedule leaves the levels
    // little room; two buffers let RESOLVE(i) and RESOLVE(i+1) interleave.
    ExploreOptions same = pct_options(300);
    same.program_every = 0;
    const uint64_t two_traces = run_bucket_explore(same, c).coverage.traces.size();
    c.buffers = bucket_heap::SignalBuffers::One;
    const uint64_t one_traces = run_bucket_explore(same, c).coverage.traces.size();
    EXPECT_GT(two_traces, 2 * one_traces) << "d=" << d;
  }
  for (const char* name : {"bucket-every-third", "bucket-adjacent-overlap"}) {
    BucketConfig c;
    ASSERT_TRUE(set_bucket_variant(c, "pipelined"));
    c.mutant = *parse_bucket_mutant(name);
    EXPECT_TRUE(run_bucket_explore(pct_options(1000), c).found_bug()) << name << " was not caught";
  }
  EXPECT_EQ(parse_bucket_replay_string("bucket-heap:d=2:variant=pipelined|x|").config.buffers,
            bucket_heap::SignalBuffers::Two);
}

TEST(BucketExplore, EveryMutantIsCaughtShrunkAndReplays) {
  for (const std::string& name : bucket_mutant_names()) {
    BucketConfig c;
    c.mutant = *parse_bucket_mutant(name);
    const ExploreSummary s = run_bucket_explore(pct_options(1000), c);
    ASSERT_TRUE(s.found_bug()) << name << " was not caught";
    for (const auto& [kind, r] : s.first) {
      SCOPED_TRACE(name + " " + to_string(kind) + ": " + r.schedule);
      EXPECT_LT(r.ops, 40u);
      const BucketReplayInput in = parse_bucket_replay_string(r.schedule);
      EXPECT_EQ(in.config.mutant, c.mutant);
      EXPECT_EQ(bucket_replay_string(in.config, in.program, in.picks), r.schedule);  // round trip
      const Judgement j = replayed(r.schedule);
      EXPECT_EQ(j.failure, kind);
      EXPECT_EQ(j.message, r.message);
    }
  }
}

// The first GPU EXTRACTMIN closed B_0's gap in place in its scratch copy: in one
// parallel step a thread reads the element the next thread writes. The simulator
// sees it under sc as a race between the level block's threads (its barrier
// phases), not as a wrong answer.
TEST(BucketExplore, ShiftInPlaceIsARaceBetweenTheBlocksThreads) {
  BucketConfig c;
  c.mutant = bucket_heap::Mutant::ShiftInPlace;
  const ExploreSummary s = run_bucket_explore(pct_options(300), c);
  ASSERT_EQ(s.first.size(), 1u) << describe(s);
  const FailureReport& r = s.first.begin()->second;
  EXPECT_EQ(r.kind, Failure::Race);
  EXPECT_NE(r.message.find("data race in block-private memory"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("in the parallel_for at structures/bucket_heap/operations.h:"), std::string::npos)
      << r.message;
}

// A level block's threads are a parameter (2 unless asked; the replay string names
// any other count): with 5 threads the same mutant races, the string says so and
// replays, and the fixed heap with 5 threads is clean.
TEST(BucketExplore, ALevelBlocksThreadsAreAParameterTheStringKeeps) {
  BucketConfig c;
  c.mutant = bucket_heap::Mutant::ShiftInPlace;
  c.threads = 5;
  const ExploreSummary s = run_bucket_explore(pct_options(100), c);
  ASSERT_TRUE(s.first.count(Failure::Race)) << describe(s);
  const FailureReport& r = s.first.at(Failure::Race);
  EXPECT_NE(r.schedule.find(":threads=5"), std::string::npos) << r.schedule;
  EXPECT_NE(r.message.find("(5 threads)"), std::string::npos) << r.message;
  const BucketReplayInput in = parse_bucket_replay_string(r.schedule);
  EXPECT_EQ(in.config.threads, 5u);
  EXPECT_EQ(replayed(r.schedule).failure, Failure::Race);
  c.mutant = bucket_heap::Mutant::None;
  EXPECT_FALSE(run_bucket_explore(pct_options(100), c).found_bug());
  EXPECT_EQ(parse_bucket_replay_string("bucket-heap:d=2|x|").config.threads, 2u);
}

// B1: the paper's EXTRACTMIN leaves an older copy of a decreased value deeper in the
// heap, and it comes out later; the fixed variant (a DELETE sent down after each
// EXTRACTMIN) answers right on the same program and schedule.
TEST(BucketFindings, B1StaleCopyComesOut) {
  const std::string program = "u1=463345,u2=540690,u3=355497,u2=441934,x,x,x,x|2.0*152";
  const Judgement paper = replayed("bucket-heap:d=1:variant=paper|" + program);
  EXPECT_EQ(paper.failure, Failure::Violation) << paper.message;
  BucketReplayInput in = parse_bucket_replay_string("bucket-heap:d=1:variant=fixed|" + program);
  sim::ReplayStrategy lenient(in.picks, /*strict=*/false);
  lenient.begin_run(bucket_actors(in.config, in.program));
  const Judgement fixed = judge_bucket(execute_bucket(in.config, in.program, lenient, 200'000), JudgeOptions{});
  EXPECT_EQ(fixed.failure, Failure::None) << fixed.message;
}

// B2: decrease-keys met by DELETEDUPLICATES in a fill shrink B_{i+1} past Theorem 1's
// count, and RESOLVE(0)'s precondition on |B_1| fails (d = 1); every result stays right.
TEST(BucketFindings, B2PreconditionFailsWhenDuplicatesShrinkABucket) {
  const Judgement j = replayed(
      "bucket-heap:d=1:variant=fixed|u0=892657,u1=31521,u2=325056,u3=342781,u4=195753,x,u5=900817,u6=162702,"
      "u7=468126,u8=73736,u9=423639,u6=6268,u2=61771,x,u10=222920,u11=696280,x,x,x,u12=118206|"
      "0*41.1*2.2*2.1*19.2*2.1*33.2*2.1*24.2*2.1*24.2*12.1*6");
  EXPECT_EQ(j.failure, Failure::Invariant);
  EXPECT_EQ(j.message, "before RESOLVE(0): |B_i+1| = 4 < d 2^(2(i+1)) + d 2^(2i)");
}

// The generator's contract, for any d, length and seed (RapidCheck): at most d
// updates an operation, sorted, unique priorities, a value's priority only
// decreasing, and nothing updated after it left. (A value at priority 0 once made
// the generator divide by zero: `explore --structure bucket-heap --d 3 --ops 120
// --seed 3120 --schedules 5000` ran into it.)
RC_GTEST_PROP(BucketProgramGen, ProgramsAreDijkstraLike, ()) {
  BucketConfig c;
  c.d = *rc::gen::inRange<uint32_t>(1, 9);
  c.ops = *rc::gen::inRange<uint32_t>(0, 300);
  const BucketProgram p = generate_bucket_program(c, *rc::gen::arbitrary<uint64_t>());
  RC_ASSERT(p.ops.size() == c.ops);
  std::map<uint32_t, uint32_t> prio;
  std::set<uint32_t> gone, prios;
  for (const BucketOp& op : p.ops) {
    if (op.fn == bucket_heap::kFnUpdate) {
      RC_ASSERT(!op.updates.empty() && op.updates.size() <= c.d);
      RC_ASSERT(std::is_sorted(op.updates.begin(), op.updates.end()));
      for (const auto& [v, pr] : op.updates) {
        RC_ASSERT(!gone.count(v));
        RC_ASSERT(prios.insert(pr).second);
        RC_ASSERT(!prio.count(v) || pr < prio[v]);
        prio[v] = pr;
      }
    } else if (op.fn == bucket_heap::kFnExtractMin) {
      RC_ASSERT(!prio.empty());
      const auto least = std::min_element(prio.begin(), prio.end(), [](auto& a, auto& b) { return a.second < b.second; });
      gone.insert(least->first);
      prio.erase(least);
    } else {
      RC_ASSERT(prio.count(op.value) == 1u);
      gone.insert(op.value);
      prio.erase(op.value);
    }
  }
}

TEST(BucketExplore, BadReplayStringsNameTheField) {
  const std::pair<const char*, const char*> bad[] = {
      {"bucket-heap:d=0|x|", "d must be"},
      {"bucket-heap:d=2:variant=odd|x|", "config field"},
      {"bucket-heap:d=2:mutant=nope|x|", "unknown mutant"},
      {"bucket-heap:d=1|u1=2/3=4|", "1 to d updates"},
      {"bucket-heap:d=2|u1=2/1=3|", "a value twice"},
      {"bucket-heap:d=2|u1|", "wants V=P"},
      {"bucket-heap:d=2|u1=4294967295|", "reserved"},
      {"bucket-heap:d=2|q|", "unknown operation"},
      {"bucket-heap:d=2|x", "want bucket-heap"},
      {"bucket-heap:d=2:threads=0|x|", "threads must be 1..1024"},
  };
  for (const auto& [schedule, field] : bad) {
    try {
      parse_bucket_replay_string(schedule);
      ADD_FAILURE() << schedule << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << schedule << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace gpulin::explore
