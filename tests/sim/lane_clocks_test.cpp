// Races between the threads of a block whose warps are actors, in its shared memory
// (sim/private_memory/lane_clocks.h): a bulk copy read before its phase was waited
// for, a refill after an arrival that came before the reads, lanes reading one
// another's writes with and without __syncwarp, the block barrier, and the checker
// staying off until the shared memory is viewed through the context.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "sim/sim_block.h"
#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "sim/strategies/random_strategy.h"

namespace gpulin::sim {
namespace {

struct alignas(16) WarpSmem {
  unsigned char bytes[256];
};

// One block of `warps` warp fibers over `smem` under random schedules from `seed`;
// body(x, words) is each warp's code, `words` the shared memory's 32-bit words after
// the two barriers at its start (full = bar(0), empty = bar(1)), viewed through the
// context.
template <class Body>
RunResult run_warps(WarpSmem& smem, uint32_t warps, uint64_t seed, Body&& body) {
  Simulator sim;
  SimBlock blk(sim, smem.bytes, sizeof smem.bytes, warps);
  RandomStrategy rnd(seed);
  rnd.begin_run(warps);
  return sim.run(
      warps,
      [&](uint32_t a) {
        SimContext x(sim, a, nullptr, WarpPlace{0, 1, a, &blk});
        body(x, x.private_view(reinterpret_cast<uint32_t*>(smem.bytes + 16), 60));
      },
      rnd, 10'000);
}

uint64_t* barrier_word(WarpSmem& smem, uint32_t i) { return reinterpret_cast<uint64_t*>(smem.bytes) + i; }

void init_barriers(SimContext& x, WarpSmem& smem) {
  if (x.first_thread()) {
    x.init_barrier(barrier_word(smem, 0), 1);
    x.init_barrier(barrier_word(smem, 1), 32);
  }
  x.block_sync();
}

alignas(16) const uint32_t kCopied[4] = {1, 2, 3, 4};

// Warp 0 bulk-copies four words and arrives; warp 1 reads them, waiting for the
// phase or not. Without the wait every schedule races (the reader is not ordered
// after the copy, whichever ran first); with it none does.
TEST(LaneClocks, AReadOfABulkCopyNeedsTheWaitForItsPhase) {
  for (bool waits : {true, false}) {
    for (uint64_t seed = 0; seed < 20; ++seed) {
      WarpSmem smem{};
      const RunResult r = run_warps(smem, 2, seed, [&](SimContext& x, SimContext::Private<uint32_t> w) {
        init_barriers(x, smem);
        if (x.warp() == 0) {
          x.expect_bytes(barrier_word(smem, 0), 16);
          x.bulk_load(w, kCopied, 16, barrier_word(smem, 0));
          x.arrive(barrier_word(smem, 0));
        } else {
          if (waits) x.wait(barrier_word(smem, 0), 0);
          x.for_each_lane([&](uint32_t lane) {
            if (lane < 4) (void)static_cast<uint32_t>(w[lane]);
          });
        }
      });
      if (waits) {
        EXPECT_EQ(r.outcome, Outcome::Completed) << r.message;
      } else {
        ASSERT_EQ(r.outcome, Outcome::Race) << "seed " << seed;
        EXPECT_NE(r.message.find("bulk copy issued at tests/sim/lane_clocks_test.cpp"), std::string::npos) << r.message;
        EXPECT_NE(r.message.find("of warp 1 read it in the for_each_lane at tests/sim/lane_clocks_test.cpp"),
                  std::string::npos)
            << r.message;
      }
    }
  }
}

// The consumer's 32 lanes read the stage and then arrive on `empty`; the producer
// waits for that phase and refills. An arrival releases only what its lane did
// before it: lanes that arrive first and read after race with the refill.
TEST(LaneClocks, AnArrivalReleasesOnlyWhatItsLaneDidBefore) {
  for (bool arrive_first : {false, true}) {
    WarpSmem smem{};
    const RunResult r = run_warps(smem, 2, 7, [&](SimContext& x, SimContext::Private<uint32_t> w) {
      init_barriers(x, smem);
      if (x.warp() == 0) {
        for (uint32_t phase = 0; phase < 2; ++phase) {
          if (phase > 0) x.wait(barrier_word(smem, 1), 0);  // the stage is free again
          x.expect_bytes(barrier_word(smem, 0), 16);
          x.bulk_load(w, kCopied, 16, barrier_word(smem, 0));
          x.arrive(barrier_word(smem, 0));
        }
      } else {
        for (uint32_t phase = 0; phase < 2; ++phase) {
          x.wait(barrier_word(smem, 0), phase);
          x.for_each_lane([&](uint32_t lane) {
            if (arrive_first && phase == 0) x.arrive(barrier_word(smem, 1));
            (void)static_cast<uint32_t>(w[lane % 4]);
            if (!arrive_first && phase == 0) x.arrive(barrier_word(smem, 1));
          });
        }
      }
    });
    if (arrive_first) {
      EXPECT_EQ(r.outcome, Outcome::Race) << r.message;
    } else {
      EXPECT_EQ(r.outcome, Outcome::Completed) << r.message;
    }
  }
}

// Lane l writes word l, then lane l reads word l + 1 (another lane's): with
// __syncwarp between the two steps the reads are ordered, without it they race.
TEST(LaneClocks, LanesReadingOneAnothersWritesNeedWarpSync) {
  for (bool sync : {true, false}) {
    WarpSmem smem{};
    const RunResult r = run_warps(smem, 1, 1, [&](SimContext& x, SimContext::Private<uint32_t> w) {
      x.for_each_lane([&](uint32_t lane) { w[lane] = lane; });
      if (sync) x.warp_sync();
      uint32_t sum = 0;
      x.for_each_lane([&](uint32_t lane) { sum += w[(lane + 1) % 32]; });
      EXPECT_EQ(sum, 31u * 32 / 2);
    });
    if (sync) {
      EXPECT_EQ(r.outcome, Outcome::Completed) << r.message;
    } else {
      ASSERT_EQ(r.outcome, Outcome::Race);
      EXPECT_NE(r.message.find("lane 1 of warp 0 wrote it"), std::string::npos) << r.message;
      EXPECT_NE(r.message.find("lane 0 of warp 0 read it"), std::string::npos) << r.message;
    }
  }
}

// A word written by one warp and read by another after a block barrier is ordered;
// written and read with nothing between, it races in every schedule.
TEST(LaneClocks, TheBlockBarrierOrdersEveryWarp) {
  for (bool barrier : {true, false}) {
    for (uint64_t seed = 0; seed < 10; ++seed) {
      WarpSmem smem{};
      const RunResult r = run_warps(smem, 3, seed, [&](SimContext& x, SimContext::Private<uint32_t> w) {
        if (x.warp() == 2) w[0] = 5;
        if (barrier) x.block_sync();
        if (x.warp() == 0) (void)static_cast<uint32_t>(w[0]);
      });
      EXPECT_EQ(r.outcome, barrier ? Outcome::Completed : Outcome::Race) << "seed " << seed << ": " << r.message;
    }
  }
}

// Two warps reading one word concurrently is no race; a later write by a third,
// ordered after only one of the reads, is.
TEST(LaneClocks, AWriteMustFollowEveryReadBeforeIt) {
  WarpSmem smem{};
  const RunResult r = run_warps(smem, 3, 2, [&](SimContext& x, SimContext::Private<uint32_t> w) {
    init_barriers(x, smem);
    if (x.warp() < 2) (void)static_cast<uint32_t>(w[3]);
    if (x.warp() == 0) x.for_each_lane([&](uint32_t) { x.arrive(barrier_word(smem, 1)); });
    if (x.warp() == 2) {
      x.wait(barrier_word(smem, 1), 0);  // after warp 0's read, not warp 1's
      w[3] = 9;
    }
  });
  ASSERT_EQ(r.outcome, Outcome::Race) << r.message;
  EXPECT_NE(r.message.find("lane 0 of warp 1 (warp-uniform code) read it"), std::string::npos) << r.message;
}

// Memory outside a view is a fault, and a block whose shared memory nobody viewed
// keeps no clocks (P-Sync's step actors share a SimBlock for its barrier alone).
TEST(LaneClocks, OutOfBoundsIsAFaultAndAnUnviewedBlockKeepsNoClocks) {
  WarpSmem smem{};
  RunResult r = run_warps(smem, 1, 1, [&](SimContext&, SimContext::Private<uint32_t> w) { w[60] = 1; });
  EXPECT_EQ(r.outcome, Outcome::Fault) << r.message;
  Simulator sim;
  SimBlock blk(sim, smem.bytes, sizeof smem.bytes, 2);
  EXPECT_FALSE(blk.lanes().enabled());
  (void)blk.private_view(smem.bytes, 16);
  EXPECT_TRUE(blk.lanes().enabled());
}

}  // namespace
}  // namespace gpulin::sim
