// The GPU watchdog (cuda/watchdog.h) over a real deadlock: the fixed TD heap with
// the lost-root-release mutant (the first operation keeps the root; every later one
// waits on it) under gpulin stress. The run must stop instead of hanging, name the
// root's lock and the blocks waiting on it, write the partial history with its
// pending operations (a history the format's rules accept), and the command must
// exit 1. Label `gpu`; skips without a device.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "histories/jsonl_reader.h"
#include "histories/rules.h"
#include "tests/gpu/have_gpu.h"
#include "structures/gheap/gpu/heap_stress.h"

namespace gpulin::stress {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("gpulin_watchdog_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d;
}

StressOptions deadlocking(const fs::path& out) {
  StressOptions o;
  o.mutant = gheap::Mutant::LostRootRelease;
  o.blocks = 32;
  o.threads = 128;
  o.k = 16;
  o.keys = 1 << 12;
  o.record = true;
  o.out_dir = out.string();
  o.spin_bound = 1 << 14;  // about 16 ms of waiting, not the default's 17 s
  return o;
}

TEST(WatchdogGpu, ADeadlockedHeapStopsNamesTheLockAndKeepsThePartialHistory) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  const fs::path out = fresh_dir("lib");
  const StressResult r = run_stress(deadlocking(out));
  std::printf("%s\n", r.watchdog.c_str());
  ASSERT_FALSE(r.watchdog.empty()) << "the deadlock was not stopped by the watchdog";
  EXPECT_NE(r.watchdog.find("on the lock of node 1 (value 1)"), std::string::npos) << r.watchdog;
  EXPECT_NE(r.watchdog.find("past the spin bound of 16384 re-reads"), std::string::npos) << r.watchdog;
  EXPECT_NE(r.watchdog.find("other blocks were waiting"), std::string::npos) << r.watchdog;
  ASSERT_FALSE(r.history_path.empty());
  EXPECT_GT(r.pending_ops, 0u);
  // The partial history reads back under the format's rules, with its pending ops.
  const History h = read_history_file(r.history_path);
  check_events(h.events, h.source);
  uint64_t pending = 0;
  for (const Operation& op : h.ops) pending += op.pending();
  EXPECT_EQ(pending, r.pending_ops);
  EXPECT_GE(pending, 1u);
  // The root's holder is in it: an acq of node 1 that no rel follows (its hold
  // never ended, so no record implied its acq: it was stored at its op's end).
  std::map<int64_t, int> root_holds;  // op -> acqs minus rels of node 1
  for (const Event& e : h.events)
    if (e.node == 1 && (e.kind == EventKind::Acq || e.kind == EventKind::Rel))
      root_holds[e.op] += e.kind == EventKind::Acq ? 1 : -1;
  const auto holders = std::count_if(root_holds.begin(), root_holds.end(), [](const auto& kv) { return kv.second == 1; });
  EXPECT_EQ(holders, 1) << "the operation that kept the root";
  fs::remove_all(out);
}

TEST(WatchdogGpu, TheCommandExitsOneAndSaysWhere) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  const fs::path out = fresh_dir("cli");
  const fs::path log = out.string() + ".log";
  const std::string cmd = std::string(GPULIN_BIN) +
                          " stress --structure gheap-td --mutant lost-root-release --blocks 16 --threads 64 --k 8 "
                          "--keys 2048 --spin-bound 16384 --record --out " + out.string() + " > " + log.string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  std::printf("%s", text.str().c_str());
  ASSERT_TRUE(WIFEXITED(status)) << "killed or crashed";
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_NE(text.str().find("GPU watchdog: block"), std::string::npos);
  EXPECT_NE(text.str().find("the lock of node 1"), std::string::npos);
  EXPECT_NE(text.str().find("stopped by the watchdog"), std::string::npos);
  EXPECT_TRUE(fs::exists(out / "gheap-td-fixed-gpu-partial.jsonl"));
  fs::remove_all(out);
  fs::remove(log);
}

// The mutant is built only where the test needs it; elsewhere it is refused as bad
// input, not silently run as the production heap.
TEST(WatchdogGpu, TheMutantElsewhereIsRefused) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  StressOptions o = deadlocking(fresh_dir("bad"));
  o.flavor = gheap::Flavor::BottomUp;
  EXPECT_THROW(run_stress(o), std::invalid_argument);
}

}  // namespace
}  // namespace gpulin::stress
