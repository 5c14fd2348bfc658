// The witness checker: the proofs' linearization points rebuilt from holds and lp
// events, checked and replayed.
#include <algorithm>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "histories/key_history.h"
#include "tests/verify/history_builder.h"
#include "verify/testing/generate_pq_history.h"
#include "verify/search_checker.h"
#include "verify/witness/points.h"
#include "verify/witness_checker.h"

namespace gpulin {
namespace {

using namespace gpulin::testing;
using Kind = WitnessViolation::Kind;

// Four ops of a TD heap: each holds the root, some hand over hand to a child.
// Root-release order: 1, 2, 3, 4.
HistoryBuilder td_heap() {
  HistoryBuilder b("pq-batch", k2(), "root-release");
  b.op(1, 10, 60, "ins", L({5, 1}), N()).hold(1, 1, 20, 50).hold(1, 2, 40, 55);
  b.op(2, 30, 120, "del", A({}), L({1, 5})).hold(2, 1, 70, 90).hold(2, 3, 80, 95);
  b.op(3, 35, 130, "ins", L({3}), N()).hold(3, 1, 100, 110);
  b.op(4, 140, 170, "del", A({}), L({3})).hold(4, 1, 150, 160);
  return b;
}

TEST(WitnessRootRelease, ProofOrderExplainsTheHistory) {
  const WitnessResult r = check_witness(td_heap().build());
  EXPECT_EQ(r.verdict, Verdict::Linearizable) << (r.violation ? r.violation->message : "");
  EXPECT_EQ(r.ops_replayed, 4u);
  EXPECT_FALSE(r.violation);
}

TEST(WitnessRootRelease, WrongResultNamesOpExpectedRecordedAndTime) {
  const History h = HistoryBuilder("pq-batch", k2(), "root-release")
                        .op(1, 10, 40, "ins", L({1, 2}), N()).hold(1, 1, 20, 30)
                        .op(2, 50, 80, "del", A({}), L({1})).hold(2, 1, 60, 70)
                        .build();
  const WitnessResult r = check_witness(h);
  ASSERT_EQ(r.verdict, Verdict::NotLinearizable);
  ASSERT_TRUE(r.violation);
  EXPECT_EQ(r.violation->kind, Kind::WrongResult);
  EXPECT_EQ(r.violation->op, 2);
  EXPECT_EQ(r.violation->expected, "[1,2]");
  EXPECT_EQ(r.violation->recorded, "[1]");
  EXPECT_EQ(r.violation->t, 70u);
  EXPECT_EQ(r.ops_replayed, 1u);
  EXPECT_NE(r.violation->message.find("t 70"), std::string::npos) << r.violation->message;
}

TEST(WitnessRootRelease, PointOutsideTheOp) {
  const History h = HistoryBuilder("pq-batch", k2(), "root-release")
                        .op(1, 20, 40, "ins", L({1}), N()).hold(1, 1, 10, 30)  // acquired before its inv
                        .build();
  const WitnessResult r = check_witness(h);
  ASSERT_TRUE(r.violation);
  EXPECT_EQ(r.violation->kind, Kind::PointOutside);
  EXPECT_EQ(r.violation->op, 1);
  EXPECT_EQ(r.violation->t, 10u);
}

TEST(WitnessRootRelease, HoldNotReleasedBeforeRetIsOutside) {
  const History h = HistoryBuilder("pq-batch", k2(), "root-release")
                        .op(1, 10, 40, "ins", L({1}), N()).acquire(1, 1, 20)
                        .build();
  const WitnessResult r = check_witness(h);
  ASSERT_TRUE(r.violation);
  EXPECT_EQ(r.violation->kind, Kind::PointOutside);
}

TEST(WitnessRootRelease, OverlappingHoldsNameBothOpsAndTheNode) {
  const History h = HistoryBuilder("pq-batch", k2(), "root-release")
                        .op(1, 10, 60, "ins", L({1}), N()).hold(1, 1, 20, 40)
                        .op(2, 15, 70, "ins", L({2}), N()).hold(2, 1, 30, 50)
                        .build();
  const WitnessResult r = check_witness(h);
  ASSERT_TRUE(r.violation);
  EXPECT_EQ(r.violation->kind, Kind::OverlappingHolds);
  EXPECT_EQ(r.violation->op, 2);
  EXPECT_EQ(r.violation->other_op, 1);
  EXPECT_EQ(r.violation->node, 1);
  EXPECT_EQ(r.violation->t, 30u);
  EXPECT_NE(r.violation->message.find("node 1"), std::string::npos);
}

TEST(WitnessRootRelease, OverlapOnAChildNodeToo) {
  History h = td_heap().hold(3, 3, 90, 105).build();  // op 2 holds node 3 until 95
  const WitnessResult r = check_witness(h);
  ASSERT_TRUE(r.violation);
  EXPECT_EQ(r.violation->kind, Kind::OverlappingHolds);
  EXPECT_EQ(r.violation->node, 3);
  EXPECT_EQ(r.violation->other_op, 2);
}

TEST(WitnessRootRelease, CompletedOpWithoutAPointFails) {
  const History h = td_heap().op(5, 180, 190, "del", A({}), L({})).build();
  const WitnessResult r = check_witness(h);
  ASSERT_TRUE(r.violation);
  EXPECT_EQ(r.violation->kind, Kind::MissingPoint);
  EXPECT_EQ(r.violation->op, 5);
  EXPECT_NE(r.violation->message.find("never held node 1"), std::string::npos);
}

TEST(WitnessRootRelease, PendingOpsTakeEffectExactlyWhenTheyHaveAPoint) {
  HistoryBuilder with_point("pq-batch", k2(), "root-release");
  with_point.pending(1, 10, "ins", L({7})).hold(1, 1, 20, 30);
  with_point.op(2, 40, 70, "del", A({}), L({7})).hold(2, 1, 50, 60);
  EXPECT_EQ(check_witness(with_point.build()).verdict, Verdict::Linearizable);

  HistoryBuilder no_point("pq-batch", k2(), "root-release");
  no_point.pending(1, 10, "ins", L({7}));
  EXPECT_EQ(check_witness(HistoryBuilder(no_point).op(2, 40, 70, "del", A({}), L({})).hold(2, 1, 50, 60).build()).verdict,
            Verdict::Linearizable);
  // The search would accept [7] here; the rule says the pending ins never happened.
  EXPECT_EQ(check_witness(HistoryBuilder(no_point).op(2, 40, 70, "del", A({}), L({7})).hold(2, 1, 50, 60).build()).verdict,
            Verdict::NotLinearizable);

  // A pending op that never released the root comes last.
  HistoryBuilder stuck("pq-batch", k2(), "root-release");
  stuck.op(1, 10, 40, "ins", L({3}), N()).hold(1, 1, 20, 30);
  stuck.pending(2, 50, "del", A({})).acquire(2, 1, 60);
  EXPECT_EQ(check_witness(stuck.build()).verdict, Verdict::Linearizable);
}

namespace root_order_test {

// The lock rules' order as defined: ops with a point by (end, begin, index).
std::vector<size_t> sorted_order(const PointScan& s) {
  std::vector<size_t> order;
  for (size_t i = 0; i < s.points.size(); ++i)
    if (s.points[i].has) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const OpPoint &x = s.points[a], &y = s.points[b];
    return std::tie(x.end, x.begin, a) < std::tie(y.end, y.begin, b);
  });
  return order;
}

}  // namespace root_order_test

// The root-release order is read off the releases as they come, without a sort:
// it is the sorted order on generated histories (History and KeyHistory), with
// holds never released (last, by their acq), and where two releases share a t
// (a history no reader checked: the sort decides).
TEST(WitnessRootRelease, OrderIsTheReleasesOrder) {
  std::vector<History> hs = {generate_pq_batch_history(3000, 4, 3, 16), generate_pq_batch_history(500, 1, 4, 2)};
  HistoryBuilder stuck("pq-batch", k2(), "root-release");
  stuck.op(1, 10, 40, "ins", L({3}), N()).hold(1, 1, 20, 30);
  stuck.pending(2, 50, "del", A({})).acquire(2, 1, 60);
  stuck.pending(3, 52, "del", A({})).acquire(3, 1, 55);
  stuck.op(4, 5, 58, "ins", L({4}), N()).hold(4, 1, 31, 57);
  hs.push_back(stuck.build());
  History tie = HistoryBuilder("pq-batch", k2(), "root-release")
                    .op(1, 1, 10, "ins", L({3}), N()).hold(1, 1, 2, 6)
                    .op(2, 3, 11, "ins", L({4}), N()).hold(2, 1, 4, 7)
                    .build();
  for (Event& e : tie.events)
    if (e.kind == EventKind::Rel && e.op == 2) e.t = 6;  // both release the root at t 6
  hs.push_back(tie);
  for (const History& h : hs) {
    const PointScan s = scan_points(h, LpRule::RootRelease);
    EXPECT_EQ(s.order, root_order_test::sorted_order(s));
    if (&h != &hs.back()) {
      EXPECT_EQ(scan_points(to_key_history(h), LpRule::RootRelease).order, s.order);
    }
  }
}

// Bottom-up insert: op 2 locks leaf 4, then node 2 (its last), never the root.
HistoryBuilder bu_heap(const char* rule) {
  HistoryBuilder b("pq-batch", k2(), rule);
  b.op(1, 10, 40, "ins", L({10, 11}), N()).hold(1, 1, 20, 30);
  b.op(2, 50, 100, "ins", L({20, 21}), N()).hold(2, 4, 60, 70).hold(2, 2, 80, 90);
  b.op(3, 55, 110, "del", A({}), L({10, 11})).hold(3, 1, 85, 95);
  b.op(4, 120, 150, "del", A({}), L({20, 21})).hold(4, 1, 130, 140);
  return b;
}

TEST(WitnessLastLock, InsertsTakeEffectAtTheirLastHold) {
  const WitnessResult r = check_witness(bu_heap("last-lock").build());
  EXPECT_EQ(r.verdict, Verdict::Linearizable) << (r.violation ? r.violation->message : "");
  // Root-release has no point for the bottom-up insert.
  const WitnessResult root = check_witness(bu_heap("root-release").build());
  ASSERT_TRUE(root.violation);
  EXPECT_EQ(root.violation->kind, Kind::MissingPoint);
  EXPECT_EQ(root.violation->op, 2);
}

TEST(WitnessLastLock, OrderIsByTheLastHoldsRelease) {
  // The insert's last hold now ends after the delete's root hold: the delete
  // comes first and must not see keys 20, 21.
  HistoryBuilder b("pq-batch", k2(), "last-lock");
  b.op(1, 10, 40, "ins", L({10, 11}), N()).hold(1, 1, 20, 30);
  b.op(2, 50, 100, "ins", L({1, 2}), N()).hold(2, 4, 60, 70).hold(2, 2, 80, 97);
  b.op(3, 55, 110, "del", A({}), L({10, 11})).hold(3, 1, 85, 95);
  EXPECT_EQ(check_witness(b.build()).verdict, Verdict::Linearizable);
  HistoryBuilder c("pq-batch", k2(), "last-lock");
  c.op(1, 10, 40, "ins", L({10, 11}), N()).hold(1, 1, 20, 30);
  c.op(2, 50, 100, "ins", L({1, 2}), N()).hold(2, 4, 60, 70).hold(2, 2, 80, 90);
  c.op(3, 55, 110, "del", A({}), L({10, 11})).hold(3, 1, 85, 95);
  const WitnessResult r = check_witness(c.build());
  ASSERT_TRUE(r.violation);
  EXPECT_EQ(r.violation->kind, Kind::WrongResult);
  EXPECT_EQ(r.violation->expected, "[1,2]");
}

TEST(WitnessExplicit, LpEvents) {
  HistoryBuilder b("map", Value::object(), "explicit");
  b.op(1, 10, 40, "replace", L({1, 10}), N()).lp(1, 30);
  b.op(2, 20, 50, "search", L({1}), N()).lp(2, 25);  // before the replace's lp
  b.op(3, 60, 70, "search", L({1}), I(10)).lp(3, 65);
  EXPECT_EQ(check_witness(b.build()).verdict, Verdict::Linearizable);

  const WitnessResult two = check_witness(HistoryBuilder(b).lp(3, 66).build());
  ASSERT_TRUE(two.violation);
  EXPECT_EQ(two.violation->kind, Kind::ExtraPoint);
  EXPECT_EQ(two.violation->op, 3);

  HistoryBuilder late("map", Value::object(), "explicit");
  late.op(1, 10, 40, "replace", L({1, 10}), N()).lp(1, 45);
  const WitnessResult outside = check_witness(late.build());
  ASSERT_TRUE(outside.violation);
  EXPECT_EQ(outside.violation->kind, Kind::PointOutside);
  EXPECT_EQ(outside.violation->t, 45u);
}

TEST(WitnessInput, NeedsAKnownLpRule) {
  EXPECT_THROW(check_witness(HistoryBuilder("pq-batch", k2()).build()), FormatError);
  EXPECT_THROW(check_witness(HistoryBuilder("pq-batch", k2(), "first-lock").build()), FormatError);
}

TEST(WitnessExplain, LinearizableButNotByTheProofsPoints) {
  // The delete's root hold comes after the insert's, yet it returns []: wrong by
  // the rule, but the ops overlap and the delete can go first.
  const History h = HistoryBuilder("pq-batch", k2(), "root-release")
                        .op(1, 10, 100, "ins", L({5}), N()).hold(1, 1, 20, 30)
                        .op(2, 15, 60, "del", A({}), L({})).hold(2, 1, 40, 50)
                        .build();
  WitnessOptions opt;
  opt.explain = true;
  const WitnessResult r = check_witness(h, opt);
  ASSERT_EQ(r.verdict, Verdict::NotLinearizable);
  ASSERT_TRUE(r.explanation);
  EXPECT_EQ(r.explanation->verdict, Verdict::Linearizable) << r.explanation->message;
  EXPECT_NE(r.explanation->message.find("not by the proof's points"), std::string::npos);
  EXPECT_EQ(check_search(h).verdict, Verdict::Linearizable);
}

TEST(WitnessExplain, NotLinearizableAtAllFromTheReplayedState) {
  // Ops 1-3 leave {9}. Op 5 returns [5]: wrong by the rule ([5,9]), and wrong in
  // any order of the window {4, 5} from {9} - though from {} it would fit.
  const History h = HistoryBuilder("pq-batch", k2(), "root-release")
                        .op(1, 1, 4, "ins", L({9, 8}), N()).hold(1, 1, 2, 3)
                        .op(2, 5, 8, "ins", L({7}), N()).hold(2, 1, 6, 7)
                        .op(3, 9, 12, "del", A({}), L({7, 8})).hold(3, 1, 10, 11)
                        .op(4, 20, 50, "ins", L({5}), N()).hold(4, 1, 30, 40)
                        .op(5, 60, 90, "del", A({}), L({5})).hold(5, 1, 70, 80)
                        .build();
  WitnessOptions opt;
  opt.explain = true;
  opt.window_before = 1;
  const WitnessResult r = check_witness(h, opt);
  ASSERT_TRUE(r.violation);
  EXPECT_EQ(r.violation->op, 5);
  EXPECT_EQ(r.violation->expected, "[5,9]");
  ASSERT_TRUE(r.explanation);
  EXPECT_EQ(r.explanation->verdict, Verdict::NotLinearizable) << r.explanation->message;
  EXPECT_EQ(r.explanation->ops, (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(r.explanation->initial_state, "{9}");
  EXPECT_EQ(check_search(h).verdict, Verdict::NotLinearizable);
}

}  // namespace
}  // namespace gpulin
