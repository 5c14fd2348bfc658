// The fiber simulator and its strategies: determinism, strict replay, deadlock and
// livelock detection, and the exact schedule counts of bounded DFS.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/schedule_string.h"
#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "sim/strategies/dfs_strategy.h"
#include "sim/strategies/pct_strategy.h"
#include "sim/strategies/random_strategy.h"
#include "sim/strategies/replay_strategy.h"
#include "structures/gheap/sim/heap_run.h"
#include "structures/gheap/sim/heap_program.h"

namespace gpulin::sim {
namespace {

// A small racy workload: every actor does `ops` fetch_adds on one counter and logs
// (actor, value seen); the log is the "history" of the run.
struct CounterWorkload {
  uint32_t counter = 0;
  std::vector<std::pair<uint32_t, uint32_t>> log;
  uint32_t ops = 5;

  Simulator::Body body(Simulator& sim) {
    return [this, &sim](uint32_t a) {
      SimContext x(sim, a, nullptr, 1);
      for (uint32_t i = 0; i < ops; ++i) log.emplace_back(a, x.fetch_add(&counter, 1));
    };
  }
};

struct RunRecord {
  RunResult result;
  std::vector<std::pair<uint32_t, uint32_t>> log;
};

RunRecord run_counter(Strategy& strategy, uint32_t actors) {
  Simulator sim;
  CounterWorkload w;
  strategy.begin_run(actors);
  RunRecord r;
  r.result = sim.run(actors, w.body(sim), strategy, 100000);
  r.log = w.log;
  EXPECT_EQ(w.counter, actors * w.ops);
  return r;
}

TEST(SimDeterminism, RandomSameSeedSamePicksAndHistory) {
  std::set<std::vector<uint32_t>> distinct;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    RandomStrategy s1(seed), s2(seed);
    RunRecord a = run_counter(s1, 3), b = run_counter(s2, 3);
    ASSERT_EQ(a.result.outcome, Outcome::Completed);
    EXPECT_EQ(a.result.picks, b.result.picks) << "seed " << seed;
    EXPECT_EQ(a.result.points, b.result.points);
    EXPECT_EQ(a.log, b.log);
    EXPECT_FALSE(a.result.picks.empty());
    distinct.insert(a.result.picks);
  }
  EXPECT_GT(distinct.size(), 1u) << "different seeds should give different schedules";
}

TEST(SimDeterminism, PctSameSeedSamePicksAndHistoryOverSeveralRuns) {
  // PCT carries state across runs (the measured length), so compare whole sequences.
  for (uint64_t seed : {1u, 7u, 42u}) {
    PctStrategy s1(seed, 3), s2(seed, 3);
    for (int run = 0; run < 5; ++run) {
      RunRecord a = run_counter(s1, 3), b = run_counter(s2, 3);
      ASSERT_EQ(a.result.outcome, Outcome::Completed);
      EXPECT_EQ(a.result.picks, b.result.picks) << "seed " << seed << " run " << run;
      EXPECT_EQ(a.log, b.log);
    }
  }
}

// The simulator makes the picks PCT promised (Strategy::same_pick_before) without
// asking: the same schedules as PCT asked at every decision (wrapped, its promise
// not passed on), on heap programs whose actors park and change the runnable set.
struct AskedEveryTime final : Strategy {
  explicit AskedEveryTime(Strategy& inner) : inner(inner) {}
  bool begin_run(uint32_t actors) override { return inner.begin_run(actors); }
  uint32_t pick(ActorSet runnable, uint32_t current, uint64_t step) override {
    return inner.pick(runnable, current, step);
  }
  uint32_t choose(uint32_t options, uint64_t step) override { return inner.choose(options, step); }
  void end_run(uint64_t decisions) override { inner.end_run(decisions); }
  std::string name() const override { return inner.name(); }
  Strategy& inner;
};

// Heap programs of `actors` x `ops` on nodes of k = 2 (small_heap_config).
explore::WorkloadShape small_heap_shape(uint32_t actors, uint32_t ops) {
  explore::WorkloadShape shape;
  shape.actors = actors;
  shape.ops = ops;
  shape.k = 2;
  return shape;
}
explore::HeapConfig small_heap_config() {
  explore::HeapConfig c;
  c.k = 2;
  return c;
}

TEST(SimDeterminism, PctPromisedPicksAreTheOnesItWouldMake) {
  using namespace gpulin::explore;
  const HeapConfig c = small_heap_config();
  const WorkloadShape shape = small_heap_shape(4, 4);
  for (uint32_t depth : {1u, 3u, 5u}) {
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      PctStrategy promising(seed, depth), asked(seed, depth);
      AskedEveryTime every(asked);
      HeapRunner r1(c), r2(c);
      for (int run = 0; run < 6; ++run) {
        const Program p = generate_program(shape, seed * 10 + static_cast<uint64_t>(run));
        promising.begin_run(4);
        every.begin_run(4);
        const Execution e1 = r1.execute(p, promising, 200000), e2 = r2.execute(p, every, 200000);
        EXPECT_EQ(e1.run.picks, e2.run.picks) << "depth " << depth << " seed " << seed << " run " << run;
        EXPECT_EQ(e1.run.points, e2.run.points);
        EXPECT_EQ(e1.run.outcome, e2.run.outcome);
      }
    }
  }
}

// Answers each pick from a script (then the lowest runnable actor), and promises
// every answer for the rest of the run (Strategy::same_pick_before).
struct ScriptedPromises final : Strategy {
  explicit ScriptedPromises(std::vector<uint32_t> script) : answers(std::move(script)) {}
  bool begin_run(uint32_t) override {
    next = 0;
    return true;
  }
  uint32_t pick(ActorSet runnable, uint32_t, uint64_t) override {
    const uint32_t a = next < answers.size() ? answers[next] : lowest(runnable);
    ++next;
    same_pick_before_ = ~uint64_t{0};
    return a;
  }
  std::string name() const override { return "scripted"; }
  std::vector<uint32_t> answers;
  size_t next = 0;
};

// A promise holds only while the runnable set it was made from stays: once the
// promised actor parks or ends, the actor picked after it is asked about again at
// its first point, not kept there on the promise made to the other.
TEST(SimDeterminism, APromiseEndsWhenItsActorLeavesTheRunnableSet) {
  for (const bool parks : {true, false}) {
    Simulator sim;
    // The second run of one simulator: the first sized its picks' room.
    for (int run = 0; run < 2; ++run) {
      uint32_t word = 0, other = 0;
      // The run's first pick, actor 0's load (the promise), who runs once actor 0
      // leaves, and actor 2's first load: asked again, so actor 1.
      ScriptedPromises s({0, 0, 2, 1});
      s.begin_run(3);
      const RunResult r = sim.run(
          3,
          [&](uint32_t a) {
            SimContext x(sim, a, nullptr, 1);
            x.load(&other);
            if (a != 0) x.store(&word, 1);
            else if (parks) x.wait_while_equals(&word, 0);
          },
          s, 1000);
      ASSERT_EQ(r.outcome, Outcome::Completed) << r.message;
      ASSERT_GE(r.picks.size(), 4u);
      EXPECT_EQ(std::vector<uint32_t>(r.picks.begin(), r.picks.begin() + 4), (std::vector<uint32_t>{0, 0, 2, 1}))
          << (parks ? "parks" : "ends") << ", run " << run;
    }
  }
}

TEST(SimDeterminism, HeapRunnerHistoriesIdenticalForSameSeed) {
  using namespace gpulin::explore;
  const HeapConfig c = small_heap_config();
  const Program p = generate_program(small_heap_shape(3, 3), 5);
  for (int which = 0; which < 2; ++which) {
    HeapRunner r1(c), r2(c);
    std::unique_ptr<Strategy> s1, s2;
    if (which == 0) {
      s1 = std::make_unique<RandomStrategy>(99);
      s2 = std::make_unique<RandomStrategy>(99);
    } else {
      s1 = std::make_unique<PctStrategy>(99, 3);
      s2 = std::make_unique<PctStrategy>(99, 3);
    }
    s1->begin_run(3);
    s2->begin_run(3);
    Execution e1 = r1.execute(p, *s1, 200000), e2 = r2.execute(p, *s2, 200000);
    ASSERT_EQ(e1.run.outcome, Outcome::Completed) << e1.run.message;
    EXPECT_EQ(e1.run.picks, e2.run.picks);
    ASSERT_EQ(e1.history.events.size(), e2.history.events.size());
    for (size_t i = 0; i < e1.history.events.size(); ++i) {
      const Event &x = e1.history.events[i], &y = e2.history.events[i];
      EXPECT_EQ(x.t, y.t);
      EXPECT_EQ(x.kind, y.kind);
      EXPECT_EQ(x.op, y.op);
      EXPECT_EQ(x.actor, y.actor);
      EXPECT_EQ(x.node, y.node);
    }
    ASSERT_EQ(e1.history.ops.size(), e2.history.ops.size());
    for (size_t i = 0; i < e1.history.ops.size(); ++i) {
      EXPECT_EQ(e1.history.ops[i].args, e2.history.ops[i].args);
      EXPECT_EQ(e1.history.ops[i].res, e2.history.ops[i].res);
    }
  }
}

TEST(SimReplay, StrictReplayReproducesPicksPointsAndHistory) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    RandomStrategy rs(seed);
    RunRecord orig = run_counter(rs, 3);
    ReplayStrategy replay(orig.result.picks, true);
    RunRecord again = run_counter(replay, 3);
    EXPECT_EQ(again.result.outcome, Outcome::Completed);
    EXPECT_EQ(again.result.picks, orig.result.picks);
    EXPECT_EQ(again.result.points, orig.result.points);
    EXPECT_EQ(again.log, orig.log);
    // Through the text form too.
    ReplayStrategy replay2(decode_picks(encode_picks(orig.result.picks)), true);
    EXPECT_EQ(run_counter(replay2, 3).log, orig.log);
  }
}

// A strict replay that runs out at the decision made when an actor's body returns
// (three actors with empty bodies: the first pick fits, the second is past the end)
// is an error run() throws, not an exception escaping a fiber (std::terminate: `gpulin
// replay --schedule 'gheap-td:fixed|d;d;d|0'` aborted so).
TEST(SimReplay, ScheduleRunningOutAfterABodyReturnsIsThrown) {
  Simulator sim;
  ReplayStrategy replay({0}, /*strict=*/true);
  replay.begin_run(3);
  EXPECT_THROW(sim.run(3, [](uint32_t) {}, replay, 1000), std::runtime_error);
  // The simulator is usable afterwards.
  ReplayStrategy again({0, 1}, true);
  again.begin_run(3);
  const RunResult r = sim.run(3, [](uint32_t) {}, again, 1000);
  EXPECT_EQ(r.outcome, Outcome::Completed);
}

TEST(SimReplay, ReplayStrategyRunsOnce) {
  ReplayStrategy r({0}, true);
  EXPECT_TRUE(r.begin_run(2));
  EXPECT_FALSE(r.begin_run(2));
}

TEST(SimReplay, StrictReplayOfAnUnfitScheduleThrowsAtTheFirstDecision) {
  Simulator sim;
  CounterWorkload w;
  ReplayStrategy r({5}, true);  // actor 5 does not exist
  r.begin_run(2);
  EXPECT_THROW(sim.run(2, w.body(sim), r, 1000), std::runtime_error);
}

// Found by the sanitizer suite: a run whose first pick threw left its fibers to be
// destroyed later, and a never-started fiber's function then ran, actor code against
// a body that no longer existed. No actor may run once run() is done (the simulator
// resumes such a fiber once, before run() returns, and it ends at once).
TEST(SimReplay, NoActorCodeRunsAfterARunThatThrewAtItsFirstPick) {
  int calls = 0;
  const Simulator::Body body = [&calls](uint32_t) { ++calls; };
  {
    Simulator sim;
    ReplayStrategy r({5}, true);
    r.begin_run(3);
    EXPECT_THROW(sim.run(3, body, r, 1000), std::runtime_error);
    EXPECT_EQ(calls, 0);
  }
  EXPECT_EQ(calls, 0) << "an actor of the failed run ran when the simulator was destroyed";
}

TEST(SimReplay, StrictReplayOfATooShortScheduleThrowsMidRun) {
  // The divergence is found inside an actor's fiber (decision 1); it must still
  // surface as an exception from run(), not terminate the process.
  // Run in a child process: today the exception escapes the fiber and calls
  // std::terminate, which would take the whole test binary down.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        Simulator sim;
        CounterWorkload w;
        ReplayStrategy r({0}, true);
        r.begin_run(2);
        try {
          sim.run(2, w.body(sim), r, 1000);
        } catch (const std::runtime_error&) {
          std::exit(0);
        }
        std::exit(1);
      },
      testing::ExitedWithCode(0), "");
}

TEST(SimReplay, LenientReplayOfATooShortScheduleCompletes) {
  Simulator sim;
  CounterWorkload w;
  ReplayStrategy r({1}, false);
  r.begin_run(2);
  RunResult res = sim.run(2, w.body(sim), r, 1000);
  EXPECT_EQ(res.outcome, Outcome::Completed);
  ASSERT_FALSE(res.picks.empty());
  EXPECT_EQ(res.picks[0], 1u);
  EXPECT_EQ(w.counter, 10u);
}

// The simulators of one thread share their fiber stacks (sim/simulator.cpp's
// thread_stacks): explorers make a simulator per run, and each making its own pool
// allocated 32 fresh stacks a run. With the first simulator still alive, the second
// one's actors run on the very stacks the first one's did.
TEST(SimStacks, SimulatorsOfAThreadShareTheirFiberStacks) {
  auto stack_addresses = [](Simulator& sim) {
    std::set<uintptr_t> seen;
    RandomStrategy r(1);
    r.begin_run(3);
    sim.run(3, [&](uint32_t) {
      int local = 0;
      seen.insert(reinterpret_cast<uintptr_t>(&local));
    }, r, 1000);
    return seen;
  };
  Simulator first;
  const std::set<uintptr_t> a = stack_addresses(first);
  Simulator second;
  const std::set<uintptr_t> b = stack_addresses(second);
  EXPECT_EQ(a.size(), 3u);
  EXPECT_EQ(a, b) << "the second simulator allocated stacks of its own";
}

// A run that stops (here: every actor parked) unwinds its actors' stacks before run()
// returns: their destructors run, and an exception thrown on a fiber's stack later
// (a strict replay that no longer fits) still leaves run() as an exception. Under
// ASan the unwinding happens on stacks it was told about (sim/asan_fiber_switch.h).
TEST(SimStacks, AStoppedRunUnwindsEveryActor) {
  struct Counted {
    int* n;
    ~Counted() { ++*n; }
  };
  int destroyed = 0;
  uint32_t word = 0;
  Simulator sim;
  RandomStrategy r(2);
  r.begin_run(3);
  const RunResult res = sim.run(3, [&](uint32_t a) {
    Counted c{&destroyed};
    SimContext x(sim, a, nullptr, 1);
    x.wait_while_equals(&word, 0);  // nobody writes: all three park
  }, r, 1000);
  EXPECT_EQ(res.outcome, Outcome::Deadlock);
  EXPECT_EQ(destroyed, 3);
  ReplayStrategy strict({0}, true);  // too short: throws inside an actor
  strict.begin_run(2);
  CounterWorkload w;
  EXPECT_THROW(sim.run(2, w.body(sim), strict, 1000), std::runtime_error);
}

// Under ASan an exception thrown on a stack ASan was not told about draws "WARNING:
// ASan is ignoring requested __asan_handle_no_return" and leaves the unwound frames
// poisoned; with every switch announced (sim/asan_fiber_switch.h) there is no such
// line. ASan prints it once a process, so the runs happen in a fresh one: this test
// binary again, on this test alone, told by GPULIN_SIM_STACKS_CHILD to run them
// (elsewhere than under ASan the check is trivially true).
TEST(SimStacks, ExceptionsOnFiberStacksDrawNoSanitizerWarning) {
  if (std::getenv("GPULIN_SIM_STACKS_CHILD")) {
    Simulator sim;
    for (int i = 0; i < 3; ++i) {
      ReplayStrategy strict({0}, true);  // too short: throws inside an actor
      strict.begin_run(2);
      CounterWorkload w;
      try {
        sim.run(2, w.body(sim), strict, 1000);
      } catch (const std::runtime_error&) {
      }
    }
    std::_Exit(0);
  }
  const std::string err_path = testing::TempDir() + "sim_stacks_err_" + std::to_string(::getpid());
  std::fflush(nullptr);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const int fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(fd, 2);
    ::setenv("GPULIN_SIM_STACKS_CHILD", "1", 1);
    ::execl("/proc/self/exe", "sim_test", "--gtest_filter=SimStacks.ExceptionsOnFiberStacksDrawNoSanitizerWarning",
            static_cast<char*>(nullptr));
    std::_Exit(127);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  std::ifstream in(err_path);
  const std::string err((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(err.find("ASan is ignoring"), std::string::npos) << err;
  std::remove(err_path.c_str());
}

// A spin lock over SimContext: CAS 0 -> owner, park while held.
void lock(SimContext& x, uint32_t* w, uint32_t me) {
  uint32_t old;
  while ((old = x.cas(w, 0, me + 1)) != 0) x.wait_while_equals(w, old);
}
void unlock(SimContext& x, uint32_t* w) { x.store(w, 0); }

TEST(SimDeadlock, LockOrderInversionIsFoundByDfsBoundOne) {
  uint64_t schedules = 0, deadlocks = 0, completed = 0;
  std::string message;
  DfsStrategy dfs(1);
  Simulator sim;
  while (dfs.begin_run(2)) {
    uint32_t A = 0, B = 0;
    RunResult r = sim.run(
        2,
        [&](uint32_t a) {
          SimContext x(sim, a, nullptr, 1);
          uint32_t* first = a == 0 ? &A : &B;
          uint32_t* second = a == 0 ? &B : &A;
          lock(x, first, a);
          lock(x, second, a);
          unlock(x, second);
          unlock(x, first);
        },
        dfs, 10000);
    ++schedules;
    ASSERT_NE(r.outcome, Outcome::Livelock);
    ASSERT_NE(r.outcome, Outcome::Fault);
    if (r.outcome == Outcome::Deadlock) {
      ++deadlocks;
      message = r.message;
    } else {
      ++completed;
    }
    ASSERT_LT(schedules, 10000u);
  }
  EXPECT_TRUE(dfs.exhausted());
  EXPECT_GT(deadlocks, 0u);
  EXPECT_GT(completed, 0u);
  EXPECT_NE(message.find("actors 0, 1"), std::string::npos) << message;
}

TEST(SimDeadlock, LockOrderInversionNeedsAPreemption) {
  // With no preemption each actor runs to completion: never a deadlock.
  DfsStrategy dfs(0);
  Simulator sim;
  uint64_t schedules = 0;
  while (dfs.begin_run(2)) {
    uint32_t A = 0, B = 0;
    RunResult r = sim.run(
        2,
        [&](uint32_t a) {
          SimContext x(sim, a, nullptr, 1);
          lock(x, a == 0 ? &A : &B, a);
          lock(x, a == 0 ? &B : &A, a);
          unlock(x, a == 0 ? &B : &A);
          unlock(x, a == 0 ? &A : &B);
        },
        dfs, 10000);
    EXPECT_EQ(r.outcome, Outcome::Completed) << r.message;
    ++schedules;
  }
  EXPECT_EQ(schedules, 2u);
}

TEST(SimDeadlock, WaitingOnAWordNobodyWritesIsADeadlock) {
  Simulator sim;
  RandomStrategy rs(1);
  rs.begin_run(1);
  uint32_t w = 0;
  RunResult r = sim.run(
      1,
      [&](uint32_t a) {
        SimContext x(sim, a, nullptr, 1);
        x.wait_while_equals(&w, 0);
        ADD_FAILURE() << "woke up without a write";
      },
      rs, 1000);
  EXPECT_EQ(r.outcome, Outcome::Deadlock);
  EXPECT_NE(r.message.find("actors 0"), std::string::npos) << r.message;
}

TEST(SimDeadlock, OneWaiterAmongFinishedActorsIsNamed) {
  // Actor 1 finishes; actor 0 waits on a word actor 1 writes with the same value.
  Simulator sim;
  DfsStrategy dfs(0);
  while (dfs.begin_run(2)) {
    uint32_t w = 0;
    RunResult r = sim.run(
        2,
        [&](uint32_t a) {
          SimContext x(sim, a, nullptr, 1);
          if (a == 1) {
            x.store(&w, 0);  // no change: must not wake anyone
          } else {
            x.wait_while_equals(&w, 0);
          }
        },
        dfs, 1000);
    EXPECT_EQ(r.outcome, Outcome::Deadlock);
    EXPECT_NE(r.message.find("(actors 0)"), std::string::npos) << r.message;
  }
}

TEST(SimLivelock, SpinningWithoutParkingHitsThePointBudget) {
  Simulator sim;
  RandomStrategy rs(1);
  rs.begin_run(1);
  uint32_t w = 0;
  RunResult r = sim.run(
      1,
      [&](uint32_t a) {
        SimContext x(sim, a, nullptr, 1);
        while (x.load(&w) == 0) {
        }
      },
      rs, 500);
  EXPECT_EQ(r.outcome, Outcome::Livelock);
  EXPECT_GE(r.points, 500u);
  EXPECT_LE(r.points, 501u);
  EXPECT_NE(r.message.find("500"), std::string::npos) << r.message;
}

TEST(SimLivelock, ParkedWaiterIsWokenByAWrite) {
  // Contrast: the same wait with a writer completes.
  Simulator sim;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    RandomStrategy rs(seed);
    rs.begin_run(2);
    uint32_t w = 0;
    RunResult r = sim.run(
        2,
        [&](uint32_t a) {
          SimContext x(sim, a, nullptr, 1);
          if (a == 1)
            x.store(&w, 1);
          else
            while (x.load(&w) == 0) x.wait_while_equals(&w, 0);
        },
        rs, 1000);
    EXPECT_EQ(r.outcome, Outcome::Completed) << r.message;
  }
}

// ---- DFS exhaustiveness --------------------------------------------------------

uint64_t dfs_count(uint32_t n_stores, uint32_t bound, std::set<std::vector<uint32_t>>* orders = nullptr) {
  DfsStrategy dfs(bound);
  Simulator sim;
  uint64_t schedules = 0;
  std::set<std::vector<uint32_t>> seen_picks;
  while (dfs.begin_run(2)) {
    uint32_t words[2] = {0, 0};
    std::vector<uint32_t> order;
    RunResult r = sim.run(
        2,
        [&](uint32_t a) {
          SimContext x(sim, a, nullptr, 1);
          for (uint32_t i = 0; i < n_stores; ++i) {
            x.store(&words[a], i + 1);
            order.push_back(a);
          }
        },
        dfs, 100000);
    EXPECT_EQ(r.outcome, Outcome::Completed);
    EXPECT_TRUE(seen_picks.insert(r.picks).second) << "dfs repeated a schedule";
    if (orders) orders->insert(order);
    ++schedules;
    if (schedules > 1'000'000) break;
  }
  EXPECT_TRUE(dfs.exhausted());
  return schedules;
}

uint64_t binom(uint64_t n, uint64_t k) {
  uint64_t r = 1;
  for (uint64_t i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

// Independent oracle. Each actor is a sequence of N+1 segments separated by its N
// scheduling points (the code before the first point is a segment too, and the
// first pick, which chooses who starts, is a decision). A schedule is an order-
// preserving interleaving of the two segment sequences; its preemptions are the
// switches away from an actor that has not finished, i.e. (blocks - 2).
uint64_t oracle_count(uint32_t n, uint32_t bound) {
  const uint32_t m = n + 1;
  uint64_t total = 0;
  std::function<void(uint32_t, uint32_t, int, uint32_t)> go = [&](uint32_t i, uint32_t j, int last,
                                                                 uint32_t blocks) {
    if (i == m && j == m) {
      if (blocks - 2 <= bound) ++total;
      return;
    }
    if (i < m) go(i + 1, j, 0, blocks + (last != 0));
    if (j < m) go(i, j + 1, 1, blocks + (last != 1));
  };
  go(0, 0, -1, 0);
  return total;
}

TEST(SimDfs, BoundZeroExploresOnlyTheTwoRunToCompletionOrders) {
  // No preemptions: the only free decision is who starts; the other actor runs
  // when the first finishes. So 2 (= 2!) schedules for any N.
  for (uint32_t n : {1u, 2u, 3u, 5u}) {
    std::set<std::vector<uint32_t>> orders;
    EXPECT_EQ(dfs_count(n, 0, &orders), 2u) << "N = " << n;
    EXPECT_EQ(orders.size(), 2u);
    EXPECT_EQ(oracle_count(n, 0), 2u);
  }
}

TEST(SimDfs, LargeBoundExploresEveryInterleaving) {
  for (uint32_t n : {1u, 2u, 3u, 4u, 5u}) {
    std::set<std::vector<uint32_t>> orders;
    const uint64_t count = dfs_count(n, 2 * n + 2, &orders);
    // Schedules: interleavings of the two (N+1)-segment sequences, C(2N+2, N+1).
    EXPECT_EQ(count, binom(2 * n + 2, n + 1)) << "N = " << n;
    EXPECT_EQ(count, oracle_count(n, 2 * n + 2));
    // Distinct orders of the 2N observable stores: C(2N, N), every one reached.
    EXPECT_EQ(orders.size(), binom(2 * n, n)) << "N = " << n;
  }
}

TEST(SimDfs, IntermediateBoundsMatchTheOracle) {
  for (uint32_t n : {2u, 3u, 4u})
    for (uint32_t bound : {1u, 2u, 3u}) EXPECT_EQ(dfs_count(n, bound), oracle_count(n, bound)) << n << "/" << bound;
}


// A choice that is not a scheduling one (the ptx memory mode's which-store-a-load-
// reads): a decision recorded with the picks, replayed exactly, enumerated by an
// unbounded DFS, drawn by random and PCT within range.
TEST(SimChoose, AChoiceIsADecisionThatReplaysAndEnumerates) {
  Simulator sim;
  std::vector<uint32_t> seen;
  auto body = [&](uint32_t) {
    seen.push_back(sim.choose(5));
    seen.push_back(sim.choose(1));  // one option: no decision
  };
  RandomStrategy rnd(3);
  rnd.begin_run(1);
  const RunResult r = sim.run(1, body, rnd, 100);
  ASSERT_EQ(r.picks.size(), 1u);
  EXPECT_EQ(r.picks[0], seen[0] | kChoiceMark) << "recorded as a choice";
  EXPECT_LT(seen[0], 5u);
  EXPECT_EQ(seen[1], 0u);
  seen.clear();
  ReplayStrategy again(r.picks, true);
  again.begin_run(1);
  sim.run(1, body, again, 100);
  EXPECT_EQ(seen[0], unmarked(r.picks[0]));
  DfsStrategy dfs(~0u);
  std::set<uint32_t> values;
  int runs = 0;
  while (dfs.begin_run(1)) {
    seen.clear();
    sim.run(1, body, dfs, 100);
    values.insert(seen[0]);
    ++runs;
  }
  EXPECT_EQ(runs, 5);
  EXPECT_EQ(values.size(), 5u);
  PctStrategy pct(7, 3);
  for (int i = 0; i < 50; ++i) {
    pct.begin_run(1);
    seen.clear();
    sim.run(1, body, pct, 100);
    EXPECT_LT(seen[0], 5u);
  }
}

}  // namespace
}  // namespace gpulin::sim
