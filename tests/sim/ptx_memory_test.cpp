// The ptx memory model's rules one at a time (sim/memory/ptx_memory.h), each read's
// choice scripted: which stores a load may return, what moves a view, and what
// synchronises (with scopes).
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "sim/memory/ptx_memory.h"

namespace gpulin::sim::memory {
namespace {

// Two CTAs of GPU 0 (threads 0 and 1), and thread 2 in thread 0's CTA.
PtxMemory three_threads() { return PtxMemory({{0, 0}, {1, 0}, {0, 0}}); }

// A chooser that records how many candidates it was offered and picks `index`
// (0 the oldest candidate, n - 1 the newest).
struct Script {
  uint32_t index = 0;
  uint32_t offered = 0;
  PtxMemory::Choose choose() {
    return [this](uint32_t n) {
      offered = n;
      return std::min(index, n - 1);
    };
  }
};

TEST(PtxMemory, ARelaxedLoadReadsAnyStoreNotOlderThanItsView) {
  PtxMemory m = three_threads();
  const uint32_t x = m.add_location(0);
  m.store(0, x, 1, Order::Relaxed, Scope::Gpu);
  m.store(0, x, 2, Order::Relaxed, Scope::Gpu);
  Script s{0};
  EXPECT_EQ(m.load(1, x, Order::Relaxed, Scope::Gpu, s.choose()), 0u);  // the initial value: stale
  EXPECT_EQ(s.offered, 3u);
  s.index = 1;
  EXPECT_EQ(m.load(1, x, Order::Relaxed, Scope::Gpu, s.choose()), 1u);
  s.index = 0;
  EXPECT_EQ(m.load(1, x, Order::Relaxed, Scope::Gpu, s.choose()), 1u);  // never back before what it read
  EXPECT_EQ(s.offered, 2u);
  EXPECT_EQ(m.last_read(1).writer, 0u);
  EXPECT_EQ(m.last_read(1).index, 1u);
}

TEST(PtxMemory, AThreadReadsItsOwnStoreOrNewer) {
  PtxMemory m = three_threads();
  const uint32_t x = m.add_location(0);
  m.store(0, x, 5, Order::Weak, Scope::Gpu);
  Script s{0};
  EXPECT_EQ(m.load(0, x, Order::Weak, Scope::Gpu, s.choose()), 5u);
  EXPECT_EQ(s.offered, 0u);  // one candidate: no choice asked
}

TEST(PtxMemory, WeakLoadsDoNotMoveTheView) {
  PtxMemory m = three_threads();
  const uint32_t x = m.add_location(0);
  m.store(0, x, 1, Order::Relaxed, Scope::Gpu);
  Script s{1};
  EXPECT_EQ(m.load(1, x, Order::Weak, Scope::Gpu, s.choose()), 1u);
  s.index = 0;
  EXPECT_EQ(m.load(1, x, Order::Weak, Scope::Gpu, s.choose()), 0u);  // CoRR on weak loads: allowed
  s.index = 1;
  EXPECT_EQ(m.load(1, x, Order::Relaxed, Scope::Gpu, s.choose()), 1u);
  s.index = 0;
  EXPECT_EQ(m.load(1, x, Order::Weak, Scope::Gpu, s.choose()), 1u);  // a strong load moved it
}

// Message passing: the acquire that reads the release sees the data; with a .cta
// release and the reader in another CTA it need not.
TEST(PtxMemory, AReleaseReachesAnAcquireOnlyWithinBothScopes) {
  for (Scope release : {Scope::Gpu, Scope::Cta})
    for (uint32_t reader : {1u, 2u}) {
      PtxMemory m = three_threads();
      const uint32_t data = m.add_location(0), flag = m.add_location(0);
      m.store(0, data, 1, Order::Weak, Scope::Gpu);
      m.store(0, flag, 1, Order::Release, release);
      Script newest{1}, oldest{0};
      ASSERT_EQ(m.load(reader, flag, Order::Acquire, Scope::Gpu, newest.choose()), 1u);
      const uint64_t seen = m.load(reader, data, Order::Weak, Scope::Gpu, oldest.choose());
      const bool synchronised = release == Scope::Gpu || reader == 2;  // thread 2 shares thread 0's CTA
      EXPECT_EQ(seen, synchronised ? 1u : 0u) << to_string(release) << " release, reader " << reader;
    }
}

TEST(PtxMemory, FencesMakeRelaxedAccessesSynchronise) {
  PtxMemory m = three_threads();
  const uint32_t data = m.add_location(0), flag = m.add_location(0);
  m.store(0, data, 1, Order::Weak, Scope::Gpu);
  m.fence(0, Order::AcqRel, Scope::Gpu);
  m.store(0, flag, 1, Order::Relaxed, Scope::Gpu);
  Script newest{1}, oldest{0};
  ASSERT_EQ(m.load(1, flag, Order::Relaxed, Scope::Gpu, newest.choose()), 1u);
  EXPECT_EQ(m.load(1, data, Order::Weak, Scope::Gpu, oldest.choose()), 0u);  // no acquire fence yet
  m.fence(1, Order::AcqRel, Scope::Cta);                                     // too narrow: thread 0 is another CTA
  EXPECT_EQ(m.load(1, data, Order::Weak, Scope::Gpu, oldest.choose()), 0u);
  m.fence(1, Order::AcqRel, Scope::Gpu);
  EXPECT_EQ(m.load(1, data, Order::Weak, Scope::Gpu, oldest.choose()), 1u);
}

TEST(PtxMemory, AReadModifyWriteReadsTheNewestAndCarriesTheRelease) {
  PtxMemory m = three_threads();
  const uint32_t data = m.add_location(0), flag = m.add_location(0);
  m.store(0, data, 1, Order::Weak, Scope::Gpu);
  m.store(0, flag, 1, Order::Release, Scope::Gpu);
  const uint64_t old = m.rmw(1, flag, Order::Relaxed, Scope::Gpu, [](uint64_t v) { return v + 1; });
  EXPECT_EQ(old, 1u);
  // A failing CAS writes nothing.
  EXPECT_EQ(m.rmw(1, flag, Order::Relaxed, Scope::Gpu, [](uint64_t v) -> std::optional<uint64_t> {
    if (v == 7) return 8;
    return std::nullopt;
  }), 2u);
  Script newest{9}, oldest{0};
  ASSERT_EQ(m.load(2, flag, Order::Acquire, Scope::Gpu, newest.choose()), 2u);
  EXPECT_EQ(m.load(2, data, Order::Weak, Scope::Gpu, oldest.choose()), 1u);  // the release sequence
  EXPECT_EQ(m.final_value(flag), 2u);
}

// Store buffering with SC fences: thread 0 stores x then fences (scope f0), thread 1
// stores y then fences (f1); what thread 1 then reads of x, choosing the oldest store
// it may (1: the fences are ordered, 0: they are not).
uint64_t store_buffering(Scope f0, Scope f1, Order stores) {
  PtxMemory m = three_threads();
  const uint32_t x = m.add_location(0), y = m.add_location(0);
  m.store(0, x, 1, stores, Scope::Gpu);
  m.fence(0, Order::Sc, f0);
  m.store(1, y, 1, stores, Scope::Gpu);
  m.fence(1, Order::Sc, f1);
  Script oldest{0};
  return m.load(1, x, stores, Scope::Gpu, oldest.choose());
}

TEST(PtxMemory, ScFencesOfOneScopeInstanceAreOrdered) {
  // The second fence.sc.gpu takes in the first one's view.
  EXPECT_EQ(store_buffering(Scope::Gpu, Scope::Gpu, Order::Relaxed), 1u);
  // .cta fences of two CTAs are not.
  EXPECT_EQ(store_buffering(Scope::Cta, Scope::Cta, Order::Relaxed), 0u);
}

TEST(PtxMemory, ABarrierJoinsItsParticipantsViews) {
  PtxMemory m = three_threads();
  const uint32_t x = m.add_location(0);
  m.store(0, x, 1, Order::Weak, Scope::Gpu);
  m.barrier({0, 2});
  Script oldest{0};
  EXPECT_EQ(m.load(2, x, Order::Weak, Scope::Gpu, oldest.choose()), 1u);
  EXPECT_EQ(m.load(1, x, Order::Weak, Scope::Gpu, oldest.choose()), 0u);  // not a participant
}

// A release sequence within one thread: its later strong store to the release's
// location carries the release on (PTX; found missing by Dartagnan's
// Release-acquire-pattern test).
TEST(PtxMemory, AThreadsLaterStrongStoreCarriesItsRelease) {
  PtxMemory m = three_threads();
  const uint32_t data = m.add_location(0), flag = m.add_location(0);
  m.store(0, data, 1, Order::Weak, Scope::Gpu);
  m.store(0, flag, 1, Order::Release, Scope::Gpu);
  m.store(0, flag, 2, Order::Relaxed, Scope::Gpu);
  Script newest{9}, oldest{0};
  ASSERT_EQ(m.load(1, flag, Order::Relaxed, Scope::Gpu, newest.choose()), 2u);
  m.fence(1, Order::AcqRel, Scope::Gpu);
  EXPECT_EQ(m.load(1, data, Order::Weak, Scope::Gpu, oldest.choose()), 1u);
}

// Two SC fences of different scopes, each scope including the other's thread: they
// are morally strong, so ordered (Dartagnan's SB+sc-sys-gpu).
TEST(PtxMemory, ScFencesOfDifferentScopesOrderWhenMorallyStrong) {
  EXPECT_EQ(store_buffering(Scope::Sys, Scope::Gpu, Order::Weak), 1u);
}

// Coherence binds morally strong pairs only: a strong load that read a weak store
// may still read an older one next.
TEST(PtxMemory, AReadOfAWeakStoreDoesNotBindCoherence) {
  PtxMemory m = three_threads();
  const uint32_t x = m.add_location(0);
  m.store(0, x, 1, Order::Weak, Scope::Gpu);
  Script newest{9}, oldest{0};
  ASSERT_EQ(m.load(1, x, Order::Relaxed, Scope::Gpu, newest.choose()), 1u);
  EXPECT_EQ(m.load(1, x, Order::Relaxed, Scope::Gpu, oldest.choose()), 0u);
  // A relaxed .cta store read from another CTA is not morally strong either.
  m.store(0, x, 2, Order::Relaxed, Scope::Cta);
  ASSERT_EQ(m.load(1, x, Order::Relaxed, Scope::Gpu, newest.choose()), 2u);
  EXPECT_EQ(m.load(1, x, Order::Relaxed, Scope::Gpu, oldest.choose()), 0u);
  // From a .gpu store it is.
  m.store(0, x, 3, Order::Relaxed, Scope::Gpu);
  ASSERT_EQ(m.load(1, x, Order::Relaxed, Scope::Gpu, newest.choose()), 3u);
  EXPECT_EQ(m.load(1, x, Order::Relaxed, Scope::Gpu, oldest.choose()), 3u);
}

TEST(PtxMemory, ScopesInclude) {
  EXPECT_TRUE(includes({0, 0}, Scope::Cta, {0, 0}));
  EXPECT_FALSE(includes({0, 0}, Scope::Cta, {1, 0}));
  EXPECT_FALSE(includes({0, 0}, Scope::Cta, {0, 1}));  // CTA 0 of another GPU
  EXPECT_TRUE(includes({0, 0}, Scope::Gpu, {1, 0}));
  EXPECT_FALSE(includes({0, 0}, Scope::Gpu, {0, 1}));
  EXPECT_TRUE(includes({0, 0}, Scope::Sys, {5, 3}));
}

}  // namespace
}  // namespace gpulin::sim::memory
