// A block actor's private memory kept by its runner from one run to the next
// (sim/private_memory/kept_memory.h): the next run makes its regions in the kept
// storage, and sees them as made anew - their words zero, no access of the last run
// counted against its own.
#include <gtest/gtest.h>

#include <cstdint>

#include "sim/private_memory/kept_memory.h"
#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "sim/strategies/random_strategy.h"

namespace gpulin::sim {
namespace {

using Mem = SimContext::Private<uint32_t>;

// One run of one block actor of two threads with 8 private words, its private
// memory made in `keep`.
template <class Body>
RunResult run_kept(KeptPrivateMemory& keep, Body&& body) {
  Simulator sim;
  RandomStrategy rnd(1);
  rnd.begin_run(1);
  return sim.run(
      1,
      [&](uint32_t a) {
        SimContext x(sim, a, nullptr, 2, keep);
        body(x, x.private_array<uint32_t>(8));
      },
      rnd, 10'000);
}

TEST(KeptPrivateMemory, TheNextRunMakesItsRegionInTheKeptStorage) {
  KeptPrivateMemory keep;
  const PrivateRegion* first = nullptr;
  ASSERT_EQ(run_kept(keep, [&](SimContext&, Mem m) { first = m.region(); }).outcome, Outcome::Completed);
  ASSERT_EQ(keep.regions.size(), 1u);
  EXPECT_EQ(keep.regions[0].get(), first);
  EXPECT_FALSE(keep.codes.empty());  // the phases' code records, given back too
  const PrivateRegion* second = nullptr;
  ASSERT_EQ(run_kept(keep, [&](SimContext&, Mem m) { second = m.region(); }).outcome, Outcome::Completed);
  EXPECT_EQ(second, first);
  EXPECT_EQ(keep.regions.size(), 1u);
}

TEST(KeptPrivateMemory, AKeptRegionStartsZeroAndUntouched) {
  // The last run's block wrote every word, thread i % 2 word i, under a code numbered
  // above this run's first phase's: were its stamps kept, this run's actor-uniform
  // read of word 0 in its first phase would race with thread 0's write.
  KeptPrivateMemory keep;
  ASSERT_EQ(run_kept(keep, [](SimContext& x, Mem m) { x.parallel_for(8, [&](uint32_t i) { m[i] = 7; }); }).outcome,
            Outcome::Completed);
  uint32_t seen = 1;
  const RunResult r = run_kept(keep, [&](SimContext&, Mem m) { seen = m[0]; });
  EXPECT_EQ(r.outcome, Outcome::Completed) << r.message;
  EXPECT_EQ(seen, 0u);
}

TEST(KeptPrivateMemory, ARaceInAKeptRegionIsNamedAsInANewOne) {
  KeptPrivateMemory keep;
  const auto shift = [](SimContext& x, Mem m) { x.parallel_for(4, [&](uint32_t i) { m[i] = m[i + 1]; }); };
  const RunResult fresh = run_kept(keep, shift);
  const RunResult kept = run_kept(keep, shift);
  ASSERT_EQ(fresh.outcome, Outcome::Race);
  EXPECT_EQ(kept.outcome, Outcome::Race);
  EXPECT_EQ(kept.message, fresh.message);
}

}  // namespace
}  // namespace gpulin::sim
