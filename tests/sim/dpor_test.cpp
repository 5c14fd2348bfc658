// Partial-order reduction (sim/strategies/dpor_strategy.h): DPOR runs each
// Mazurkiewicz trace of a program, so it reaches every outcome an exhaustive search
// reaches, each trace in a run, without counting a failed attempt at a held lock as a
// step; the counts of small programs whose traces are known by hand; symmetry; the
// reads' choices under ptx; a prefix.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "histories/recorder.h"
#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "sim/strategies/dfs_strategy.h"
#include "sim/strategies/dpor_strategy.h"
#include "sim/strategies/traced_strategy.h"

namespace gpulin::sim::dpor_test {

// A small program over a few shared words: each actor runs its list of accesses.
struct Step {
  // Lock: CAS 0 -> 1 until it wins, waiting while the word is taken (a lock loop,
  // cas_until); Unlock: store 0.
  enum Kind { Load, Store, Add, AwaitNonZero, Lock, Unlock } kind = Load;
  uint32_t word = 0;
  uint32_t value = 1;
};
using Program = std::vector<std::vector<Step>>;

// What a run did: how it ended, the words at the end, what each actor's loads read.
struct Observed {
  Outcome outcome = Outcome::Completed;
  std::vector<uint32_t> words;
  std::vector<std::vector<uint32_t>> reads;
  auto operator<=>(const Observed&) const = default;
};

Observed run_program(Simulator& sim, const Program& p, Strategy& s, uint32_t words = 3) {
  std::vector<uint32_t> mem(words, 0);
  // Declared, so that its words keep their names from run to run wherever the
  // vector lands (DPOR compares events of different runs).
  sim.set_shared_regions({memory::range_of(mem.data(), words)});
  Observed o;
  o.reads.resize(p.size());
  const RunResult r = sim.run(
      static_cast<uint32_t>(p.size()),
      [&](uint32_t a) {
        SimContext x(sim, a, nullptr, 1);
        for (const Step& st : p[a]) {
          uint32_t* w = &mem[st.word];
          switch (st.kind) {
            case Step::Load: o.reads[a].push_back(x.load(w)); break;
            case Step::Store: x.store(w, st.value); break;
            case Step::Add: o.reads[a].push_back(x.fetch_add(w, st.value)); break;
            case Step::AwaitNonZero:
              for (uint32_t seen; (seen = x.load(w)) == 0;) x.wait_while_equals(w, seen);
              break;
            case Step::Lock: x.cas_until(w, 0u, 1u, [](uint32_t old) { return old == 0; }); break;
            case Step::Unlock: x.store(w, 0u); break;
          }
        }
      },
      s, 10000);
  o.outcome = r.outcome;
  o.words = mem;
  return o;
}

struct SearchResult {
  std::set<Observed> outcomes;
  std::set<uint64_t> traces;
  uint64_t runs = 0;
  uint64_t repeats = 0;  // runs of a trace run before (not counting sleep-set blocked runs)
};

SearchResult search_dpor(const Program& p, std::vector<uint32_t> roles = {}, DporStrategy::Stats* stats = nullptr,
                         memory::MemoryMode mode = memory::MemoryMode::Sc) {
  Simulator sim;
  sim.set_memory_mode(mode);
  DporStrategy dpor({}, std::move(roles));
  SearchResult r;
  while (dpor.begin_run(static_cast<uint32_t>(p.size()))) {
    r.outcomes.insert(run_program(sim, p, dpor));
    if (!dpor.last_run_redundant()) {
      r.repeats += !r.traces.insert(dpor.last_trace()).second;
      ++r.runs;
    }
  }
  EXPECT_TRUE(dpor.exhausted());
  if (stats) *stats = dpor.stats();
  return r;
}

// Every schedule: a depth-first search with no bound on preemptions.
SearchResult search_all(const Program& p, memory::MemoryMode mode = memory::MemoryMode::Sc) {
  Simulator sim;
  sim.set_memory_mode(mode);
  DfsStrategy dfs(1000);
  TracedStrategy traced(dfs);
  SearchResult r;
  while (traced.begin_run(static_cast<uint32_t>(p.size()))) {
    r.outcomes.insert(run_program(sim, p, traced));
    r.traces.insert(traced.last_trace());
    ++r.runs;
  }
  return r;
}

TEST(Dpor, ActorsOnWordsOfTheirOwnRunOnce) {
  const Program p = {{{Step::Store, 0}, {Step::Load, 0}}, {{Step::Store, 1}, {Step::Add, 1}}, {{Step::Add, 2}}};
  const SearchResult d = search_dpor(p);
  EXPECT_EQ(d.runs, 1u);
  EXPECT_GT(search_all(p).runs, 1u);  // while every interleaving is a schedule
}

TEST(Dpor, ConflictingAddsRunInEveryOrder) {
  // Three read-modify-writes of one word: 3! traces, each a different order of
  // the values read.
  const Program p = {{{Step::Add, 0}}, {{Step::Add, 0}}, {{Step::Add, 0}}};
  const SearchResult d = search_dpor(p);
  EXPECT_EQ(d.runs, 6u);
  EXPECT_EQ(d.outcomes.size(), 6u);
}

TEST(Dpor, ReadsCommuteWithOneAnother) {
  // One write, two reads: each read before or after the write, 4 traces (not the
  // 6 orders of the three).
  const Program p = {{{Step::Store, 0, 5}}, {{Step::Load, 0}}, {{Step::Load, 0}}};
  const SearchResult d = search_dpor(p);
  EXPECT_EQ(d.runs, 4u);
  EXPECT_EQ(d.outcomes, search_all(p).outcomes);
}

// A failed attempt at a held lock is not a step: the traces of three actors each
// taking one lock around an add are the 3! orders of their holds, however often
// each found the lock held; the search of every schedule meets the same six.
TEST(Dpor, FailedLockAttemptsAreNoStepsOfATrace) {
  const std::vector<Step> hold = {{Step::Lock, 0}, {Step::Add, 1}, {Step::Unlock, 0}};
  const Program p(3, hold);
  const SearchResult d = search_dpor(p), all = search_all(p);
  EXPECT_EQ(all.traces.size(), 6u);
  EXPECT_EQ(d.traces, all.traces);
  EXPECT_EQ(d.outcomes, all.outcomes);
  EXPECT_LE(d.runs, 2 * d.traces.size()) << "a reversal into a wait repeats a trace once at most here";
}

// An actor that found the lock held and one that came after its release are the
// same trace: two actors, one hold each, are two traces (who holds first), where
// counting the failed attempt would make four.
TEST(Dpor, AWaitOnAHeldLockIsNotPartOfTheTrace) {
  const std::vector<Step> hold = {{Step::Lock, 0}, {Step::Unlock, 0}};
  const SearchResult d = search_dpor(Program(2, hold));
  EXPECT_EQ(d.traces.size(), 2u);
}

TEST(Dpor, AParkedActorIsReversedThroughTheLoadThatParkedIt) {
  // Actor 1 waits for actor 0's store; actor 2 overwrites the word. Which of them
  // actor 1 sees, and whether it parks at all, depend on orders DPOR must find.
  const Program p = {{{Step::Store, 0, 1}}, {{Step::AwaitNonZero, 0}, {Step::Load, 1}}, {{Step::Store, 1, 7}}};
  const SearchResult d = search_dpor(p), all = search_all(p);
  EXPECT_EQ(d.outcomes, all.outcomes);
  EXPECT_EQ(d.traces, all.traces);
}

// The real-time order of operations is part of a run: an invocation depends on
// other actors' responses.
TEST(Dpor, ResponsesAndInvocationsOfOthersAreOrdered) {
  Simulator sim;
  DporStrategy dpor;
  std::set<std::vector<uint32_t>> orders;  // the actors of the history's events, in order
  uint64_t runs = 0;
  while (dpor.begin_run(2)) {
    HostRecorder rec({"op"});
    uint32_t words[2] = {0, 0};
    sim.run(
        2,
        [&](uint32_t a) {
          SimContext x(sim, a, &rec, 1);
          const uint32_t key = a;
          x.begin_op(a);
          x.record_inv(0, &key, 1);
          x.store(&words[a], 1);
          x.record_ret(&key, 1, false);
          x.end_op();
        },
        dpor, 1000);
    const History h = rec.to_history(Header{}, "test");
    std::vector<uint32_t> order;
    for (const Event& e : h.events) order.push_back(static_cast<uint32_t>(e.op));
    orders.insert(order);
    runs += !dpor.last_run_redundant();
  }
  // A before B, B before A, and overlapping (the two interleaved orders of the
  // invocations against the responses are one trace each): at least three, and
  // every one both ways round.
  EXPECT_GE(orders.size(), 3u);
  EXPECT_TRUE(orders.count({0, 0, 1, 1}));
  EXPECT_TRUE(orders.count({1, 1, 0, 0}));
  EXPECT_LE(runs, 6u);  // fewer than the schedules of the stores among the records
}

TEST(Dpor, IdenticalActorsAreExploredOnceEach) {
  // Three actors adding to one word, twice each: 90 traces, and with the actors
  // interchangeable far fewer runs, the same outcomes up to renaming.
  const Program p(3, {{Step::Add, 0}, {Step::Add, 0}});
  DporStrategy::Stats plain_stats, sym_stats;
  const SearchResult plain = search_dpor(p, {}, &plain_stats);
  const SearchResult sym = search_dpor(p, {0, 0, 0}, &sym_stats);
  EXPECT_EQ(plain.runs, 90u);
  EXPECT_LT(sym.runs, plain.runs / 4);
  EXPECT_GT(sym_stats.symmetric, 0u);
  auto renamed = [](const std::set<Observed>& s) {
    std::set<std::vector<std::vector<uint32_t>>> out;
    for (Observed o : s) {
      std::sort(o.reads.begin(), o.reads.end());
      out.insert(o.reads);
    }
    return out;
  };
  EXPECT_EQ(renamed(sym.outcomes), renamed(plain.outcomes));
}

TEST(Dpor, UnderPtxEveryValueALoadMayReadIsRun) {
  // Message passing with relaxed accesses: the reader may see the flag and an old
  // datum (the model offers the older store), which sc never shows.
  Simulator sim;
  sim.set_memory_mode({memory::MemoryMode::Ptx});
  DporStrategy dpor;
  std::set<std::pair<uint32_t, uint32_t>> seen;
  while (dpor.begin_run(2)) {
    uint32_t data = 0, flag = 0, f = 0, d = 0;
    const RunResult r = sim.run(
        2,
        [&](uint32_t a) {
          SimContext x(sim, a, nullptr, 1);
          if (a == 0) {
            x.store(&data, 1, exec::relaxed);
            x.store(&flag, 1, exec::relaxed);
          } else {
            f = x.load(&flag, exec::relaxed);
            d = x.load(&data, exec::relaxed);
          }
        },
        dpor, 1000);
    if (r.outcome == Outcome::Completed) seen.insert({f, d});
  }
  EXPECT_TRUE(seen.count({1, 0})) << "the weak outcome";
  EXPECT_TRUE(seen.count({1, 1}));
  EXPECT_TRUE(seen.count({0, 0}));
  EXPECT_GT(dpor.stats().value_choices, 0u);
}

// Sleep sets compare events of different runs by their words: a runner whose
// shared words move between runs, undeclared, is stopped with the fix named.
TEST(Dpor, SharedMemoryThatMovesBetweenRunsUndeclaredIsAnError) {
  Simulator sim;
  DporStrategy dpor;
  uint32_t buffers[2][2] = {{0, 0}, {0, 0}};
  int run = 0;
  auto once = [&] {
    uint32_t* words = buffers[run++ % 2];  // another place each run
    sim.run(
        2,
        [&](uint32_t a) {
          SimContext x(sim, a, nullptr, 1);
          x.fetch_add(&words[0], 1);  // replayed by the next run, at its new place
          x.fetch_add(&words[1], 1);
        },
        dpor, 1000);
  };
  try {
    while (dpor.begin_run(2)) once();
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("set_shared_regions"), std::string::npos) << e.what();
  }
}

TEST(Dpor, BelowAPrefixTheSearchStaysInItsSubtree) {
  const Program p = {{{Step::Add, 0}}, {{Step::Add, 0}}, {{Step::Add, 0}}};
  Simulator sim;
  DporStrategy dpor({2, 2});  // actor 2 starts, then adds
  uint64_t runs = 0;
  while (dpor.begin_run(3)) {
    const Observed o = run_program(sim, p, dpor);
    EXPECT_EQ(o.reads[2], std::vector<uint32_t>{0u}) << "actor 2 first";
    runs += !dpor.last_run_redundant();
  }
  EXPECT_EQ(runs, 2u);
}

// A random small program of 2 to `max_actors` actors, each of 1 to `max_steps`
// steps over 3 words (printed on failure).
Program random_program(uint32_t max_actors, uint32_t max_steps) {
  const auto actors = *rc::gen::inRange<uint32_t>(2, max_actors + 1);
  Program p(actors);
  for (auto& steps : p) {
    const auto n = *rc::gen::inRange<uint32_t>(1, max_steps + 1);
    for (uint32_t i = 0; i < n; ++i) {
      Step s;
      s.kind = static_cast<Step::Kind>(*rc::gen::inRange(0, 6));
      s.word = *rc::gen::inRange<uint32_t>(0, 3);
      s.value = *rc::gen::inRange<uint32_t>(1, 3);
      steps.push_back(s);
    }
  }
  for (size_t a = 0; a < p.size(); ++a) {
    RC_LOG() << "actor " << a << ":";
    for (const Step& st : p[a]) {
      RC_LOG() << " " << "LSAWKU"[st.kind] << st.word;
      if (st.kind == Step::Store) RC_LOG() << "=" << st.value;
    }
    RC_LOG() << "\n";
  }
  return p;
}

// DPOR reaches exactly the outcomes and traces of the search of every schedule.
// A program without waits runs each trace once; with them, a race reversed into a
// wait repeats the trace it came from (the run then finds who could go first).
RC_GTEST_PROP(Dpor, ReachesEveryTraceOfEverySchedule, ()) {
  const Program p = random_program(3, 3);
  const SearchResult d = search_dpor(p), all = search_all(p);
  const bool waits = std::any_of(p.begin(), p.end(), [](const auto& steps) {
    return std::any_of(steps.begin(), steps.end(),
                       [](const Step& s) { return s.kind == Step::AwaitNonZero || s.kind == Step::Lock; });
  });
  if (!waits) RC_ASSERT(d.repeats == 0u);
  RC_ASSERT(d.outcomes == all.outcomes);
  RC_ASSERT(d.traces == all.traces);
  RC_ASSERT(d.runs <= all.runs);
}

// Under ptx, with the loads' choices: the same outcomes as every schedule with
// every choice (smaller programs: the search of every schedule and choice of three
// actors runs to minutes).
RC_GTEST_PROP(Dpor, UnderPtxReachesEveryOutcomeOfEveryScheduleAndChoice, ()) {
  const Program p = random_program(2, 3);
  const SearchResult d = search_dpor(p, {}, nullptr, memory::MemoryMode::Ptx);
  const SearchResult all = search_all(p, memory::MemoryMode::Ptx);
  RC_ASSERT(d.outcomes == all.outcomes);
  RC_ASSERT(d.traces == all.traces);
  RC_ASSERT(d.runs <= all.runs);
}

}  // namespace gpulin::sim::dpor_test
