// The search checker's budgets: steps, memory and wall-clock time, each over the
// whole check, each ending it as Undecided with the budget named, and the
// witness checker's window search under its own time limit.
#include <gtest/gtest.h>

#include <chrono>

#include "tests/verify/history_builder.h"
#include "verify/search_checker.h"
#include "verify/witness_checker.h"

namespace gpulin {
namespace {

using namespace gpulin::testing;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// n inserts of distinct keys, all overlapping, then a delete after them all that
// returns a key none inserted: not linearizable, but the search learns that only
// after trying every subset of the inserts, about n * 2^n steps.
History hard_pq(int n) {
  HistoryBuilder b("pq");
  for (int i = 0; i < n; ++i) b.op(i + 1, 1 + i, 1000 + i, "ins", L({10 + i}), N());
  b.op(n + 1, 2000, 2001, "del", A({}), L({-1}));
  return b.build();
}

// As hard_pq, with root holds under the root-release rule: the rule's order
// fails at the delete, and every insert overlaps it, so the window around the
// failure is as hard as the whole history.
History hard_pq_with_holds(int n) {
  HistoryBuilder b("pq-batch", Value::object({{"k", I(1)}}), "root-release");
  for (int i = 0; i < n; ++i) {
    b.op(i + 1, 1 + i, 1000 + i, "ins", L({10 + i}), N());
    b.hold(i + 1, 1, 100 + 2 * i, 101 + 2 * i);
  }
  b.op(n + 1, 50, 2000, "del", A({}), L({-1})).hold(n + 1, 1, 300, 301);
  return b.build();
}

// One key per partition, each with an insert and an overlapping contains: easy
// partitions, so only a budget shared by all of them can run out.
History many_keys(int keys) {
  HistoryBuilder b("set");
  for (int k = 0; k < keys; ++k) {
    const auto t = static_cast<uint64_t>(10 * k);
    b.op(2 * k + 1, t + 1, t + 5, "insert", L({k}), N());
    b.op(2 * k + 2, t + 2, t + 6, "contains", L({k}), B(true));
  }
  return b.build();
}

SearchOptions unbounded() {
  SearchOptions o;
  o.max_steps = 0;
  o.max_memory_bytes = 0;
  return o;
}

TEST(SearchBudgetSteps, ASmallStepBudgetIsUndecidedNamingSteps) {
  const History h = hard_pq(10);
  const SearchResult full = check_search(h, unbounded());
  ASSERT_EQ(full.verdict, Verdict::NotLinearizable);
  // Memo hits and backtracks count too, not only new configurations.
  EXPECT_GT(full.steps, full.states_explored);

  SearchOptions o = unbounded();
  o.max_steps = full.steps / 2;
  const SearchResult r = check_search(h, o);
  EXPECT_EQ(r.verdict, Verdict::Undecided);
  EXPECT_EQ(r.budget, BudgetExhausted::Steps);
  EXPECT_EQ(r.steps, o.max_steps);
  EXPECT_NE(r.message.find("step budget"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("--budget"), std::string::npos) << r.message;
  EXPECT_EQ(full.budget, BudgetExhausted::None);
}

TEST(SearchBudgetSteps, TheBudgetIsSharedByAllPartitions) {
  const History h = many_keys(12);
  const SearchResult full = check_search(h, unbounded());
  ASSERT_EQ(full.verdict, Verdict::Linearizable);
  ASSERT_EQ(full.partitions, 12u);
  // Each partition needs far fewer than full.steps - 1 steps: only a total runs out.
  SearchOptions o = unbounded();
  o.max_steps = full.steps - 1;
  const SearchResult short_by_one = check_search(h, o);
  EXPECT_EQ(short_by_one.verdict, Verdict::Undecided);
  EXPECT_EQ(short_by_one.budget, BudgetExhausted::Steps);
  o.max_steps = full.steps;
  EXPECT_EQ(check_search(h, o).verdict, Verdict::Linearizable);
}

TEST(SearchBudgetSteps, TheDefaultIsABudget) {
  const SearchOptions o;
  EXPECT_GT(o.max_steps, 0u);
  EXPECT_GT(o.max_memory_bytes, 0u);
  EXPECT_LE(o.max_memory_bytes, size_t{1} << 30);
}

TEST(SearchBudgetStates, TheStateBudgetEndsTheSearchAsAStepBudget) {
  SearchOptions o = unbounded();
  o.max_states = 50;
  const SearchResult r = check_search(hard_pq(10), o);
  EXPECT_EQ(r.verdict, Verdict::Undecided);
  EXPECT_EQ(r.budget, BudgetExhausted::Steps);
  EXPECT_EQ(r.states_explored, 51u);
  EXPECT_NE(r.message.find("state budget"), std::string::npos) << r.message;
}

TEST(SearchBudgetMemory, ASmallMemoryBudgetIsUndecidedNamingMemory) {
  SearchOptions o = unbounded();
  o.max_memory_bytes = 1024;
  const SearchResult r = check_search(hard_pq(20), o);
  EXPECT_EQ(r.verdict, Verdict::Undecided);
  EXPECT_EQ(r.budget, BudgetExhausted::Memory);
  EXPECT_NE(r.message.find("memory budget (1024 bytes"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("--memory"), std::string::npos) << r.message;
}

TEST(SearchBudgetMemory, AViolationElsewhereStillWins) {
  // Key 7's partition is hard (it fails only after every subset of its inserts)
  // and gives up for memory; key 8's, small, still shows its violation.
  HistoryBuilder b("set");
  for (int i = 0; i < 20; ++i) b.op(i + 1, 1 + i, 1000 + i, "insert", L({7}), N());
  b.op(21, 2000, 2001, "contains", L({7}), B(false));
  SearchOptions o = unbounded();
  o.max_memory_bytes = 64 << 10;
  ASSERT_EQ(check_search(HistoryBuilder(b).build(), o).budget, BudgetExhausted::Memory);
  b.op(30, 5000, 5001, "contains", L({8}), B(true));  // 8 was never inserted
  const SearchResult r = check_search(b.build(), o);
  EXPECT_EQ(r.verdict, Verdict::NotLinearizable) << r.message;
  EXPECT_EQ(r.stuck_ops, (std::vector<int64_t>{30}));
}

TEST(SearchBudgetTime, AFewMillisecondsOnAHardHistoryReturnPromptly) {
  SearchOptions o = unbounded();
  o.max_seconds = 0.005;
  const auto t0 = Clock::now();
  const SearchResult r = check_search(hard_pq(40), o);  // 40 * 2^40 steps unbounded
  const double s = seconds_since(t0);
  EXPECT_EQ(r.verdict, Verdict::Undecided);
  EXPECT_EQ(r.budget, BudgetExhausted::Time);
  EXPECT_NE(r.message.find("time budget"), std::string::npos) << r.message;
  EXPECT_LT(s, 0.5);
}

TEST(WitnessWindowBudget, TheWindowSearchStopsAtWindowSeconds) {
  const History h = hard_pq_with_holds(40);
  WitnessOptions opt;
  opt.explain = true;
  opt.window_seconds = 0.05;
  opt.search = unbounded();  // only the window's time limit can end it
  const auto t0 = Clock::now();
  const WitnessResult r = check_witness(h, opt);
  const double s = seconds_since(t0);
  ASSERT_EQ(r.verdict, Verdict::NotLinearizable);
  ASSERT_TRUE(r.explanation);
  EXPECT_EQ(r.explanation->verdict, Verdict::Undecided) << r.explanation->message;
  EXPECT_NE(r.explanation->message.find("time budget"), std::string::npos) << r.explanation->message;
  EXPECT_NE(r.explanation->message.find("window_seconds"), std::string::npos) << r.explanation->message;
  EXPECT_LT(s, 1.0);
}

TEST(WitnessWindowBudget, TheTighterOfTheTwoTimeLimitsHolds) {
  WitnessOptions opt;
  opt.explain = true;
  opt.search = unbounded();
  opt.search.max_seconds = 0.02;  // tighter than the default window_seconds
  const auto t0 = Clock::now();
  const WitnessResult r = check_witness(hard_pq_with_holds(40), opt);
  ASSERT_TRUE(r.explanation);
  EXPECT_EQ(r.explanation->verdict, Verdict::Undecided);
  EXPECT_LT(seconds_since(t0), 1.0);
  EXPECT_GT(WitnessOptions{}.window_seconds, 0.0);
}

}  // namespace
}  // namespace gpulin
