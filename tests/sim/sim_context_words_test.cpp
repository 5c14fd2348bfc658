// The simulator context's word operations that lock-free structures use (the slab
// hash, SlabAlloc): 64-bit CAS, fetch_and / fetch_or, per-lane loads of a slab, and
// an lp event recorded through the context. Each is checked under many random
// schedules against what an atomic execution must give.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "histories/recorder.h"
#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "sim/strategies/random_strategy.h"

namespace gpulin::sim {
namespace {

template <class Body>
RunResult run_warps(uint32_t warps, uint64_t seed, Body&& body) {
  Simulator sim;
  RandomStrategy rnd(seed);
  rnd.begin_run(warps);
  return sim.run(
      warps,
      [&](uint32_t a) {
        SimContext x(sim, a, nullptr, WarpPlace{0, 1, a, nullptr});
        body(x, a);
      },
      rnd, 100'000);
}

// Four warps race to claim one 64-bit slot from EMPTY with their (key, value) pair:
// exactly one CAS returns EMPTY, the slot holds that warp's pair, and every loser
// saw the winner's pair.
TEST(SimContextWords, OneOf64BitCasesWins) {
  constexpr uint64_t kEmpty = ~uint64_t{0};
  for (uint64_t seed = 0; seed < 100; ++seed) {
    uint64_t slot = kEmpty;
    std::array<uint64_t, 4> old{};
    const RunResult r = run_warps(4, seed, [&](SimContext& x, uint32_t a) {
      old[a] = x.cas(&slot, kEmpty, (uint64_t{a} << 32) | (100 + a));
    });
    ASSERT_EQ(r.outcome, Outcome::Completed);
    uint32_t winners = 0;
    for (uint32_t a = 0; a < 4; ++a) {
      if (old[a] == kEmpty) {
        ++winners;
        EXPECT_EQ(slot, (uint64_t{a} << 32) | (100 + a));
      } else {
        EXPECT_EQ(old[a], slot) << "a loser saw another value than the winner's";
      }
    }
    EXPECT_EQ(winners, 1u) << "seed " << seed;
  }
}

// cas_won is the CAS's verdict (old == expected) at the CAS's one scheduling point:
// the same race as above, 32- and 64-bit, exactly one winner, whose value the word
// holds, and the run passes as many points as with plain CASes.
TEST(SimContextWords, CasWonIsTheVerdictOfOneCas) {
  for (uint64_t seed = 0; seed < 100; ++seed) {
    uint64_t wide = ~uint64_t{0};
    uint32_t narrow = ~0u;
    std::array<bool, 4> won_wide{}, won_narrow{};
    const RunResult r = run_warps(4, seed, [&](SimContext& x, uint32_t a) {
      won_wide[a] = x.cas_won(&wide, ~uint64_t{0}, (uint64_t{a} << 32) | (100 + a), exec::relaxed);
      won_narrow[a] = x.cas_won(&narrow, ~0u, 200 + a, exec::relaxed);
    });
    const RunResult plain = run_warps(4, seed, [&](SimContext& x, uint32_t a) {
      uint64_t w = ~uint64_t{0};
      uint32_t n = ~0u;
      (void)x.cas(&w, w, uint64_t{a}, exec::relaxed);
      (void)x.cas(&n, n, a, exec::relaxed);
    });
    ASSERT_EQ(r.outcome, Outcome::Completed);
    EXPECT_EQ(r.points, plain.points) << "seed " << seed;
    uint32_t wide_winners = 0, narrow_winners = 0;
    for (uint32_t a = 0; a < 4; ++a) {
      if (won_wide[a]) {
        ++wide_winners;
        EXPECT_EQ(wide, (uint64_t{a} << 32) | (100 + a));
      }
      if (won_narrow[a]) {
        ++narrow_winners;
        EXPECT_EQ(narrow, 200 + a);
      }
    }
    EXPECT_EQ(wide_winners, 1u) << "seed " << seed;
    EXPECT_EQ(narrow_winners, 1u) << "seed " << seed;
  }
}

// Bits set and cleared concurrently by fetch_or / fetch_and: each warp owns one bit,
// sets it, then clears it; every old value a warp saw has its own bit as it left it.
TEST(SimContextWords, FetchOrAndFetchAndAreAtomic) {
  for (uint64_t seed = 0; seed < 100; ++seed) {
    uint32_t word = 0;
    bool ok = true;
    const RunResult r = run_warps(5, seed, [&](SimContext& x, uint32_t a) {
      const uint32_t bit = 1u << a;
      ok &= (x.fetch_or(&word, bit) & bit) == 0;
      ok &= (x.fetch_and(&word, ~bit) & bit) != 0;
    });
    ASSERT_EQ(r.outcome, Outcome::Completed);
    EXPECT_TRUE(ok) << "seed " << seed;
    EXPECT_EQ(word, 0u);
  }
}

// One warp rewrites a slab whole (one 64-bit CAS per pair of lanes, each pair's
// halves equal); the reader's load_lanes reads every pair as a whole, and sees
// pair i's version at least as new as pair i+1's (the writer goes from the first
// pair to the last, one point each, and a slab read is one point: a read lane by
// lane, point by point, could see pair 0 old and pair 1 new).
TEST(SimContextWords, LoadLanesReadsTheSlabAtOnePoint) {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    alignas(128) std::array<uint64_t, 16> slab{};
    bool torn = false, out_of_order = false;
    const RunResult r = run_warps(2, seed, [&](SimContext& x, uint32_t a) {
      if (a == 0) {
        for (int i = 0; i < 16; ++i) x.cas(&slab[i], uint64_t{0}, (uint64_t{7} << 32) | 7);
        return;
      }
      SimContext::Regs<uint32_t, 1> words;
      const auto* base = reinterpret_cast<uint32_t*>(slab.data());
      x.load_lanes(words, [&](uint32_t l) { return base + l; });
      for (uint32_t p = 0; p < 16; ++p) {
        torn |= words.of(2 * p)[0] != words.of(2 * p + 1)[0];
        if (p + 1 < 16) out_of_order |= words.of(2 * p)[0] < words.of(2 * p + 2)[0];
      }
    });
    ASSERT_EQ(r.outcome, Outcome::Completed);
    EXPECT_FALSE(torn) << "seed " << seed;
    EXPECT_FALSE(out_of_order) << "seed " << seed;
  }
}

// A release (x.release) of a word its holder left in another state is a fault
// naming the broken release; a release of the held word leaves `to` in it.
TEST(SimContextWords, AReleaseOfAWordNotHeldFaults) {
  uint32_t word = 0;
  RunResult r = run_warps(1, 1, [&](SimContext& x, uint32_t) { x.release(&word, 1, 0); });
  EXPECT_EQ(r.outcome, Outcome::Fault);
  EXPECT_NE(r.message.find("release found the word changed"), std::string::npos) << r.message;
  word = 1;
  r = run_warps(1, 1, [&](SimContext& x, uint32_t) { x.release_pair(&word, &word, 1, 0); });
  EXPECT_EQ(r.outcome, Outcome::Fault) << "the pair's second release found the word released by the first";
  uint32_t a = 1, b = 1;
  r = run_warps(1, 1, [&](SimContext& x, uint32_t) { x.release_pair(&a, &b, 1, 0); });
  EXPECT_EQ(r.outcome, Outcome::Completed);
  EXPECT_EQ(a + b, 0u);
}

// cas_pair and load_pair are two points, the first word's then the second's (the
// GPU issues both at once): a reader that reads p, then q, sees the pair half done
// under some schedule, and a reader that reads q, then p, never sees q taken before p.
TEST(SimContextWords, PairsAreTwoPointsFirstWordFirst) {
  bool saw_half = false, saw_q_first = false, pair_ok = true;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    uint32_t p = 0, q = 0;
    const RunResult r = run_warps(3, seed, [&](SimContext& x, uint32_t a) {
      if (a == 0) {
        const exec::WordPair old = x.cas_pair(&p, 0, 1, &q, 0, 1);
        pair_ok &= old.first == 0 && old.second == 0;
      } else if (a == 1) {
        const uint32_t vp = x.load(&p);
        saw_half |= vp == 1 && x.load(&q) == 0;
      } else {
        const exec::WordPair v = x.load_pair(&q, &p);
        saw_q_first |= v.first == 1 && v.second == 0;
      }
    });
    ASSERT_EQ(r.outcome, Outcome::Completed);
  }
  EXPECT_TRUE(pair_ok);
  EXPECT_TRUE(saw_half) << "no schedule fell between the pair's two points";
  EXPECT_FALSE(saw_q_first) << "the second word was taken before the first";
}

// cas_until retries until its predicate holds, parked in between: it takes the word
// once its holder frees it, and a word nobody frees is a deadlock (the waiter is
// visibly blocked, as the lock loop it replaces).
TEST(SimContextWords, CasUntilTakesTheWordOnceFreeAndParksMeanwhile) {
  for (uint64_t seed = 0; seed < 100; ++seed) {
    uint32_t word = 1;  // held by actor 0
    uint32_t seen = 99;
    const RunResult r = run_warps(2, seed, [&](SimContext& x, uint32_t a) {
      if (a == 0) {
        x.release(&word, 1, 0);
        return;
      }
      seen = x.cas_until(&word, 0, 2, [](uint32_t old) { return old == 0; }, exec::holding, exec::acquire);
    });
    ASSERT_EQ(r.outcome, Outcome::Completed) << "seed " << seed;
    EXPECT_EQ(seen, 0u);
    EXPECT_EQ(word, 2u);
  }
  uint32_t stuck = 1;
  const RunResult r = run_warps(1, 1, [&](SimContext& x, uint32_t) {
    x.cas_until(&stuck, 0, 2, [](uint32_t old) { return old == 0; });
  });
  EXPECT_EQ(r.outcome, Outcome::Deadlock);
}

// Counted words (structures/exec/counted_word.h): four actors take one counted
// lock in turn, by cas_until and by the single CAS, and end each hold by a
// counted release or a release_pair with the counted word first or second. Each
// hold's acquire sees its own number (0, 1, ... each once), the word ends AVAIL
// with the count of all holds; a change that ends no hold keeps the count; a
// counted release of a word not held faults.
TEST(SimContextWords, CountedWordsNumberEveryHoldOnce) {
  constexpr uint32_t kHeld = exec::kCountedHeld, kHolds = 6;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    uint32_t lock = 0;
    std::array<uint32_t, 4> own{};
    std::vector<uint32_t> numbers(4 * kHolds, 0);
    const RunResult r = run_warps(4, seed, [&](SimContext& x, uint32_t a) {
      for (uint32_t i = 0; i < kHolds; ++i) {
        uint32_t old = 0;
        if ((a + i) % 2 == 0) {
          old = x.cas_until(&lock, 0, kHeld, [](uint32_t o) { return exec::counted_state(o) == 0; }, exec::counted,
                            exec::acquire);
        } else {
          for (;;) {
            old = x.cas(&lock, 0, kHeld, exec::counted, exec::acquire);
            if (exec::counted_state(old) == 0) break;
            x.wait_while_equals(&lock, old);
          }
        }
        ++numbers[exec::counted_holds(old)];
        own[a] = kHeld;
        if (i % 3 == 0) {
          x.release(&lock, kHeld, 0, exec::counted);
          x.release(&own[a], kHeld, 0);
        } else if (i % 3 == 1) {
          x.release_pair(&lock, &own[a], kHeld, 0, exec::first_counted);
        } else {
          x.release_pair(&own[a], &lock, kHeld, 0, exec::second_counted);
        }
      }
    });
    ASSERT_EQ(r.outcome, Outcome::Completed) << "seed " << seed << ": " << r.message;
    EXPECT_EQ(lock, 4 * kHolds * exec::kCountedOneHold) << "seed " << seed;
    for (uint32_t n : numbers) EXPECT_EQ(n, 1u) << "seed " << seed;
    for (uint32_t w : own) EXPECT_EQ(w, 0u);
  }
  // A change that ends no hold (AVAIL to 2 and back) keeps the count.
  uint32_t word = 5 * exec::kCountedOneHold;
  RunResult r = run_warps(1, 1, [&](SimContext& x, uint32_t) {
    EXPECT_EQ(x.cas(&word, 0, 2, exec::counted), 5 * exec::kCountedOneHold);
    EXPECT_EQ(x.cas(&word, 0, 3, exec::counted), 5 * exec::kCountedOneHold + 2) << "a CAS from another state";
    x.cas(&word, 2, 0, exec::counted);
  });
  EXPECT_EQ(r.outcome, Outcome::Completed);
  EXPECT_EQ(word, 5 * exec::kCountedOneHold);
  r = run_warps(1, 1, [&](SimContext& x, uint32_t) { x.release(&word, kHeld, 0, exec::counted); });
  EXPECT_EQ(r.outcome, Outcome::Fault);
  EXPECT_NE(r.message.find("release found the word changed"), std::string::npos) << r.message;
}

// record_lp appends an lp event of the current op, between its inv and ret.
TEST(SimContextWords, RecordLpLandsInTheHistory) {
  Simulator sim;
  RandomStrategy rnd(1);
  rnd.begin_run(1);
  HostRecorder rec({"search"});
  const RunResult r = sim.run(
      1,
      [&](uint32_t a) {
        SimContext x(sim, a, &rec, WarpPlace{});
        const uint32_t key = 5;
        x.begin_op(3);
        x.record_inv(0, &key, 1);
        x.record_lp();
        x.record_ret(&key, 1, false);
        x.end_op();
      },
      rnd, 1000);
  ASSERT_EQ(r.outcome, Outcome::Completed);
  Header header;
  header.model = "register";
  const History h = rec.to_history(header, "test");
  ASSERT_EQ(h.events.size(), 3u);
  EXPECT_EQ(h.events[1].kind, EventKind::Lp);
  EXPECT_EQ(h.events[1].op, 3);
}

}  // namespace
}  // namespace gpulin::sim
