// The GPU watchdog's report (cuda/watchdog_host.h) from what the device recorded:
// who stopped the run, on which word, and who was waiting on what, grouped by word
// with the actors as ranges. The device side runs in the gpu tests (SpinBound.*,
// WatchdogGpu.*); this is the text a user reads, checked without a GPU.
#include <gtest/gtest.h>

#include <string>

#include "cuda/watchdog_host.h"

namespace gpulin::cuda_exec {
namespace {

constexpr uint64_t kRoot = 0x1000, kOther = 0x2000;

std::string name(uint64_t a) { return a == kRoot ? "the lock of node 1" : std::string(); }

// A run the watchdog stopped, by `actor`, whose wait on `word` (seeing `seen`) passed the bound.
WatchdogReport stopped_on(uint32_t actor, uint64_t word, uint32_t seen, uint64_t bound) {
  WatchdogReport r;
  r.stopped = true;
  r.stopped_by = actor;
  r.spin_bound = bound;
  r.waits.push_back({word, actor, seen, kStopSpinBound, 0});
  return r;
}

TEST(WatchdogReport, IdRangesAreSortedAndMerged) {
  EXPECT_EQ(id_ranges({9, 2, 1, 3, 5, 3}), "1-3, 5, 9");
  EXPECT_EQ(id_ranges({}), "");
  EXPECT_EQ(id_ranges({7}), "7");
}

TEST(WatchdogReport, NamesTheStopperTheWordsAndTheWaiters) {
  WatchdogReport r = stopped_on(3, kRoot, 1, 16384);
  for (uint32_t b : {0u, 1u, 2u, 4u, 5u}) r.waits.push_back({kRoot, b, 1, kStopWasWaiting, 0});
  r.waits.push_back({kOther, 6, 0, kStopWasWaiting, 0});
  const std::string s = describe(r, name);
  EXPECT_EQ(s,
            "GPU watchdog: block 3 waited on the lock of node 1 (value 1) past the spin bound of 16384 re-reads and "
            "stopped the run; 6 other blocks were waiting when it stopped; on the lock of node 1 (value 1): blocks "
            "0-2, 4-5; on the word at 0x2000 (value 0): block 6");
}

// A value namer reads what a word's value means (a heap root's counted word);
// where it says nothing, the number stands alone.
TEST(WatchdogReport, AValueNamerReadsTheWordsValue) {
  WatchdogReport r = stopped_on(0, kRoot, 8193, 64);
  r.waits.push_back({kOther, 1, 5, kStopWasWaiting, 0});
  const auto value = [](uint64_t a, uint32_t v) {
    return a == kRoot ? std::to_string(v) + ", state 1 after 1024 holds" : std::string();
  };
  const std::string s = describe(r, name, "block", value);
  EXPECT_NE(s.find("on the lock of node 1 (value 8193, state 1 after 1024 holds) past"), std::string::npos) << s;
  EXPECT_NE(s.find("on the word at 0x2000 (value 5): block 1"), std::string::npos) << s;
}

TEST(WatchdogReport, AFailureAndLostRecordsAreSaid) {
  WatchdogReport r;
  r.stopped = true;
  r.stopped_by = 2;
  r.waits.push_back({0, 2, 0, kStopFailed, 0});
  r.waits_lost = 4;
  const std::string s = describe(r, name, "warp");
  EXPECT_NE(s.find("warp 2 failed (the device printed why)"), std::string::npos) << s;
  EXPECT_NE(s.find("0 other warps were waiting"), std::string::npos) << s;
  EXPECT_NE(s.find("4 more waits not kept"), std::string::npos) << s;
}

TEST(WatchdogReport, ARunNotStoppedSaysSo) {
  EXPECT_EQ(describe(WatchdogReport{}, name), "the watchdog did not stop the run");
}

}  // namespace
}  // namespace gpulin::cuda_exec
