// The warp-role context of the simulator (sim/sim_context.h with a WarpPlace, sim/sim_block.h):
// transaction barriers with the hardware's phase-parity semantics, a wait nobody
// completes ending the run as a deadlock, the block barrier, lane arrivals taking
// effect after the warp step, and the bulk copy engine's rules as faults.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "sim/sim_block.h"
#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "sim/strategies/random_strategy.h"
#include "structures/exec/lane_search.h"

namespace gpulin::sim {
namespace {

struct alignas(16) Smem {
  unsigned char bytes[256];
};

// One block of `warps` warp fibers over `smem`, under random schedules from `seed`;
// body(x) is each warp's code. `bulk_bytes`: the bytes its bulk copies delivered.
template <class Body>
RunResult run_block(Smem& smem, uint32_t warps, uint64_t seed, Body&& body, uint64_t* bulk_bytes = nullptr) {
  Simulator sim;
  SimBlock blk(sim, smem.bytes, sizeof smem.bytes, warps);
  RandomStrategy rnd(seed);
  rnd.begin_run(warps);
  RunResult r = sim.run(
      warps,
      [&](uint32_t a) {
        SimContext x(sim, a, nullptr, WarpPlace{0, 1, a, &blk});
        body(x);
      },
      rnd, 10'000);
  if (bulk_bytes) *bulk_bytes = blk.bulk_bytes();
  return r;
}

uint64_t* bar0(Smem& smem) { return reinterpret_cast<uint64_t*>(smem.bytes); }

// Warp 0 produces two phases on `full` (bytes by bulk copy, then its arrival); warp
// 1 waits for each and reads what landed. Under every random schedule the reader
// sees the data of its phase.
TEST(SimWarpActor, BarrierPhasesOrderAProducerAndAConsumer) {
  for (uint64_t seed = 0; seed < 50; ++seed) {
    Smem smem{};
    alignas(16) uint32_t src[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
    std::vector<uint32_t> seen;
    uint64_t* full = bar0(smem);
    uint64_t* empty = full + 1;
    uint64_t bytes = 0;
    const RunResult r = run_block(
        smem, 2, seed,
        [&](SimContext& x) {
          const auto stage = x.private_view(reinterpret_cast<uint32_t*>(smem.bytes + 16), 4);
          if (x.first_thread()) {
            x.init_barrier(full, 1);
            x.init_barrier(empty, 32);
          }
          x.block_sync();
          for (uint32_t phase = 0; phase < 2; ++phase) {
            if (x.warp() == 0) {
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
        &bytes);
    ASSERT_EQ(r.outcome, Outcome::Completed) << r.message;
    EXPECT_EQ(seen, (std::vector<uint32_t>{4, 8})) << "seed " << seed;
    EXPECT_EQ(bytes, 32u);
  }
}

// A wait for a phase nobody completes parks the warp: the run is a deadlock, not a hang.
TEST(SimWarpActor, AWaitNobodyCompletesIsADeadlock) {
  Smem smem{};
  const RunResult r = run_block(smem, 2, 3, [&](SimContext& x) {
    if (x.first_thread()) x.init_barrier(bar0(smem), 2);  // two arrivals expected, one comes
    x.block_sync();
    if (x.warp() == 0) x.arrive(bar0(smem));
    x.wait(bar0(smem), 0);
  });
  EXPECT_EQ(r.outcome, Outcome::Deadlock) << r.message;
}

// The parity semantics of the hardware: wait(1) passes before any phase completed
// (the "previous" phase of parity 1), wait(0) needs phase 0 complete.
TEST(SimWarpActor, ParityOneIsCompleteBeforeTheFirstPhase) {
  Smem smem{};
  const RunResult r = run_block(smem, 1, 1, [&](SimContext& x) {
    x.init_barrier(bar0(smem), 1);
    x.wait(bar0(smem), 1);
    x.wait(bar0(smem), 0);  // never completes: one warp, no arrival
  });
  EXPECT_EQ(r.outcome, Outcome::Deadlock);
}

TEST(SimWarpActor, BulkCopyRulesAreFaults) {
  Smem smem{};
  alignas(16) unsigned char src[64] = {};
  for (uint32_t bad = 0; bad < 3; ++bad) {
    const RunResult r = run_block(smem, 1, 1, [&](SimContext& x) {
      x.init_barrier(bar0(smem), 1);
      const auto bytes = x.private_view(smem.bytes, sizeof smem.bytes);
      if (bad == 0) x.bulk_load(bytes + 20, src, 16, bar0(smem));   // misaligned destination
      if (bad == 1) x.bulk_load(bytes + 16, src, 12, bar0(smem));   // not whole 16-byte units
      if (bad == 2) x.bulk_load(bytes + 240, src, 32, bar0(smem));  // past shared memory
    });
    EXPECT_EQ(r.outcome, Outcome::Fault) << "case " << bad;
  }
}

// The lane collectives see every lane: ballot against the predicate lane by lane,
// and first_value_above (structures/exec/lane_search.h, shared with the GPU test)
// against a plain scan, on arrays with no, one and many qualifying lanes.
TEST(SimWarpActor, BallotAndShuffleSeeEveryLane) {
  uint64_t rng = 12345;
  for (int trial = 0; trial < 200; ++trial) {
    uint32_t values[32];
    for (uint32_t& v : values) v = static_cast<uint32_t>((rng = rng * 6364136223846793005ull + 1) >> 59);  // 0..31
    const uint32_t bound = static_cast<uint32_t>(trial % 34);
    uint32_t want_mask = 0, want_value = 999;
    for (uint32_t l = 0; l < 32; ++l)
      if (values[l] > bound) want_mask |= 1u << l;
    for (uint32_t l = 0; l < 32 && want_value == 999; ++l)
      if (values[l] > bound) want_value = values[l];
    Smem smem{};
    uint32_t mask = 0, value = 0;
    const RunResult r = run_block(smem, 1, trial, [&](SimContext& x) {
      mask = x.ballot([&](uint32_t l) { return values[l] > bound; });
      value = first_value_above(x, values, bound, 999);
    });
    ASSERT_EQ(r.outcome, Outcome::Completed) << r.message;
    EXPECT_EQ(mask, want_mask) << trial;
    EXPECT_EQ(value, want_value) << trial;
  }
}

// lowest_lane_from (SlabAlloc's start lane) against a scan of the 32 lanes from
// `start`, wrapping: every start over masks with bits at the edges and random ones.
TEST(LaneSearch, LowestLaneFromIsTheFirstSetLaneFromStartWrapping) {
  const uint32_t masks[] = {0u, 1u, 0x80000000u, 0x80000001u, 0xFFFFFFFFu, 0x00010000u, 0x12345678u, 0xF0F0F0F0u};
  for (uint32_t mask : masks)
    for (uint32_t start = 0; start < 64; ++start) {
      uint32_t want = 32;
      for (uint32_t k = 0; k < 32 && want == 32; ++k)
        if (mask >> ((start + k) & 31u) & 1u) want = (start + k) & 31u;
      ASSERT_EQ(lowest_lane_from(mask, start), want) << "mask " << mask << " start " << start;
    }
}

TEST(SimWarpActor, ACollectiveInsideForEachLaneIsAFault) {
  Smem smem{};
  const RunResult r = run_block(smem, 1, 1, [&](SimContext& x) {
    x.for_each_lane([&](uint32_t) { (void)x.ballot([](uint32_t) { return true; }); });
  });
  EXPECT_EQ(r.outcome, Outcome::Fault);
  EXPECT_NE(r.message.find("ballot"), std::string::npos) << r.message;
}

// A prefetch is a hint to the GPU's L2 (structures/exec/context.h): in the simulator
// it passes no scheduling point and reads or writes nothing, and like every lane
// collective it is warp-uniform code, so inside for_each_lane it is a fault.
TEST(SimWarpActor, APrefetchIsNoPointAndChangesNothing) {
  Smem smem{};
  uint32_t words[32];
  for (uint32_t l = 0; l < 32; ++l) words[l] = 100 + l;
  uint32_t asked = 0;
  const auto points_with = [&](bool prefetch) {
    return run_block(smem, 1, 1, [&](SimContext& x) {
             if (prefetch)
               x.prefetch_lanes([&](uint32_t l) -> const void* {
                 ++asked;
                 return l % 2 ? words + l : nullptr;
               });
             SimContext::Regs<uint32_t, 1> r;
             x.load_lanes(r, [&](uint32_t l) { return words + l; });
             for (uint32_t l = 0; l < 32; ++l) EXPECT_EQ(r.of(l)[0], 100 + l);
           }).points;
  };
  EXPECT_EQ(points_with(true), points_with(false));
  EXPECT_EQ(asked, 0u) << "the simulator has no cache to warm: the addresses are not even computed";
  for (uint32_t l = 0; l < 32; ++l) EXPECT_EQ(words[l], 100 + l);
}

TEST(SimWarpActor, APrefetchInsideForEachLaneIsAFault) {
  Smem smem{};
  uint32_t word = 0;
  const RunResult r = run_block(smem, 1, 1, [&](SimContext& x) {
    x.for_each_lane([&](uint32_t) { x.prefetch_lanes([&](uint32_t) -> const void* { return &word; }); });
  });
  EXPECT_EQ(r.outcome, Outcome::Fault);
  EXPECT_NE(r.message.find("prefetch_lanes"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace gpulin::sim
