// The parallel heap's host controller (structures/psync/controller.h): how a cycle's
// keys split between the application, the root and new insert-update processes;
// one or two processes by whether the extra keys cross into a new node; the refill
// from the newest process first, then the end of the heap; arrivals in slot order;
// when delete-update processes stop; refusals.
#include <gtest/gtest.h>

#include <stdexcept>

#include "structures/psync/controller.h"

namespace gpulin::psync {
namespace {

// Runs the two update steps of a cycle.
void update(Controller& c) {
  c.step();
  c.step();
}

TEST(PsyncController, AFirstCycleFillsTheRootAndHandsOutR) {
  Controller c(2, 16);
  const CyclePlan p = c.begin_cycle(4, 0);
  EXPECT_EQ(p.root.root_fill, 0u);
  EXPECT_EQ(p.root.out_count, 2u);
  EXPECT_EQ(p.root.root_keep, 2u);
  EXPECT_EQ(p.root.spawned, 0u);
  EXPECT_TRUE(p.refills.empty());
  EXPECT_EQ(c.arrived_end(), 2u);
  EXPECT_EQ(c.levels(), 1u);
}

TEST(PsyncController, ExtraKeysSinkToTheirTargetOneLevelAStep) {
  Controller c(2, 16);
  c.begin_cycle(4, 0);
  update(c);
  const CyclePlan p = c.begin_cycle(4, 1);  // 2 at the root + 4 new: 2 out, 2 stay, 2 go to node 2
  ASSERT_EQ(p.root.spawned, 1u);
  EXPECT_EQ(p.root.spawn_count[0], 2u);
  EXPECT_EQ(c.reserved_end(), 4u);
  EXPECT_EQ(c.arrived_end(), 2u);
  const StepTasks even = c.step();
  ASSERT_EQ(even.levels, 1u);
  EXPECT_EQ(even.level[0].level, 0u);
  ASSERT_EQ(even.level[0].inserts, 1u);
  EXPECT_EQ(even.level[0].insert[0].node, 1u);  // on its way: merged with the root
  EXPECT_EQ(even.level[0].insert[0].arrives, 0u);
  EXPECT_EQ(even.level[0].insert[0].fill, 2u);
  EXPECT_EQ(even.level[0].has_delete, 1u);  // the cycle's delete-update starts at the root
  EXPECT_EQ(even.arrived_end, 2u);
  const StepTasks odd = c.step();
  ASSERT_EQ(odd.levels, 1u);
  EXPECT_EQ(odd.level[0].level, 1u);
  EXPECT_EQ(odd.level[0].insert[0].node, 2u);
  EXPECT_EQ(odd.level[0].insert[0].arrives, 1u);
  EXPECT_EQ(odd.level[0].insert[0].fill, 0u);
  EXPECT_EQ(odd.level[0].has_delete, 0u);  // level 1 is the bottom: no children to merge with
  EXPECT_EQ(odd.arrived_end, 4u);
  EXPECT_FALSE(c.in_flight());
}

TEST(PsyncController, ExtraKeysAcrossANodeBoundaryStartTwoProcesses) {
  Controller c(2, 16);
  c.begin_cycle(4, 0);  // root 2
  update(c);
  c.begin_cycle(4, 1);  // +2: node 2
  update(c);
  c.begin_cycle(3, 2);  // 2 + 3: 2 out, 2 stay, 1 to node 3
  update(c);
  EXPECT_EQ(c.arrived_end(), 5u);
  const CyclePlan p = c.begin_cycle(4, 3);  // 2 more: one fills node 3, one starts node 4
  ASSERT_EQ(p.root.spawned, 2u);
  EXPECT_EQ(p.root.spawn_count[0], 1u);
  EXPECT_EQ(p.root.spawn_count[1], 1u);
  const StepTasks even = c.step();
  ASSERT_EQ(even.level[0].inserts, 2u);  // both merge with the root first
  const StepTasks odd = c.step();
  ASSERT_EQ(odd.levels, 1u);
  ASSERT_EQ(odd.level[0].inserts, 2u);
  EXPECT_EQ(odd.level[0].insert[0].node, 3u);  // node 3 is its target: it arrives
  EXPECT_EQ(odd.level[0].insert[0].arrives, 1u);
  EXPECT_EQ(odd.level[0].insert[0].fill, 1u);
  EXPECT_EQ(odd.level[0].insert[1].node, 2u);  // node 4's parent, on the way
  EXPECT_EQ(odd.level[0].insert[1].arrives, 0u);
  EXPECT_EQ(odd.arrived_end, 6u);
  EXPECT_TRUE(c.in_flight());
  const StepTasks next = c.step();
  EXPECT_EQ(next.level[0].insert[0].node, 4u);
  EXPECT_EQ(next.arrived_end, 7u);
}

TEST(PsyncController, TooFewKeysRefillTheRootFromTheNewestProcessThenTheEnd) {
  Controller c(2, 16);
  c.begin_cycle(4, 0);
  update(c);
  c.begin_cycle(4, 1);
  update(c);  // nodes 1 and 2 full: 4 keys
  c.begin_cycle(4, 2);  // 2 more to node 3, in flight
  EXPECT_EQ(c.reserved_end(), 6u);
  c.step();  // the process is at level 1 now, not arrived
  c.step();  // it arrives at node 3
  c.begin_cycle(4, 3);  // 2 more to node 4 (level 2), in flight
  c.step();
  const CyclePlan p = c.begin_cycle(0, 4);  // nothing new: 2 out, the root needs 2
  EXPECT_EQ(p.root.out_count, 2u);
  EXPECT_EQ(p.root.root_keep, 0u);
  ASSERT_EQ(p.refills.size(), 1u);
  const RefillTask& t = p.refills[0];
  EXPECT_EQ(t.root_fill, 0u);
  ASSERT_EQ(t.chunks, 1u);
  EXPECT_EQ(t.chunk[0].from_buffer, 1u);  // the process in flight gives both its keys
  EXPECT_EQ(t.chunk[0].count, 2u);
  EXPECT_EQ(t.chunk[0].from, 0u);
  EXPECT_EQ(c.reserved_end(), 6u);
  const CyclePlan q = c.begin_cycle(1, 5);  // 2 at the root + 1: 2 out, 1 stays, 1 from node 3's end
  ASSERT_EQ(q.refills.size(), 1u);
  ASSERT_EQ(q.refills[0].chunks, 1u);
  EXPECT_EQ(q.refills[0].root_fill, 1u);
  EXPECT_EQ(q.refills[0].chunk[0].from_buffer, 0u);
  EXPECT_EQ(q.refills[0].chunk[0].index, 3u);
  EXPECT_EQ(q.refills[0].chunk[0].from, 1u);  // its last key
  EXPECT_EQ(q.refills[0].chunk[0].count, 1u);
  EXPECT_EQ(c.arrived_end(), 5u);
}

TEST(PsyncController, AHeapThatEmptiesIntoTheRootKeepsWhatThereIs) {
  Controller c(4, 16);
  c.begin_cycle(8, 0);  // root 4
  update(c);
  c.begin_cycle(6, 1);  // 4 + 6: 4 out, 4 stay, 2 to node 2
  update(c);
  const CyclePlan p = c.begin_cycle(0, 2);  // 4 out; the root needs 4, the heap has 2 more
  EXPECT_EQ(p.root.out_count, 4u);
  ASSERT_EQ(p.refills.size(), 1u);
  EXPECT_EQ(p.refills[0].chunk[0].count, 2u);
  EXPECT_EQ(c.arrived_end(), 2u);
  EXPECT_EQ(c.reserved_end(), 2u);
  EXPECT_EQ(c.levels(), 1u);
}

TEST(PsyncController, CyclesThatOnlyInsertOrOnlyDelete) {
  Controller c(2, 16);
  CyclePlan p = c.begin_cycle(2, 0, 0);  // insert-only: everything stays
  EXPECT_EQ(p.root.out_count, 0u);
  EXPECT_EQ(p.root.root_keep, 2u);
  update(c);
  p = c.begin_cycle(2, 1, 0);  // the root is full: both keys go down
  EXPECT_EQ(p.root.spawned, 1u);
  EXPECT_EQ(c.reserved_end(), 4u);
  EXPECT_THROW(c.begin_cycle(3, 2, 0), std::invalid_argument);  // 3 keys down: three processes' worth
  update(c);
  p = c.begin_cycle(0, 2);  // delete-only: r out, the root refilled from the end
  EXPECT_EQ(p.root.out_count, 2u);
  ASSERT_EQ(p.refills.size(), 1u);
  EXPECT_EQ(c.arrived_end(), 2u);
}

TEST(PsyncController, RefusesTooManyKeysAndAFullHeap) {
  Controller c(2, 2);
  EXPECT_THROW(c.begin_cycle(5, 0), std::invalid_argument);
  c.begin_cycle(4, 0);
  update(c);
  c.begin_cycle(4, 1);  // node 2
  update(c);
  EXPECT_THROW(c.begin_cycle(4, 2), std::length_error);  // node 3 would exceed 2 nodes
}

}  // namespace
}  // namespace gpulin::psync
