// The example structure (structures/counter_array/counter_array.h) explored in the
// simulator: every PCT schedule of a few actors adding to and reading shared
// counters gives a linearizable history (model `counters`), and the planted
// LostUpdate mutant is caught with a history the search proves wrong.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include "histories/recorder.h"
#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "sim/strategies/pct_strategy.h"
#include "structures/counter_array/counter_array.h"
#include "verify/search_checker.h"

namespace gpulin {
namespace {

using examples::CounterMutant;

struct Op {
  bool add = true;
  uint32_t counter = 0, amount = 1;
};

// One schedule of `program` (per-actor operation lists) on fresh counters; the
// history and whether the run completed.
template <CounterMutant M>
History run_once(const std::vector<std::vector<Op>>& program, uint32_t counters, uint64_t seed) {
  std::vector<uint32_t> locks(counters, 0), values(counters, 0);
  const examples::CounterArrayView view{counters, locks.data(), values.data()};
  HostRecorder recorder({"add", "get"});
  sim::Simulator simulator;
  sim::PctStrategy strategy(seed, 3);
  strategy.begin_run(static_cast<uint32_t>(program.size()));
  const sim::RunResult r = simulator.run(
      static_cast<uint32_t>(program.size()),
      [&](uint32_t a) {
        sim::SimContext x(simulator, a, &recorder, 1);
        int64_t id = static_cast<int64_t>(a) << 16;
        for (const Op& op : program[a]) {
          x.begin_op(id++);
          if (op.add)
            examples::counter_add<M>(x, view, op.counter, op.amount);
          else
            examples::counter_get(x, view, op.counter);
          x.end_op();
        }
      },
      strategy, 100'000);
  strategy.end_run(r.picks.size());
  EXPECT_EQ(r.outcome, sim::Outcome::Completed) << r.message;
  Header header;
  header.model = "counters";
  return recorder.to_history(std::move(header), "<counter_array_test>");
}

std::vector<std::vector<Op>> gen_program() {
  const auto actors = *rc::gen::inRange<uint32_t>(2, 5);
  std::vector<std::vector<Op>> p(actors);
  for (auto& ops : p) {
    const auto n = *rc::gen::inRange<uint32_t>(1, 5);
    for (uint32_t i = 0; i < n; ++i)
      ops.push_back({*rc::gen::weightedElement<bool>({{3, true}, {1, false}}), *rc::gen::inRange<uint32_t>(0, 2),
                     *rc::gen::inRange<uint32_t>(1, 4)});
  }
  return p;
}

// 30 PCT schedules of each generated program (the same property with the
// LostUpdate mutant fails within RapidCheck's 100 programs).
template <CounterMutant M>
void every_schedule_linearizable() {
  const auto program = gen_program();
  const auto seed = *rc::gen::arbitrary<uint64_t>();
  for (uint64_t i = 0; i < 30; ++i) {
    const SearchResult s = check_search(run_once<M>(program, 2, seed + i));
    RC_ASSERT(s.verdict == Verdict::Linearizable);
  }
}

RC_GTEST_PROP(CounterArray, EveryPctScheduleIsLinearizable, ()) { every_schedule_linearizable<CounterMutant::None>(); }

TEST(CounterArray, LostUpdateMutantIsCaught) {
  // Two actors adding to one counter, then reading it: some schedule interleaves
  // the unlocked read-modify-writes and loses an increment.
  const std::vector<std::vector<Op>> program = {{{true, 0, 1}, {false, 0, 0}}, {{true, 0, 2}, {false, 0, 0}}};
  uint64_t caught_at = 0;
  for (uint64_t seed = 1; seed <= 200 && !caught_at; ++seed)
    if (check_search(run_once<CounterMutant::LostUpdate>(program, 1, seed)).verdict == Verdict::NotLinearizable)
      caught_at = seed;
  EXPECT_NE(caught_at, 0u) << "200 PCT schedules never lost an update";
  // The correct counter never fails on the same schedules.
  for (uint64_t seed = 1; seed <= 200; ++seed)
    ASSERT_EQ(check_search(run_once<CounterMutant::None>(program, 1, seed)).verdict, Verdict::Linearizable) << seed;
}

}  // namespace
}  // namespace gpulin
