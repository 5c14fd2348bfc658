// Counterexample minimisation shrinks a failing history to its core.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/verify/history_builder.h"
#include "verify/minimise.h"
#include "verify/witness_checker.h"

namespace gpulin {
namespace {

using namespace gpulin::testing;

std::vector<int64_t> ids(const History& h) {
  std::vector<int64_t> out;
  for (const Operation& op : h.ops) out.push_back(op.id);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Minimise, TwentyOpsShrinkToTheStaleReadCore) {
  // 18 concurrent writes on keys 1..9 (harmless whatever is dropped), and on key
  // 0 a replace followed by a search that misses it: the core, ops 100 and 101.
  HistoryBuilder b("map");
  for (int64_t i = 0; i < 18; ++i)
    b.op(i, 10 + 3 * i, 200 + 5 * i, "replace", L({1 + i % 9, i}), N());
  b.op(100, 50, 60, "replace", L({0, 7}), N());
  b.op(101, 70, 80, "search", L({0}), N());
  const History h = b.build();
  ASSERT_EQ(h.ops.size(), 20u);
  MinimiseStats stats;
  const History core = minimise(h, still_fails(CheckMethod::Search), &stats);
  EXPECT_EQ(ids(core), (std::vector<int64_t>{100, 101}));
  EXPECT_EQ(core.header.model, "map");
  EXPECT_EQ(core.events.size(), 4u);  // each op keeps its inv and ret
  EXPECT_GT(stats.checks, 2u);
}

TEST(Minimise, LostInsertOfAPriorityQueue) {
  // The delete misses the completed insert of key 1. The other 18 ops are
  // concurrent inserts invoked later, harmless whatever is dropped (a delete
  // among them would fail beside the insert of key 1: a second core).
  HistoryBuilder b("pq");
  b.op(50, 1, 2, "ins", L({1}), N());
  b.op(51, 3, 4, "del", A({}), L({}));
  for (int64_t i = 0; i < 18; ++i) b.op(i, 10 + i, 100 + i, "ins", L({100 + i}), N());
  const History h = b.build();
  ASSERT_EQ(h.ops.size(), 20u);
  const History core = minimise(h, still_fails(CheckMethod::Search));
  EXPECT_EQ(ids(core), (std::vector<int64_t>{50, 51}));
}

TEST(Minimise, WitnessMethodKeepsTheWrongResult) {
  HistoryBuilder b("pq-batch", Value::object({{"k", I(1)}}), "root-release");
  for (int64_t i = 0; i < 5; ++i)
    b.op(i, 100 * i + 1, 100 * i + 9, "ins", L({i}), N()).hold(i, 1, 100 * i + 2, 100 * i + 3);
  b.op(9, 600, 700, "del", A({}), L({3})).hold(9, 1, 610, 620);  // should be [0]
  const History core = minimise(b.build(), still_fails(CheckMethod::Witness));
  // Dropping every insert but key 0 keeps the failure; so does dropping all of
  // them (3 was never inserted): the core is the delete alone.
  EXPECT_EQ(ids(core), (std::vector<int64_t>{9}));
  EXPECT_EQ(check_witness(core).verdict, Verdict::NotLinearizable);
}

TEST(Minimise, RefusesAHistoryThatDoesNotFail) {
  const History h = HistoryBuilder("set").op(1, 1, 2, "insert", L({1}), N()).build();
  EXPECT_THROW(minimise(h, still_fails(CheckMethod::Search)), std::invalid_argument);
}

}  // namespace
}  // namespace gpulin
