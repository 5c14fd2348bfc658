// The explorer's memory of passed histories (tools/explore/passed_histories.h): a
// history judged passing before passes again unchecked, anything else is judged
// afresh (a failure every time, with its message), the structure's own checks run
// on every schedule, lookups rest where histories rarely repeat, and past its byte
// budget it remembers nothing more.
#include <gtest/gtest.h>

#include <string>

#include "histories/jsonl_reader.h"
#include "structures/gheap/sim/heap_explore.h"
#include "structures/gheap/sim/heap_run.h"

namespace gpulin::explore {
namespace {

JudgeOptions remembering(PassedHistories& passed) {
  JudgeOptions o;
  o.passed = &passed;
  return o;
}

History example(const std::string& name) {
  return read_history_file(std::string(GPULIN_SOURCE_DIR) + "/histories/examples/" + name);
}

TEST(PassedHistories, APassedHistoryPassesAgainUnsearched) {
  PassedHistories passed;
  const JudgeOptions o = remembering(passed);
  const History h = example("pq_batch_linearizable.jsonl");
  const Judgement first = judge_history(h, o);
  EXPECT_EQ(first.failure, Failure::None);
  EXPECT_TRUE(first.searched);
  EXPECT_EQ(passed.size(), 1u);
  const Judgement again = judge_history(h, o);
  EXPECT_EQ(again.failure, Failure::None);
  EXPECT_FALSE(again.searched);
}

// One result away from a passed history is another history: it is judged, and fails.
TEST(PassedHistories, AHistoryOneResultAwayIsJudgedAndFails) {
  PassedHistories passed;
  const JudgeOptions o = remembering(passed);
  History h = example("pq_batch_linearizable.jsonl");
  ASSERT_EQ(judge_history(h, o).failure, Failure::None);
  h.ops[2].res->as_array()[1] = Value::integer(9);  // op 2 takes 9 too, which op 3 takes as well
  const Judgement j = judge_history(h, o);
  EXPECT_EQ(j.failure, Failure::Violation) << j.message;
  EXPECT_EQ(passed.size(), 1u);
}

TEST(PassedHistories, AFailureIsJudgedEveryTimeWithItsMessage) {
  PassedHistories passed;
  const JudgeOptions o = remembering(passed);
  const History h = example("pq_batch_not_linearizable.jsonl");
  const Judgement first = judge_history(h, o), again = judge_history(h, o);
  EXPECT_EQ(first.failure, Failure::Violation);
  EXPECT_EQ(again.failure, Failure::Violation);
  EXPECT_FALSE(again.message.empty());
  EXPECT_EQ(again.message, first.message);
  EXPECT_EQ(passed.size(), 0u);
}

// A schedule whose history passed before is still judged on the rest: a heap broken
// at rest, or a deadlock, fails it.
TEST(PassedHistories, TheStructuresOwnChecksStillRunOnARepeat) {
  PassedHistories passed;
  const JudgeOptions o = remembering(passed);
  Execution e;
  e.history = example("pq_batch_linearizable.jsonl");
  ASSERT_EQ(judge(e, o).failure, Failure::None);
  ASSERT_EQ(passed.size(), 1u);
  e.invariant_failure = "property 1 broken at node 2";
  EXPECT_EQ(judge(e, o).failure, Failure::Invariant);
  e.invariant_failure.reset();
  e.run.outcome = sim::Outcome::Deadlock;
  EXPECT_EQ(judge(e, o).failure, Failure::Deadlock);
}

// A whole exploration with and without the memory: every count the same (on the
// fixed heap and on a planted bug), the search run only on distinct histories.
TEST(PassedHistories, AnExplorationCountsTheSameWithFewerSearches) {
  for (gheap::Mutant mutant : {gheap::Mutant::None, gheap::Mutant::EarlyRootRelease}) {
    HeapExploreOptions o;
    o.config.mutant = mutant;
    o.shape.actors = 3;
    o.shape.ops = 2;
    o.strategy = "dfs";
    o.preemptions = 2;
    o.schedules = 100'000'000;
    o.shrink = false;
    const ExploreSummary remembered = run_heap_explore(o);
    o.remember_passed = false;
    const ExploreSummary every = run_heap_explore(o);
    EXPECT_EQ(remembered.schedules, every.schedules);
    EXPECT_EQ(remembered.distinct_histories, every.distinct_histories);
    EXPECT_EQ(remembered.counts, every.counts);
    EXPECT_LT(remembered.searched, every.searched / 2);
    if (mutant == gheap::Mutant::None) {
      EXPECT_TRUE(remembered.counts.empty());
      EXPECT_EQ(every.searched, every.schedules);
      EXPECT_EQ(remembered.searched, remembered.distinct_histories);
    } else {
      EXPECT_GT(remembered.counts.at(Failure::Violation), 0u);  // failures were compared too
    }
  }
}

// Where histories rarely repeat the lookups rest: a window of kWindow lookups with
// fewer than one hit in 16 is followed by kRest judgements without one; a window
// with enough hits keeps looking.
TEST(PassedHistories, LookupsRestWhereHistoriesRarelyRepeat) {
  PassedHistories rare;
  for (uint64_t i = 0; i < PassedHistories::kWindow; ++i) {
    ASSERT_TRUE(rare.worth_looking());
    rare.look_up("distinct " + std::to_string(i));
  }
  for (uint64_t i = 0; i < PassedHistories::kRest; ++i) ASSERT_FALSE(rare.worth_looking()) << i;
  EXPECT_TRUE(rare.worth_looking());  // the next window tries again

  PassedHistories often;
  often.remember("seen");
  for (uint64_t i = 0; i < 3 * PassedHistories::kWindow; ++i) {
    ASSERT_TRUE(often.worth_looking()) << i;
    often.look_up(i % 8 == 0 ? "seen" : "new " + std::to_string(i));  // one hit in 8
  }
  EXPECT_EQ(often.lookups(), 3 * PassedHistories::kWindow);
}

TEST(PassedHistories, PastItsBudgetNothingMoreIsRemembered) {
  PassedHistories passed(/*max_bytes=*/16);
  const JudgeOptions o = remembering(passed);
  const History h = example("pq_batch_linearizable.jsonl");
  judge_history(h, o);
  EXPECT_EQ(passed.size(), 0u);
  EXPECT_EQ(passed.bytes(), 0u);
  EXPECT_TRUE(judge_history(h, o).searched);
}

}  // namespace
}  // namespace gpulin::explore
