// The warp-role context of the simulator (sim/sim_warp_context.h, sim/sim_block.h):
// transaction barriers with the hardware's phase-parity semantics, a wait nobody
// completes ending the run as a deadlock, the block barrier, lane arrivals taking
// effect after the warp step, and the bulk copy engine's rules as faults.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "sim/sim_block.h"
#include "sim/sim_warp_context.h"
#include "sim/simulator.h"
#include "sim/strategies/random_strategy.h"

namespace gpulin::sim {
namespace {

struct alignas(16) Smem {
  unsigned char bytes[256];
};

// Warp 0 produces two phases on `full` (bytes by bulk copy, then its arrival); warp
// 1 waits for each and reads what landed. Under every random schedule the reader
// sees the data of its phase.
TEST(SimWarpContext, BarrierPhasesOrderAProducerAndAConsumer) {
  for (uint64_t seed = 0; seed < 50; ++seed) {
    Smem smem{};
    alignas(16) uint32_t src[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
    std::vector<uint32_t> seen;
    Simulator sim;
    SimBlock blk(sim, smem.bytes, sizeof smem.bytes, 2);
    auto* full = reinterpret_cast<uint64_t*>(smem.bytes);
    auto* empty = full + 1;
    auto* stage = reinterpret_cast<uint32_t*>(smem.bytes + 16);
    RandomStrategy rnd(seed);
    rnd.begin_run(2);
    const RunResult r = sim.run(
        2,
        [&](uint32_t a) {
          SimWarpContext x(sim, blk, 0, 1, a);
          if (x.first_thread()) {
            x.init_barrier(full, 1);
            x.init_barrier(empty, 32);
          }
          x.block_sync();
          for (uint32_t phase = 0; phase < 2; ++phase) {
            if (a == 0) {
              if (phase > 0) x.wait(empty, 0);  // the consumer released the stage
              x.expect_bytes(full, 16);
              x.bulk_load(stage, src[phase], 16, full);
              x.arrive(full);
            } else {
              x.wait(full, phase & 1);
              seen.push_back(stage[3]);
              x.for_each_lane([&](uint32_t) { x.arrive(empty); });  // every lane arrives
            }
          }
        },
        rnd, 10'000);
    ASSERT_EQ(r.outcome, Outcome::Completed) << r.message;
    EXPECT_EQ(seen, (std::vector<uint32_t>{4, 8})) << "seed " << seed;
    EXPECT_EQ(blk.bulk_bytes(), 32u);
  }
}

// A wait for a phase nobody completes parks the warp: the run is a deadlock, not a hang.
TEST(SimWarpContext, AWaitNobodyCompletesIsADeadlock) {
  Smem smem{};
  Simulator sim;
  SimBlock blk(sim, smem.bytes, sizeof smem.bytes, 2);
  auto* bar = reinterpret_cast<uint64_t*>(smem.bytes);
  RandomStrategy rnd(3);
  rnd.begin_run(2);
  const RunResult r = sim.run(
      2,
      [&](uint32_t a) {
        SimWarpContext x(sim, blk, 0, 1, a);
        if (x.first_thread()) x.init_barrier(bar, 2);  // two arrivals expected, one comes
        x.block_sync();
        if (a == 0) x.arrive(bar);
        x.wait(bar, 0);
      },
      rnd, 10'000);
  EXPECT_EQ(r.outcome, Outcome::Deadlock) << r.message;
}

// The parity semantics of the hardware: wait(1) passes before any phase completed
// (the "previous" phase of parity 1), wait(0) needs phase 0 complete.
TEST(SimWarpContext, ParityOneIsCompleteBeforeTheFirstPhase) {
  Smem smem{};
  Simulator sim;
  SimBlock blk(sim, smem.bytes, sizeof smem.bytes, 1);
  auto* bar = reinterpret_cast<uint64_t*>(smem.bytes);
  RandomStrategy rnd(1);
  rnd.begin_run(1);
  const RunResult r = sim.run(
      1,
      [&](uint32_t) {
        SimWarpContext x(sim, blk, 0, 1, 0);
        x.init_barrier(bar, 1);
        x.wait(bar, 1);
        x.wait(bar, 0);  // never completes: one warp, no arrival
      },
      rnd, 10'000);
  EXPECT_EQ(r.outcome, Outcome::Deadlock);
}

TEST(SimWarpContext, BulkCopyRulesAreFaults) {
  Smem smem{};
  alignas(16) unsigned char src[64] = {};
  for (uint32_t bad = 0; bad < 3; ++bad) {
    Simulator sim;
    SimBlock blk(sim, smem.bytes, sizeof smem.bytes, 1);
    auto* bar = reinterpret_cast<uint64_t*>(smem.bytes);
    RandomStrategy rnd(1);
    rnd.begin_run(1);
    const RunResult r = sim.run(
        1,
        [&](uint32_t) {
          SimWarpContext x(sim, blk, 0, 1, 0);
          x.init_barrier(bar, 1);
          if (bad == 0) x.bulk_load(smem.bytes + 20, src, 16, bar);   // misaligned destination
          if (bad == 1) x.bulk_load(smem.bytes + 16, src, 12, bar);   // not whole 16-byte units
          if (bad == 2) x.bulk_load(smem.bytes + 240, src, 32, bar);  // past shared memory
        },
        rnd, 10'000);
    EXPECT_EQ(r.outcome, Outcome::Fault) << "case " << bad;
  }
}

}  // namespace
}  // namespace gpulin::sim
