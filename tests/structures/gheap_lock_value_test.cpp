// How a heap lock word's value reads in the GPU watchdog's report
// (structures/gheap/lock_value.h): a counted root's word says its state and its
// holds; every other value is left to the number alone.
#include <gtest/gtest.h>

#include "structures/gheap/lock_value.h"

namespace gpulin::gheap {
namespace {

TEST(GHeapLockValue, TheCountedRootSaysItsStateAndHolds) {
  EXPECT_EQ(lock_value_text(1, 1024 * exec::kCountedOneHold + INUSE), "8193, INUSE after 1024 holds");
  EXPECT_EQ(lock_value_text(1, 3 * exec::kCountedOneHold + AVAIL), "24, AVAIL after 3 holds");
  EXPECT_EQ(lock_value_text(1, INUSE), "") << "no hold ended yet: the number is the state";
  EXPECT_EQ(lock_value_text(2, INUSE), "") << "only the root's word counts";
}

}  // namespace
}  // namespace gpulin::gheap
