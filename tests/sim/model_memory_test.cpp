// The ptx memory mode over a program's own words (sim/memory/model_memory.h) and
// the simulator's side of it: stale reads as recorded choices, the execution
// context's orders, 64-bit single-copy atomicity, writes around the model, the
// re-read bound, the recorder's ordering, replay under the other mode.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "histories/recorder.h"
#include "sim/memory/model_memory.h"
#include "sim/schedule_string.h"
#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "sim/strategies/dfs_strategy.h"
#include "sim/strategies/replay_strategy.h"

namespace gpulin::sim::memory {
namespace {

// A chooser that reads the oldest candidate and counts its calls.
struct Oldest {
  uint32_t calls = 0;
  PtxMemory::Choose fn() {
    return [this](uint32_t) {
      ++calls;
      return 0u;
    };
  }
};

TEST(ModelMemory, ARelaxedLoadMayReadAnOlderStoreOfAnotherActor) {
  ModelMemory m(2);
  uint32_t x = 7;  // the host wrote it before the run: the initial store
  m.store(0, &x, 1, Order::Relaxed, Scope::Gpu);
  x = 1;
  m.store(0, &x, 2, Order::Relaxed, Scope::Gpu);
  x = 2;
  Oldest oldest;
  EXPECT_EQ(m.load(1, &x, Order::Relaxed, Scope::Gpu, oldest.fn()), 7u);
  EXPECT_EQ(oldest.calls, 1u);
  EXPECT_EQ(m.stale_reads(), 1u);
  // Its own stores bound what the writer reads: nothing to choose.
  EXPECT_EQ(m.load(0, &x, Order::Relaxed, Scope::Gpu, oldest.fn()), 2u);
  EXPECT_EQ(oldest.calls, 1u);
  EXPECT_EQ(x, 2u) << "the word itself holds the newest store";
}

// Actor 0 writes data (weak), then raises the flag with a release store.
void publish(ModelMemory& m, uint32_t& data, uint32_t& flag) {
  m.store(0, &data, 42, Order::Weak, Scope::Gpu);
  data = 42;
  m.store(0, &flag, 1, Order::Release, Scope::Gpu);
  flag = 1;
}

TEST(ModelMemory, AnAcquireOfAReleaseLeavesNothingOlderToRead) {
  Oldest oldest;
  for (Order flag_order : {Order::Acquire, Order::Relaxed}) {
    ModelMemory m(2);
    uint32_t data = 0, flag = 0;
    publish(m, data, flag);
    // The reader picks the newest flag (choice n - 1); after an acquire the data
    // has one candidate, after a relaxed load (which synchronises nothing) the
    // older store is still there to read.
    EXPECT_EQ(m.load(1, &flag, flag_order, Scope::Gpu, [](uint32_t n) { return n - 1; }), 1u);
    EXPECT_EQ(m.load(1, &data, Order::Weak, Scope::Gpu, oldest.fn()), flag_order == Order::Acquire ? 42u : 0u);
  }
  EXPECT_EQ(oldest.calls, 1u) << "only the relaxed reader had a choice";
}

TEST(ModelMemory, AStrongPairIsReadWholeAWeakOneMayTear) {
  ModelMemory m(2);
  alignas(8) uint64_t pair = 0;
  const uint64_t written = (uint64_t{5} << 32) | 6;
  m.rmw(0, &pair, written, Order::Relaxed, Scope::Gpu);
  pair = written;
  // Low half old (choice 0); the high half must come from the same store.
  EXPECT_EQ(m.load(1, &pair, Order::Relaxed, Scope::Gpu, [](uint32_t) { return 0u; }), 0u);
  ModelMemory w(2);
  pair = 0;
  w.rmw(0, &pair, written, Order::Relaxed, Scope::Gpu);
  pair = written;
  uint32_t picks = 0;
  // A weak load chooses each half: old low, new high.
  EXPECT_EQ(w.load(1, &pair, Order::Weak, Scope::Gpu, [&](uint32_t n) { return picks++ == 0 ? 0u : n - 1; }),
            uint64_t{5} << 32);
}

TEST(ModelMemory, AWriteAroundTheModelIsCountedAndHidesWhatItOverwrote) {
  ModelMemory m(2);
  uint32_t x = 0;
  m.store(0, &x, 1, Order::Relaxed, Scope::Gpu);
  x = 1;
  x = 9;  // the program wrote the word directly, not through the context
  Oldest oldest;
  EXPECT_EQ(m.load(1, &x, Order::Relaxed, Scope::Gpu, oldest.fn()), 9u);
  EXPECT_EQ(oldest.calls, 0u);
  EXPECT_EQ(m.outside_writes(), 1u);
}

TEST(ModelMemory, ASpinLoopSeesTheNewestStoreAfterABoundedNumberOfStaleReads) {
  ModelMemory m(2);
  uint32_t x = 0;
  m.store(0, &x, 1, Order::Relaxed, Scope::Gpu);
  x = 1;
  Oldest oldest;
  for (uint32_t i = 0; i < ModelMemory::kStaleRereads; ++i)
    EXPECT_EQ(m.load(1, &x, Order::Relaxed, Scope::Gpu, oldest.fn()), 0u) << "re-read " << i;
  EXPECT_EQ(m.load(1, &x, Order::Relaxed, Scope::Gpu, oldest.fn()), 1u);
  EXPECT_EQ(oldest.calls, ModelMemory::kStaleRereads) << "the bounded read is no decision";
}

TEST(ModelMemory, AnInvocationAfterAResponseSeesWhatItsOperationDid) {
  ModelMemory m(2);
  uint32_t x = 0;
  m.store(0, &x, 1, Order::Weak, Scope::Gpu);
  x = 1;
  m.record_event(0, Order::Release);  // actor 0's response
  m.record_event(1, Order::Acquire);  // actor 1's invocation, after it
  Oldest oldest;
  EXPECT_EQ(m.load(1, &x, Order::Weak, Scope::Gpu, oldest.fn()), 1u);
  EXPECT_EQ(oldest.calls, 0u);
}

// The simulator: a stale read is a choice the run's picks record (marked), a
// strict replay repeats it, and without its choices the same interleaving runs
// under sc.
struct MessagePassing {
  uint32_t data = 0, flag = 0;
  uint32_t seen_flag = 0, seen_data = 0;
  // Actor 0 writes data, then flag; actor 1 reads flag, then data. `ordered`: a
  // release store and an acquire load; else relaxed.
  void body(Simulator& sim, uint32_t a, bool ordered) {
    SimContext x(sim, a, nullptr, 1u);
    if (a == 0) {
      x.store(&data, 1, exec::relaxed);
      ordered ? x.store(&flag, 1) : x.store(&flag, 1, exec::relaxed);
    } else {
      seen_flag = ordered ? x.load(&flag) : x.cas(&flag, 7, 7, exec::relaxed);
      seen_data = x.load(&data);
    }
  }
};

// Every schedule of the test under `mode` (DFS without a bound); the outcomes
// (flag, data) seen and one schedule of the outcome (1, 0), if any.
struct Outcomes {
  bool flag_without_data = false;
  std::vector<uint32_t> witness;
  uint32_t runs = 0;
};
Outcomes explore(MemoryMode mode, bool ordered) {
  Outcomes out;
  Simulator sim;
  sim.set_memory_mode(mode);
  DfsStrategy dfs(1000);
  while (dfs.begin_run(2)) {
    MessagePassing t;
    const RunResult r = sim.run(2, [&](uint32_t a) { t.body(sim, a, ordered); }, dfs, 1000);
    ++out.runs;
    if (t.seen_flag == 1 && t.seen_data == 0 && !out.flag_without_data) {
      out.flag_without_data = true;
      out.witness = r.picks;
    }
  }
  return out;
}

TEST(SimMemoryMode, MessagePassingBreaksUnderPtxOnlyWithoutOrdering) {
  // The relaxed flag is read by a relaxed CAS that fails (it reads the newest
  // flag: an RMW), then the data load may still read the older store.
  EXPECT_FALSE(explore(MemoryMode::Sc, false).flag_without_data);
  const Outcomes relaxed = explore(MemoryMode::Ptx, false);
  ASSERT_TRUE(relaxed.flag_without_data);
  EXPECT_TRUE(std::any_of(relaxed.witness.begin(), relaxed.witness.end(), is_choice))
      << encode_picks(relaxed.witness) << ": the stale read is a recorded choice";
  const Outcomes ordered = explore(MemoryMode::Ptx, true);
  EXPECT_FALSE(ordered.flag_without_data) << "release/acquire in " << ordered.runs << " runs";

  // The witness replays exactly under ptx; without its choices it runs under sc.
  for (bool ptx : {true, false}) {
    Simulator sim;
    sim.set_memory_mode(ptx ? MemoryMode::Ptx : MemoryMode::Sc);
    ReplayStrategy replay(ptx ? relaxed.witness : ReplayStrategy::without_choices(relaxed.witness), true);
    replay.begin_run(2);
    MessagePassing t;
    const RunResult r = sim.run(2, [&](uint32_t a) { t.body(sim, a, false); }, replay, 1000);
    EXPECT_EQ(r.outcome, Outcome::Completed);
    EXPECT_EQ(t.seen_flag, 1u);
    EXPECT_EQ(t.seen_data, ptx ? 0u : 1u);
    EXPECT_EQ(r.stale_reads, ptx ? 1u : 0u);
  }
}

TEST(SimMemoryMode, AReplayThatChoosesWhereTheRunPicksIsRefused) {
  Simulator sim;
  sim.set_memory_mode(MemoryMode::Ptx);
  // The first decision (who runs first) recorded as a choice.
  ReplayStrategy replay({0u | kChoiceMark, 1u}, true);
  replay.begin_run(2);
  MessagePassing t;
  try {
    sim.run(2, [&](uint32_t a) { t.body(sim, a, false); }, replay, 1000);
    FAIL() << "a choice where the run picks an actor replayed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is a choice of a value where the run picks an actor"), std::string::npos)
        << e.what();
  }
}

// A pair written by one 64-bit CAS, read by another warp's lanes: with a 32-bit
// load a lane (load_lanes) the key lane may read the new key while the value lane
// reads the old value (the two loads overlap the CAS only in part); read a pair at
// a time (load_lane_pairs) it never tears (the slab hash's reads, docs/findings.md M2).
bool pair_tears(bool by_pairs) {
  Simulator sim;
  sim.set_memory_mode(MemoryMode::Ptx);
  DfsStrategy dfs(1000);
  bool torn = false;
  while (dfs.begin_run(2)) {
    alignas(128) uint32_t slab[32];
    for (uint32_t& w : slab) w = ~0u;  // EMPTY keys and values
    uint32_t key = 0, value = 0;
    sim.run(
        2,
        [&](uint32_t a) {
          SimContext x(sim, a, nullptr, WarpPlace{a, 2, 0, nullptr});
          if (a == 0) {
            x.cas(reinterpret_cast<uint64_t*>(slab), ~uint64_t{0}, (uint64_t{7} << 32) | 5, exec::relaxed);
            return;
          }
          if (by_pairs) {
            SimContext::Regs<uint32_t, 2> r;
            x.load_lane_pairs(r, [&](uint32_t l) { return slab + l; });
            key = r.of(0)[0];
            value = r.of(0)[1];  // the key lane's own pair
            if (r.of(1)[0] != value || r.of(1)[1] != key) torn = true;  // both lanes hold the one read
          } else {
            SimContext::Regs<uint32_t, 1> r;
            x.load_lanes(r, [&](uint32_t l) { return slab + l; });
            key = r.of(0)[0];
            value = r.of(1)[0];
          }
        },
        dfs, 1000);
    torn |= key == 5 && value != 7;
  }
  return torn;
}

TEST(SimMemoryMode, APairReadWholeNeverTearsTwoWordReadsMay) {
  EXPECT_TRUE(pair_tears(false));
  EXPECT_FALSE(pair_tears(true));
}

}  // namespace
}  // namespace gpulin::sim::memory
