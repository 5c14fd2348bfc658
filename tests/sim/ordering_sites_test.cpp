// The ordering sites of `gpulin ablate` (sim/memory/ordering_sites.h): which
// weakenings change which access, what a weakening does to an access, the text a
// replay string carries it in, and the simulator meeting and weakening the sites a
// structure's calls into its context make.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "sim/memory/memory_mode.h"
#include "sim/memory/ordering_sites.h"
#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "sim/strategies/dfs_strategy.h"

namespace gpulin::sim::memory {
namespace {

std::vector<Weaken> of(AccessKind k, Order o, Scope s = Scope::Gpu) { return weakenings_of({"f.h", 1, k, o, s}); }

TEST(OrderingSites, EachAccessHasTheWeakeningsThatChangeIt) {
  using W = std::vector<Weaken>;
  EXPECT_EQ(of(AccessKind::Load, Order::Acquire), (W{Weaken::NoAcquire, Weaken::CtaScope}));
  EXPECT_EQ(of(AccessKind::Store, Order::Release), (W{Weaken::NoRelease, Weaken::CtaScope}));
  EXPECT_EQ(of(AccessKind::Rmw, Order::AcqRel), (W{Weaken::NoAcquire, Weaken::NoRelease, Weaken::CtaScope}));
  EXPECT_EQ(of(AccessKind::Rmw, Order::Relaxed), (W{Weaken::CtaScope})) << "an RMW is never weak";
  EXPECT_EQ(of(AccessKind::BatchLoad, Order::Relaxed), (W{Weaken::Weak, Weaken::CtaScope}));
  EXPECT_EQ(of(AccessKind::Fence, Order::AcqRel), (W{Weaken::NoFence, Weaken::CtaScope}));
  EXPECT_EQ(of(AccessKind::Load, Order::Relaxed, Scope::Cta), (W{Weaken::Weak}));
  EXPECT_TRUE(of(AccessKind::BatchStore, Order::Weak).empty());
}

TEST(OrderingSites, AWeakeningChangesOnlyWhatItNames) {
  const auto apply = [](Weaken w, AccessKind k, Order o) { return Weakening{"f.h", 1, w}.apply(k, o, Scope::Gpu); };
  EXPECT_EQ(apply(Weaken::NoAcquire, AccessKind::Rmw, Order::AcqRel)->first, Order::Release);
  EXPECT_EQ(apply(Weaken::NoAcquire, AccessKind::Load, Order::Acquire)->first, Order::Relaxed);
  EXPECT_EQ(apply(Weaken::NoAcquire, AccessKind::Store, Order::Release)->first, Order::Release);
  EXPECT_EQ(apply(Weaken::NoRelease, AccessKind::Rmw, Order::AcqRel)->first, Order::Acquire);
  EXPECT_EQ(apply(Weaken::Weak, AccessKind::BatchLoad, Order::Relaxed)->first, Order::Weak);
  EXPECT_EQ(apply(Weaken::Weak, AccessKind::Rmw, Order::Relaxed)->first, Order::Relaxed);
  EXPECT_EQ(apply(Weaken::CtaScope, AccessKind::Load, Order::Acquire)->second, Scope::Cta);
  EXPECT_FALSE(apply(Weaken::NoFence, AccessKind::Fence, Order::AcqRel).has_value()) << "the fence is dropped";
  EXPECT_EQ(apply(Weaken::NoFence, AccessKind::Rmw, Order::Relaxed)->first, Order::Relaxed);
}

TEST(OrderingSites, AWeakeningMatchesItsLineInAnyBuildsPath) {
  const Weakening w{"structures/gheap/ms_lock.h", 41, Weaken::NoAcquire};
  EXPECT_TRUE(w.at({"/work/x/structures/gheap/ms_lock.h", 41}));
  EXPECT_TRUE(w.at({"structures/gheap/ms_lock.h", 41}));
  EXPECT_FALSE(w.at({"/work/x/structures/gheap/ms_lock.h", 42}));
  EXPECT_FALSE(w.at({"/work/x/other/structures/gheap/ms_lock.hh", 41}));
  EXPECT_FALSE(w.at({"/work/x/mystructures/gheap/ms_lock.h", 41}));
}

TEST(OrderingSites, AReplayStringCarriesTheWeakeningAndBadOnesAreRefused) {
  const MemorySetting m = parse_memory_config_value("ptx@structures/gheap/ms_lock.h@41@no-acquire", "config");
  EXPECT_EQ(m.mode, MemoryMode::Ptx);
  ASSERT_TRUE(m.weakening);
  EXPECT_EQ(*m.weakening, (Weakening{"structures/gheap/ms_lock.h", 41, Weaken::NoAcquire}));
  EXPECT_EQ(memory_config_field(m), ":memory=ptx@structures/gheap/ms_lock.h@41@no-acquire");
  EXPECT_FALSE(m == MemoryMode::Ptx) << "a weakened run is another run";
  for (const char* bad : {"ptx@f.h@x@weak", "ptx@f.h@3@stronger", "ptx@f.h", "sc@f.h@3@weak", "ptx@@3@weak"}) {
    try {
      parse_memory_config_value(bad, "config");
      ADD_FAILURE() << bad << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("config: "), std::string::npos) << e.what();
    }
  }
}

// Two actors hand a word over by a release store and an acquire load; the
// inventory meets both sites, and weakening the acquire's line makes the hand-over
// a stale read the run can make, which it cannot as written.
struct HandOver {
  uint32_t flag = 0, data = 0, seen_data = 0, seen_flag = 0;
  uint32_t store_line = 0, load_line = 0;
  void body(Simulator& sim, uint32_t a) {
    SimContext x(sim, a, nullptr, 32u);
    if (a == 0) {
      x.store(&data, 1, exec::relaxed);
      store_line = __LINE__ + 1;
      x.store(&flag, 1);
    } else {
      load_line = __LINE__ + 1;
      seen_flag = x.load(&flag);
      seen_data = x.load(&data);
    }
  }
};

bool stale_hand_over(const MemorySetting& m, HandOver& t) {
  Simulator sim;
  sim.set_memory_mode(m);
  DfsStrategy dfs(1000);
  bool stale = false;
  while (dfs.begin_run(2)) {
    t.flag = t.data = 0;
    sim.run(2, [&](uint32_t a) { t.body(sim, a); }, dfs, 1000);
    stale |= t.seen_flag == 1 && t.seen_data == 0;
  }
  return stale;
}

TEST(OrderingSites, TheSimulatorMeetsAndWeakensTheStructuresCallSites) {
  HandOver t;
  MemorySetting as_written(MemoryMode::Ptx);
  as_written.inventory = std::make_shared<SiteInventory>();
  EXPECT_FALSE(stale_hand_over(as_written, t));
  const std::vector<OrderingSite> sites = as_written.inventory->sites();
  const std::string file = "tests/sim/ordering_sites_test.cpp";
  const auto met = [&](uint32_t line, AccessKind k, Order o) {
    for (const OrderingSite& s : sites)
      if (s.file == file && s.line == line && s.kind == k && s.order == o && s.scope == Scope::Gpu) return true;
    return false;
  };
  EXPECT_TRUE(met(t.store_line, AccessKind::Store, Order::Release));
  EXPECT_TRUE(met(t.load_line, AccessKind::Load, Order::Acquire));
  MemorySetting weakened(MemoryMode::Ptx);
  weakened.weakening = Weakening{file, t.load_line, Weaken::NoAcquire};
  EXPECT_TRUE(stale_hand_over(weakened, t));
  weakened.weakening = Weakening{file, t.store_line, Weaken::NoRelease};
  EXPECT_TRUE(stale_hand_over(weakened, t));
  weakened.weakening = Weakening{file, t.store_line + 100, Weaken::NoRelease};
  EXPECT_FALSE(stale_hand_over(weakened, t)) << "another line: nothing weakened";
}

}  // namespace
}  // namespace gpulin::sim::memory
