// Races between the threads of one block actor in its private memory, per barrier
// phase (sim/private_memory/barrier_phases.h): each case is a block of two
// threads doing what the GPU's code would, with the barrier that separates the two
// accesses there or not; the run must end as a race exactly when it is not.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/sim_context.h"
#include "structures/merge_path/block_merge.h"
#include "sim/simulator.h"
#include "sim/strategies/random_strategy.h"

namespace gpulin::sim {
namespace {

// One block actor of `threads` threads with 8 private words, running body.
template <class Body>
RunResult run_block(uint32_t threads, Body&& body) {
  Simulator sim;
  RandomStrategy rnd(1);
  rnd.begin_run(1);
  return sim.run(
      1,
      [&](uint32_t a) {
        SimContext x(sim, a, nullptr, threads);
        body(x, x.private_array<uint32_t>(8));
      },
      rnd, 10'000);
}

using Mem = SimContext::Private<uint32_t>;

TEST(BarrierPhases, NeighboursInOneParallelForRace) {
  // Thread i % 2 writes element i and reads element i + 1, which thread (i + 1) % 2
  // writes: an in-place shift in one step.
  const RunResult r = run_block(2, [](SimContext& x, Mem m) {
    x.parallel_for(4, [&](uint32_t i) { m[i] = m[i + 1]; });
  });
  ASSERT_EQ(r.outcome, Outcome::Race) << r.message;
  EXPECT_NE(r.message.find("word 1 of actor 0's private region 0: thread 0 read it in the parallel_for at "
                           "tests/sim/barrier_phases_test.cpp:"),
            std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("then thread 1 wrote it in the parallel_for"), std::string::npos) << r.message;
}

TEST(BarrierPhases, OneThreadNeverRaces) {
  const RunResult r = run_block(1, [](SimContext& x, Mem m) {
    x.parallel_for(4, [&](uint32_t i) { m[i] = m[i + 1]; });
  });
  EXPECT_EQ(r.outcome, Outcome::Completed) << r.message;
}

TEST(BarrierPhases, ShiftThroughASecondArrayIsClean) {
  // Read in one parallel_for, written in the next: its barrier orders them.
  const RunResult r = run_block(2, [](SimContext& x, Mem m) {
    x.parallel_for(3, [&](uint32_t i) { m[4 + i] = m[i + 1]; });
    x.parallel_for(3, [&](uint32_t i) { m[i] = m[4 + i]; });
  });
  EXPECT_EQ(r.outcome, Outcome::Completed) << r.message;
}

TEST(BarrierPhases, UniformReadThenParallelWriteRaces) {
  // Every thread scans element 3 (actor-uniform code), then the block writes over
  // it with no barrier between: a thread still scanning reads the new value
  // (docs/findings.md M3).
  uint32_t seen = 0;
  const RunResult r = run_block(2, [&](SimContext& x, Mem m) {
    x.parallel_for(4, [&](uint32_t i) { m[i] = i; });
    seen = m[3];
    x.parallel_for(4, [&](uint32_t i) { m[i] = 7; });
  });
  ASSERT_EQ(r.outcome, Outcome::Race) << r.message;
  EXPECT_NE(r.message.find("every thread read it in actor-uniform code after the barrier at"), std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("then thread 1 wrote it"), std::string::npos) << r.message;
}

TEST(BarrierPhases, OperationsWithABarrierOnTheGpuEndThePhase) {
  // The same scan and overwrite with a CAS, a load, or the block's own barrier
  // between: each has a barrier of the block on the GPU.
  uint32_t word = 0;
  for (int kind = 0; kind < 3; ++kind) {
    const RunResult r = run_block(2, [&](SimContext& x, Mem m) {
      x.parallel_for(4, [&](uint32_t i) { m[i] = i; });
      const uint32_t v = m[3];
      if (kind == 0) x.cas(&word, 0u, v);
      if (kind == 1) (void)x.load(&word);
      if (kind == 2) x.block_sync();
      x.parallel_for(4, [&](uint32_t i) { m[i] = 7; });
    });
    EXPECT_EQ(r.outcome, Outcome::Completed) << "kind " << kind << ": " << r.message;
  }
}

TEST(BarrierPhases, AGuardedStoreIsNoBarrier) {
  // store_guarded is the leader's store alone on the GPU: no barrier.
  uint32_t word = 0;
  const RunResult r = run_block(2, [&](SimContext& x, Mem m) {
    x.parallel_for(4, [&](uint32_t i) { m[i] = i; });
    x.store_guarded(&word, m[3]);
    x.parallel_for(4, [&](uint32_t i) { m[i] = 7; });
  });
  EXPECT_EQ(r.outcome, Outcome::Race) << r.message;
}

TEST(BarrierPhases, ATransferWritesWithoutABarrierBefore) {
  // A load_block lands its keys with no barrier before it (its barrier is after):
  // a uniform read of the destination just before races with it.
  std::vector<uint32_t> global(4, 5);
  const RunResult r = run_block(2, [&](SimContext& x, Mem m) {
    x.load_block(m, global.data(), 4);
    const uint32_t v = m[1];
    (void)v;
    x.load_block(m, global.data(), 4);
  });
  ASSERT_EQ(r.outcome, Outcome::Race) << r.message;
  EXPECT_NE(r.message.find("the transfer (its loaded keys' writes) at"), std::string::npos) << r.message;
}

// The context's own loops (a transfer's keys, block_copy's copy) run unchecked only
// where the phase so far left their words untouched; each case below touches one
// word first, so the loop must run checked and find the race.
TEST(BarrierPhases, AStoreBlockReadsWhatThePhaseWrote) {
  // Every thread writes word 1, then store_block's thread 1 reads it: no barrier
  // between them on the GPU.
  std::vector<uint32_t> global(4, 0);
  const RunResult r = run_block(2, [&](SimContext& x, Mem m) {
    x.parallel_for(4, [&](uint32_t i) { m[i] = i; });
    m[1] = 9;
    x.store_block(global.data(), m, 4);
  });
  ASSERT_EQ(r.outcome, Outcome::Race) << r.message;
  EXPECT_NE(r.message.find("word 1 of actor 0's private region 0"), std::string::npos) << r.message;
}

TEST(BarrierPhases, ABlockCopyWritesWhatThePhaseRead) {
  // Every thread reads word 5, then the copy's thread 1 writes it.
  const RunResult r = run_block(2, [&](SimContext& x, Mem m) {
    x.parallel_for(8, [&](uint32_t i) { m[i] = i; });
    const uint32_t v = m[5];
    (void)v;
    merge_path::block_copy(x, m + 4, m, 4);
  });
  ASSERT_EQ(r.outcome, Outcome::Race) << r.message;
  EXPECT_NE(r.message.find("word 5 of actor 0's private region 0"), std::string::npos) << r.message;
}

TEST(BarrierPhases, TheContextsLoopsAfterABarrierAreClean) {
  // The same loops with the barrier of a parallel_for before each: unchecked, and
  // the data moved as it would be.
  std::vector<uint32_t> global(4, 0), back(4, 0);
  const RunResult r = run_block(2, [&](SimContext& x, Mem m) {
    x.parallel_for(4, [&](uint32_t i) { m[i] = 10 + i; });
    x.store_block(global.data(), m, 4);
    merge_path::block_copy(x, m + 4, m, 4);
    x.load_block(m, global.data(), 4);
    x.parallel_for(4, [&](uint32_t i) { back[i] = m[4 + i] + m[i]; });
  });
  ASSERT_EQ(r.outcome, Outcome::Completed) << r.message;
  EXPECT_EQ(global, (std::vector<uint32_t>{10, 11, 12, 13}));
  EXPECT_EQ(back, (std::vector<uint32_t>{20, 22, 24, 26}));
}

TEST(BarrierPhases, UniformWritesOfOneValueDoNotRace) {
  // Every thread writing one value in actor-uniform code, then every thread reading
  // it: one value, however the threads interleave.
  const RunResult r = run_block(2, [](SimContext&, Mem m) {
    m[0] = 4;
    const uint32_t v = m[0];
    m[1] = v;
  });
  EXPECT_EQ(r.outcome, Outcome::Completed) << r.message;
}

TEST(BarrierPhases, SixtyFourBitViewsCheckTheirWords) {
  // Element 1 of a 64-bit view is words 2 and 3 of the region: thread 0 writes it
  // whole, thread 1 reads word 3 in the same step.
  const RunResult r = run_block(2, [](SimContext& x, Mem m) {
    using exec::private_cast;
    const auto wide = private_cast<uint64_t>(m);
    uint32_t v = 0;
    x.parallel_for(2, [&](uint32_t i) {
      if (i == 0) wide[1] = 1;
      if (i == 1) v = m[3];
    });
  });
  ASSERT_EQ(r.outcome, Outcome::Race) << r.message;
  EXPECT_NE(r.message.find("word 3 of actor 0's private region 0"), std::string::npos) << r.message;
}

TEST(BarrierPhases, OutOfBoundsIsAFault) {
  const RunResult r = run_block(2, [](SimContext& x, Mem m) { x.parallel_for(9, [&](uint32_t i) { m[i] = 1; }); });
  ASSERT_EQ(r.outcome, Outcome::Fault) << r.message;
  EXPECT_NE(r.message.find("an access at word 8 of actor 0's private region 0, which has 8 words"), std::string::npos)
      << r.message;
}

}  // namespace
}  // namespace gpulin::sim
