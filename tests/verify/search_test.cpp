// The search checker on histories written by hand, each with a known verdict.
#include <gtest/gtest.h>

#include "tests/verify/history_builder.h"
#include "verify/model_registry.h"
#include "verify/search_checker.h"

namespace gpulin {
namespace {

using namespace gpulin::testing;

// The verdict, which must not depend on partitioning.
Verdict verdict(const History& h) {
  SearchOptions on, off;
  off.partition = false;
  const Verdict a = check_search(h, on).verdict, b = check_search(h, off).verdict;
  EXPECT_EQ(a, b) << "partitioning changed the verdict";
  return a;
}

TEST(SearchPqBatch, ConcurrentInsertSeenByALaterDelete) {
  const History h = HistoryBuilder("pq-batch", k2())
                        .op(1, 1, 4, "ins", L({5}), N())
                        .op(2, 2, 6, "ins", L({3}), N())
                        .op(3, 5, 8, "del", A({}), L({3, 5}))
                        .build();
  EXPECT_EQ(verdict(h), Verdict::Linearizable);
}

TEST(SearchPqBatch, DeleteMissingACompletedInsert) {
  const History h = HistoryBuilder("pq-batch", k2())
                        .op(1, 1, 2, "ins", L({5}), N())
                        .op(2, 3, 4, "del", A({}), L({}))
                        .build();
  EXPECT_EQ(verdict(h), Verdict::NotLinearizable);
}

TEST(SearchPqBatch, DeleteMustTakeMinOfKAndSize) {
  const History h = HistoryBuilder("pq-batch", k2())
                        .op(1, 1, 2, "ins", L({5}), N())
                        .op(2, 3, 4, "ins", L({3}), N())
                        .op(3, 5, 6, "del", A({}), L({3}))
                        .build();
  EXPECT_EQ(verdict(h), Verdict::NotLinearizable);
}

TEST(SearchPqBatch, ConcurrentDeletesSplitTheKeys) {
  const History h = HistoryBuilder("pq-batch", k2())
                        .op(1, 1, 2, "ins", L({1, 2}), N())
                        .op(2, 3, 4, "ins", L({3, 4}), N())
                        .op(3, 5, 9, "del", A({}), L({3, 4}))
                        .op(4, 6, 8, "del", A({}), L({1, 2}))
                        .build();
  EXPECT_EQ(verdict(h), Verdict::Linearizable);
}

TEST(SearchPqBatch, PendingInsertMayHaveTakenEffect) {
  const History h = HistoryBuilder("pq-batch", k2())
                        .pending(1, 1, "ins", L({4}))
                        .op(2, 2, 3, "del", A({}), L({4}))
                        .build();
  EXPECT_EQ(verdict(h), Verdict::Linearizable);
}

TEST(SearchPqBatch, PendingDeleteMayHaveTakenEffectOrNot) {
  HistoryBuilder b("pq-batch", k2());
  b.op(1, 1, 2, "ins", L({1}), N()).pending(2, 3, "del", A({}));
  const History took_effect = HistoryBuilder(b).op(3, 4, 5, "del", A({}), L({})).build();
  const History did_not = HistoryBuilder(b).op(3, 4, 5, "del", A({}), L({1})).build();
  EXPECT_EQ(verdict(took_effect), Verdict::Linearizable);
  EXPECT_EQ(verdict(did_not), Verdict::Linearizable);
}

TEST(SearchPqBatch, PendingOpCannotTakeEffectBeforeItsInvocation) {
  const History h = HistoryBuilder("pq-batch", k2())
                        .op(1, 1, 2, "ins", L({1}), N())
                        .op(2, 3, 4, "del", A({}), L({}))
                        .pending(3, 5, "del", A({}))
                        .build();
  EXPECT_EQ(verdict(h), Verdict::NotLinearizable);
}

TEST(SearchRegister, ReadOverlappingTheWrite) {
  const History h = HistoryBuilder("register").op(1, 1, 4, "write", A({I(1)}), N()).op(2, 2, 3, "read", A({}), I(1)).build();
  EXPECT_EQ(verdict(h), Verdict::Linearizable);
}

TEST(SearchRegister, StaleReadAndItsReport) {
  const History h = HistoryBuilder("register")
                        .op(1, 1, 2, "write", A({I(1)}), N())
                        .op(2, 3, 4, "write", A({I(2)}), N())
                        .op(3, 5, 6, "read", A({}), I(1))
                        .build();
  const SearchResult r = check_search(h);
  EXPECT_EQ(r.verdict, Verdict::NotLinearizable);
  EXPECT_EQ(r.longest_prefix, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(r.stuck_ops, (std::vector<int64_t>{3}));
  EXPECT_EQ(r.state_after_prefix, "2");
  EXPECT_GT(r.states_explored, 0u);
  EXPECT_NE(r.message.find("[1,2]"), std::string::npos) << r.message;
}

TEST(SearchRegister, ReadBeforeTheWriteWasInvoked) {
  const History h = HistoryBuilder("register").op(1, 1, 2, "read", A({}), I(1)).op(2, 3, 4, "write", A({I(1)}), N()).build();
  EXPECT_EQ(verdict(h), Verdict::NotLinearizable);
}

TEST(SearchRegister, TwoCasFromOneValueCannotBothSucceed) {
  HistoryBuilder b("register");
  b.op(1, 1, 2, "write", A({I(1)}), N()).op(2, 3, 6, "cas", A({I(1), I(2)}), B(true));
  EXPECT_EQ(verdict(HistoryBuilder(b).op(3, 4, 5, "cas", A({I(1), I(3)}), B(true)).build()), Verdict::NotLinearizable);
  EXPECT_EQ(verdict(HistoryBuilder(b).op(3, 4, 5, "cas", A({I(1), I(3)}), B(false)).build()), Verdict::Linearizable);
}

TEST(SearchRegister, PendingWriteSeenThenLost) {
  const History h = HistoryBuilder("register")
                        .pending(1, 1, "write", A({I(3)}))
                        .op(2, 2, 3, "read", A({}), I(3))
                        .op(3, 4, 5, "read", A({}), N())
                        .build();
  EXPECT_EQ(verdict(h), Verdict::NotLinearizable);
}

TEST(SearchRegister, InitialValueFromParamsOrOptions) {
  const History h = HistoryBuilder("register").op(1, 1, 2, "read", A({}), I(7)).build();
  EXPECT_EQ(verdict(h), Verdict::NotLinearizable);
  History with_init = h;
  with_init.header.params = Value::object({{"init", I(7)}});
  EXPECT_EQ(verdict(with_init), Verdict::Linearizable);
  SearchOptions from_seven;
  from_seven.initial_state = model_for(with_init).initial_state();
  EXPECT_EQ(check_search(h, from_seven).verdict, Verdict::Linearizable);
}

TEST(SearchSet, ContainsMustSeeACompletedInsert) {
  HistoryBuilder b("set");
  b.op(1, 1, 3, "insert", L({1}), N()).op(2, 4, 5, "insert", L({2}), N());
  EXPECT_EQ(verdict(HistoryBuilder(b).op(3, 2, 6, "contains", L({1}), B(false)).build()), Verdict::Linearizable);
  EXPECT_EQ(verdict(HistoryBuilder(b).op(3, 6, 7, "contains", L({1}), B(false)).build()), Verdict::NotLinearizable);
  EXPECT_EQ(verdict(HistoryBuilder(b).op(3, 6, 7, "contains", L({2}), B(true)).build()), Verdict::Linearizable);
}

TEST(SearchMap, OneBadKeyAmongGoodOnes) {
  HistoryBuilder b("map");
  b.op(1, 1, 2, "replace", L({1, 10}), N())
      .op(2, 1, 3, "replace", L({2, 20}), N())
      .op(3, 4, 8, "replace", L({1, 11}), N())
      .op(4, 5, 6, "search", L({1}), I(11))
      .op(5, 7, 9, "search", L({1}), I(11));
  EXPECT_EQ(verdict(HistoryBuilder(b).op(6, 4, 6, "search", L({2}), I(20)).build()), Verdict::Linearizable);
  const History bad = HistoryBuilder(b).op(6, 4, 6, "search", L({2}), N()).build();
  EXPECT_EQ(verdict(bad), Verdict::NotLinearizable);
  const SearchResult r = check_search(bad);
  EXPECT_EQ(r.partitions, 2u);
  EXPECT_EQ(r.stuck_ops.front(), 6);
  // Search then a stale search: 11 read, then 10 again.
  EXPECT_EQ(verdict(HistoryBuilder(b).op(6, 10, 11, "search", L({1}), I(10)).build()), Verdict::NotLinearizable);
}

TEST(SearchBucketPq, PendingExtractMinTakesTheTieThatFits) {
  // The pending extractmin must have taken value 2 (not 1, its first choice):
  // then the later extractmin gets 1 and the last one finds the queue empty.
  HistoryBuilder b("bucket-pq");
  b.op(1, 1, 2, "update", A({L({1, 5}), L({2, 5})}), N()).pending(2, 3, "extractmin", A({}));
  b.op(3, 4, 5, "extractmin", A({}), L({1, 5}));
  EXPECT_EQ(verdict(HistoryBuilder(b).op(4, 6, 7, "extractmin", A({}), N()).build()), Verdict::Linearizable);
  EXPECT_EQ(verdict(HistoryBuilder(b).op(4, 6, 7, "extractmin", A({}), L({1, 5})).build()), Verdict::NotLinearizable);
}

TEST(SearchBudget, RunningOutIsUndecided) {
  const History h = HistoryBuilder("register")
                        .op(1, 1, 10, "write", A({I(1)}), N())
                        .op(2, 2, 11, "write", A({I(2)}), N())
                        .op(3, 3, 12, "read", A({}), I(1))
                        .build();
  SearchOptions tiny;
  tiny.max_states = 2;
  const SearchResult r = check_search(h, tiny);
  EXPECT_EQ(r.verdict, Verdict::Undecided);
  EXPECT_EQ(check_search(h).verdict, Verdict::Linearizable);
  EXPECT_EQ(check_search(HistoryBuilder("register").build(), tiny).verdict, Verdict::Linearizable);
}

TEST(SearchInput, IllTypedOpsAreFormatErrors) {
  const History h = HistoryBuilder("register").op(1, 1, 2, "write", A({}), N()).build();
  EXPECT_THROW(check_search(h), FormatError);
}


// keep_linearizations: a linearizable history's order, every op once, in an order
// the model accepts (here the write must come before the read that sees it, though
// the read was invoked first).
TEST(SearchLinearization, KeptWhenAsked) {
  const History h = HistoryBuilder("register")
                        .op(1, 2, 6, "write", A({I(1)}), N())
                        .op(2, 1, 7, "read", A({}), I(1))
                        .op(3, 8, 9, "read", A({}), I(1))
                        .build();
  SearchOptions o;
  EXPECT_TRUE(check_search(h, o).linearizations.empty());
  o.keep_linearizations = true;
  const SearchResult r = check_search(h, o);
  ASSERT_EQ(r.verdict, Verdict::Linearizable);
  ASSERT_EQ(r.linearizations.size(), 1u);
  EXPECT_EQ(r.linearizations[0], (std::vector<int64_t>{1, 2, 3}));
}

}  // namespace
}  // namespace gpulin
