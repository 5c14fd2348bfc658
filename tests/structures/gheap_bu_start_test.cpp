// The fixed BU insert starts its descent where the bottom-up insert would stop
// (structures/gheap/bu_insert.h): with ascending batches that is the target's
// parent, and the root is released before the batch goes down; with descending
// batches it is the root, as in the TD heap. Read off the recorded lock holds.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "sim/strategies/pct_strategy.h"
#include "structures/gheap/sim/heap_run.h"

namespace gpulin::explore {
namespace {

struct InsertHolds {
  std::vector<int64_t> acquired;  // nodes, in order
  bool root_released_before_target = false;
};

// One actor inserting 15 full batches of k = 2 (nodes 1..15, four levels).
std::vector<InsertHolds> insert_holds(gheap::Flavor flavor, bool ascending) {
  HeapConfig c;
  c.flavor = flavor;
  c.variant = gheap::Variant::Fixed;
  c.k = 2;
  Program p;
  p.actors.resize(1);
  for (uint32_t i = 0; i < 15; ++i) {
    const uint32_t base = ascending ? 2 * i : 100 - 2 * i;
    p.actors[0].push_back(HeapOp{true, {base, base + 1}});
  }
  HeapRunner runner(c);
  sim::PctStrategy pct(1, 3);
  pct.begin_run(1);
  const Execution e = runner.execute(p, pct, 100'000);
  EXPECT_FALSE(e.invariant_failure.has_value());
  std::map<int64_t, InsertHolds> by_op;
  std::map<int64_t, bool> root_released;
  for (const Event& ev : e.history.events) {
    if (ev.kind == EventKind::Acq) by_op[ev.op].acquired.push_back(ev.node);
    if (ev.kind == EventKind::Rel && ev.node == 1) root_released[ev.op] = true;
    if (ev.kind == EventKind::Acq && ev.node != 1 && root_released[ev.op]) by_op[ev.op].root_released_before_target = true;
  }
  std::vector<InsertHolds> out;
  for (auto& [op, h] : by_op) out.push_back(h);
  return out;
}

TEST(BottomUpStart, AscendingBatchesStartAtTheTargetsParent) {
  const auto holds = insert_holds(gheap::Flavor::BottomUp, true);
  ASSERT_EQ(holds.size(), 15u);
  for (size_t i = 3; i < holds.size(); ++i) {  // targets 4..15 have a parent below the root
    const auto& a = holds[i].acquired;
    ASSERT_EQ(a.size(), 3u) << "insert " << i;
    EXPECT_EQ(a[0], 1);
    EXPECT_EQ(a[1], a[2] / 2) << "insert " << i << " should start at its target's parent";
    EXPECT_TRUE(holds[i].root_released_before_target) << "insert " << i;
  }
}

TEST(BottomUpStart, DescendingBatchesStartAtTheRootLikeTheTopDownInsert) {
  const auto bu = insert_holds(gheap::Flavor::BottomUp, false);
  const auto td = insert_holds(gheap::Flavor::TopDown, false);
  ASSERT_EQ(bu.size(), td.size());
  for (size_t i = 0; i < bu.size(); ++i) EXPECT_EQ(bu[i].acquired, td[i].acquired) << "insert " << i;
  // The TD insert walks the whole path: target 8 is reached through 1, 2 (or 3), 4 ...
  EXPECT_EQ(td[7].acquired.size(), 4u);
}

}  // namespace
}  // namespace gpulin::explore
