// The check that a structure touches the memory the ptx model holds only through
// its execution context (sim/memory/direct_access_guard.h): in the sanitized build,
// a read or a write around the context of a word the model holds is an ASan report
// naming the line; the context's own accesses, and everything after the run, are not.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sim/memory/direct_access_guard.h"
#include "sim/memory/memory_mode.h"
#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "sim/strategies/random_strategy.h"

namespace gpulin::sim {
namespace {

// Two actors hand a word over through the context; `direct` then has actor 1 read
// it (or write it) around the context, at a line the report must name.
enum class Direct { None, Read, Write };
uint32_t hand_over(memory::MemoryMode mode, Direct direct) {
  Simulator sim;
  sim.set_memory_mode(mode);
  RandomStrategy random(1);
  uint32_t word = 0;
  uint32_t seen = 0;
  const RunResult r = sim.run(
      2,
      [&](uint32_t a) {
        SimContext x(sim, a, nullptr, 32u);
        if (a == 0) {
          x.store(&word, 7u);
        } else {
          seen = x.load(&word);
          if (direct == Direct::Read) seen = *static_cast<volatile uint32_t*>(&word);  // around the context
          if (direct == Direct::Write) *static_cast<volatile uint32_t*>(&word) = 9u;  // around the context
        }
      },
      random, 1000);
  EXPECT_EQ(r.outcome, Outcome::Completed) << r.message;
  return word + seen;  // read directly after the run: plain memory again
}

TEST(DirectAccessGuard, TheContextsOwnAccessesAndTheChecksAtRestPass) {
  for (const auto mode : {memory::MemoryMode::Sc, memory::MemoryMode::Ptx, memory::MemoryMode::PtxRacy})
    EXPECT_GE(hand_over(mode, Direct::None), 7u);
}

TEST(DirectAccessGuardDeathTest, AReadAroundTheContextIsReportedWithItsLine) {
  if (!memory::kGuardsDirectAccess) GTEST_SKIP() << "the guard needs AddressSanitizer: scripts/test.sh's build has it";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(hand_over(memory::MemoryMode::Ptx, Direct::Read),
               "use-after-poison(.|\n)*direct_access_guard_test.cpp:36(.|\n)*around its execution context");
}

TEST(DirectAccessGuardDeathTest, AWriteAroundTheContextIsReportedWithItsLine) {
  if (!memory::kGuardsDirectAccess) GTEST_SKIP() << "the guard needs AddressSanitizer: scripts/test.sh's build has it";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(hand_over(memory::MemoryMode::Ptx, Direct::Write),
               "use-after-poison(.|\n)*direct_access_guard_test.cpp:37(.|\n)*around its execution context");
}

// Under sc there is no model and nothing is guarded: the same direct read passes.
TEST(DirectAccessGuard, UnderScNothingIsGuarded) { EXPECT_GE(hand_over(memory::MemoryMode::Sc, Direct::Read), 7u); }

// The guard itself: a word guarded, released, guarded twice in one granule.
TEST(DirectAccessGuard, GuardsGranulesOnceAndReleasesThem) {
  alignas(8) uint32_t words[4] = {1, 2, 3, 4};
  memory::DirectAccessGuard g;
  g.guard(&words[0]);
  g.guard(&words[1]);  // the same granule
  g.guard(&words[2]);
  EXPECT_EQ(g.guarded_granules(), memory::kGuardsDirectAccess ? 2u : 0u);
  EXPECT_EQ(memory::unguarded_load(&words[1]), 2u);
  uint32_t copied[3] = {0, 0, 0};
  memory::unguarded_copy(copied, words, sizeof copied);  // SimBlock's bulk copy from guarded words
  EXPECT_EQ(copied[0] + copied[1] + copied[2], 6u);
  g.release();
  EXPECT_EQ(g.guarded_granules(), 0u);
  EXPECT_EQ(words[0] + words[1] + words[2] + words[3], 10u);
}

// A structure's shared memory declared by its runner (Simulator::set_shared_regions)
// is guarded whole: a word the context never touched, read directly, is reported
// too; the words are plain again after the run.
uint32_t read_untouched_word(bool declare) {
  Simulator sim;
  sim.set_memory_mode({memory::MemoryMode::Ptx});
  RandomStrategy random(1);
  std::vector<uint32_t> shared(16, 3);
  if (declare) sim.set_shared_regions({memory::range_of(shared)});
  uint32_t seen = 0;
  const RunResult r = sim.run(
      2,
      [&](uint32_t a) {
        SimContext x(sim, a, nullptr, 32u);
        x.store(&shared[0], 7u);
        if (a == 1) seen = *static_cast<volatile uint32_t*>(&shared[9]);  // never through the context
      },
      random, 1000);
  EXPECT_EQ(r.outcome, Outcome::Completed) << r.message;
  return seen + shared[9];
}

TEST(DirectAccessGuard, WithoutADeclaredRegionAnUntouchedWordIsNotGuarded) { EXPECT_EQ(read_untouched_word(false), 6u); }

TEST(DirectAccessGuardDeathTest, ADeclaredRegionGuardsWordsTheContextNeverTouched) {
  if (!memory::kGuardsDirectAccess) GTEST_SKIP() << "the guard needs AddressSanitizer: scripts/test.sh's build has it";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(read_untouched_word(true), "use-after-poison(.|\n)*direct_access_guard_test.cpp:99(.|\n)*around its execution context");
}

TEST(DirectAccessGuard, ARangeIsGuardedAndReleasedWhole) {
  std::vector<uint32_t> words(10, 1);
  memory::DirectAccessGuard g;
  g.guard_range(memory::range_of(words));
  g.guard(&words[4]);  // inside the range: guarded already
  EXPECT_EQ(g.guarded_ranges(), memory::kGuardsDirectAccess ? 1u : 0u);
  EXPECT_EQ(g.guarded_granules(), 0u);
  g.lift();
  EXPECT_EQ(words[9], 1u);  // plain while lifted
  g.restore();
  g.release();
  EXPECT_EQ(g.guarded_ranges(), 0u);
  EXPECT_EQ(words[0] + words[9], 2u);
}

}  // namespace
}  // namespace gpulin::sim
