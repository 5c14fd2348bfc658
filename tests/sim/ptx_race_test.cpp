// Data races under the ptx memory model (sim/memory/ptx_memory.h, check_races):
// conflicting accesses that are not morally strong and that causality does not
// order are found, with both accesses; whatever orders them (release/acquire,
// observation by a morally strong read, fence.sc, a barrier) or makes them morally
// strong (both strong, scopes that include each other) clears them. Then the
// simulator's side: a run ends at its first race, named by source line.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "histories/recorder.h"
#include "sim/memory/model_memory.h"
#include "sim/memory/ptx_memory.h"
#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "sim/strategies/dfs_strategy.h"

namespace gpulin::sim::memory {
namespace {

// Threads 0 and 2 share CTA 0; thread 1 is CTA 1 (all on GPU 0). Races checked.
PtxMemory checked() {
  PtxMemory m({{0, 0}, {1, 0}, {0, 0}});
  m.check_races(true);
  return m;
}
const PtxMemory::Choose kNewest = [](uint32_t n) { return n - 1; };
AccessTag at(uint32_t line, int64_t op = 7) { return {"structures/x/y.h", line, 0, op}; }

TEST(PtxRaces, AWeakWriteAndAnUnorderedReadRace) {
  PtxMemory m = checked();
  const uint32_t x = m.add_location(0);
  m.store(0, x, 1, Order::Weak, Scope::Gpu, at(10, 3));
  EXPECT_FALSE(m.race());
  m.load(1, x, Order::Relaxed, Scope::Gpu, kNewest, at(20, 4));
  ASSERT_TRUE(m.race());
  const Race& r = *m.race();
  EXPECT_EQ(r.loc, x);
  EXPECT_EQ(r.earlier.thread, 0u);
  EXPECT_TRUE(r.earlier.write);
  EXPECT_EQ(r.earlier.order, Order::Weak);
  EXPECT_EQ(r.earlier.tag.line, 10u);
  EXPECT_EQ(r.earlier.tag.op, 3);
  EXPECT_EQ(r.later.thread, 1u);
  EXPECT_FALSE(r.later.write);
  EXPECT_EQ(r.later.tag.line, 20u);
  EXPECT_EQ(r.later.tag.op, 4);
}

TEST(PtxRaces, AReadAndALaterUnorderedWeakWriteRace) {
  PtxMemory m = checked();
  const uint32_t x = m.add_location(0);
  m.load(1, x, Order::Weak, Scope::Gpu, kNewest, at(1));
  EXPECT_FALSE(m.race());  // the initial value races with nothing
  m.store(0, x, 1, Order::Relaxed, Scope::Gpu, at(2));
  ASSERT_TRUE(m.race());
  EXPECT_FALSE(m.race()->earlier.write);
  EXPECT_EQ(m.race()->earlier.thread, 1u);
  EXPECT_TRUE(m.race()->later.write);
}

TEST(PtxRaces, MorallyStrongAccessesNeverRace) {
  PtxMemory m = checked();
  const uint32_t x = m.add_location(0);
  m.store(0, x, 1, Order::Relaxed, Scope::Gpu);
  m.load(1, x, Order::Relaxed, Scope::Gpu, kNewest);
  m.rmw(1, x, Order::Relaxed, Scope::Gpu, [](uint64_t v) { return v + 1; });
  m.store(2, x, 5, Order::Release, Scope::Gpu);
  EXPECT_FALSE(m.race());
}

// Strong accesses whose scopes do not include each other's thread are not
// morally strong: .cta accesses of two CTAs race, of one CTA do not.
TEST(PtxRaces, NarrowScopesRaceAcrossCtas) {
  for (uint32_t other : {2u, 1u}) {
    PtxMemory m = checked();
    const uint32_t x = m.add_location(0);
    m.store(0, x, 1, Order::Relaxed, Scope::Cta);
    m.store(other, x, 2, Order::Relaxed, Scope::Cta);
    EXPECT_EQ(m.race().has_value(), other == 1u) << "thread " << other;
  }
}

TEST(PtxRaces, AReleaseReadByAnAcquireOrdersTheWeakData) {
  PtxMemory m = checked();
  const uint32_t data = m.add_location(0), flag = m.add_location(0);
  m.store(0, data, 1, Order::Weak, Scope::Gpu);
  m.store(0, flag, 1, Order::Release, Scope::Gpu);
  ASSERT_EQ(m.load(1, flag, Order::Acquire, Scope::Gpu, kNewest), 1u);
  m.load(1, data, Order::Weak, Scope::Gpu, kNewest);
  m.store(1, data, 2, Order::Weak, Scope::Gpu);
  EXPECT_FALSE(m.race());
}

// Read-to-write: a reader's later release, acquired by the writer, orders its read
// before the write; without the acquire the two race.
TEST(PtxRaces, AReadIsOrderedBeforeAWriteOnlyThroughSynchronisation) {
  for (bool acquire : {true, false}) {
    PtxMemory m = checked();
    const uint32_t data = m.add_location(0), flag = m.add_location(0);
    m.load(1, data, Order::Weak, Scope::Gpu, kNewest);
    m.store(1, flag, 1, Order::Release, Scope::Gpu);
    m.load(0, flag, acquire ? Order::Acquire : Order::Relaxed, Scope::Gpu, kNewest);
    m.store(0, data, 1, Order::Weak, Scope::Gpu);
    EXPECT_EQ(m.race().has_value(), !acquire) << (acquire ? "acquire" : "relaxed");
  }
}

// PTX's observation order: a morally strong read of a store orders that store
// before the reader's later accesses.
TEST(PtxRaces, AStoreObservedByAMorallyStrongReadIsOrdered) {
  PtxMemory m = checked();
  const uint32_t x = m.add_location(0);
  m.store(0, x, 1, Order::Relaxed, Scope::Gpu);
  ASSERT_EQ(m.load(1, x, Order::Relaxed, Scope::Gpu, kNewest), 1u);
  m.store(1, x, 2, Order::Weak, Scope::Gpu);
  EXPECT_FALSE(m.race());
}

TEST(PtxRaces, ScFencesAndBarriersOrder) {
  {
    PtxMemory m = checked();
    const uint32_t x = m.add_location(0);
    m.store(0, x, 1, Order::Weak, Scope::Gpu);
    m.fence(0, Order::Sc, Scope::Gpu);
    m.fence(1, Order::Sc, Scope::Gpu);
    m.load(1, x, Order::Weak, Scope::Gpu, kNewest);
    EXPECT_FALSE(m.race()) << "fence.sc";
  }
  {
    PtxMemory m = checked();
    const uint32_t x = m.add_location(0);
    m.store(0, x, 1, Order::Weak, Scope::Gpu);
    m.barrier({0, 2});
    m.store(2, x, 2, Order::Weak, Scope::Gpu);
    EXPECT_FALSE(m.race()) << "barrier";
    m.load(1, x, Order::Weak, Scope::Gpu, kNewest);
    EXPECT_TRUE(m.race()) << "thread 1 took no part in the barrier";
  }
}

TEST(PtxRaces, UncheckedModelsAndResetsKeepNone) {
  PtxMemory m({{0, 0}, {1, 0}});
  const uint32_t x = m.add_location(0);
  m.store(0, x, 1, Order::Weak, Scope::Gpu);
  m.load(1, x, Order::Weak, Scope::Gpu, kNewest);
  EXPECT_FALSE(m.race()) << "check_races is off until asked";
  m.check_races(true);
  m.store(0, x, 2, Order::Weak, Scope::Gpu);
  EXPECT_FALSE(m.race()) << "thread 0's own earlier store; thread 1's read was made unchecked";
  m.store(1, x, 3, Order::Weak, Scope::Gpu);
  EXPECT_TRUE(m.race());
  m.reset({{0, 0}, {1, 0}});
  EXPECT_FALSE(m.race());
}

// ---- the simulator: a run ends at its first race, each access named ---------

// Actor 0 stores a batch, actor 1 loads it, nothing between them but the
// schedule; the batch accesses are relaxed as written, weak once dropped (the
// heap's relaxed-locks mutant's batches).
RunResult batch_hand_over(MemoryMode mode, SimContext::Orders orders, uint32_t& stored_line) {
  Simulator sim;
  sim.set_memory_mode(mode);
  DfsStrategy dfs(1000);
  RunResult last;
  while (dfs.begin_run(2)) {
    uint32_t batch[4] = {0, 0, 0, 0};
    const uint32_t keys[4] = {1, 2, 3, 4};
    last = sim.run(
        2,
        [&](uint32_t a) {
          SimContext x(sim, a, nullptr, 32u);
          x.set_orders(orders);
          const auto got = x.private_array<uint32_t>(4);
          if (a == 0) {
            stored_line = __LINE__ + 1;
            x.store_block(batch, keys, 4);
          } else {
            x.load_block(got, batch, 4);
          }
        },
        dfs, 1000);
    if (last.outcome == Outcome::Race) return last;
  }
  return last;
}

TEST(SimRaces, ARunEndsAtItsFirstRaceNamingBothSourceLines) {
  uint32_t line = 0;
  const RunResult r = batch_hand_over(MemoryMode::Ptx, SimContext::Orders::Dropped, line);
  ASSERT_EQ(r.outcome, Outcome::Race) << r.message;
  EXPECT_NE(r.message.find("data race on word"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("write weak at tests/sim/ptx_race_test.cpp:" + std::to_string(line)), std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("read weak at tests/sim/ptx_race_test.cpp:"), std::string::npos) << r.message;
}

TEST(SimRaces, RelaxedBatchesScAndPtxRacyRunsHaveNone) {
  uint32_t line = 0;
  EXPECT_EQ(batch_hand_over(MemoryMode::Ptx, SimContext::Orders::AsWritten, line).outcome, Outcome::Completed)
      << "relaxed batches are morally strong";
  EXPECT_EQ(batch_hand_over(MemoryMode::Sc, SimContext::Orders::Dropped, line).outcome, Outcome::Completed);
  EXPECT_EQ(batch_hand_over(MemoryMode::PtxRacy, SimContext::Orders::Dropped, line).outcome, Outcome::Completed);
}

}  // namespace
}  // namespace gpulin::sim::memory
