// Whole concurrent programs as RapidCheck values: a generated program and a PCT
// seed, run in the simulator and judged. RapidCheck shrinks a failure to a minimal
// program; RC_LOG prints its replay string (paste into `gpulin replay --schedule`).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "heap_test_util.h"
#include "sim/strategies/pct_strategy.h"
#include "tools/explore/heap_run.h"

namespace gpulin::explore {
namespace {

// strict: the judgement must be a clean pass; otherwise only no bug (is_bug) is
// required, which lets a failure of the proof's points alone (WitnessOnly) pass.
constexpr uint64_t kSchedulesPerProgram = 20;

void check_concurrent(gheap::Flavor flavor, bool strict) {
  HeapConfig c;
  c.flavor = flavor;
  c.variant = gheap::Variant::Fixed;
  c.k = *rc::gen::element<uint32_t>(2, 3);
  const auto actors = *rc::gen::inRange<uint32_t>(2, 4);
  Program p;
  for (uint32_t a = 0; a < actors; ++a) p.actors.push_back(testing::gen_ops(1, 4, c.k, 8));
  const auto seed = *rc::gen::arbitrary<uint64_t>();

  HeapRunner runner(c);
  // Several PCT schedules per program (seeds seed, seed+1, ...): the first failing
  // one is reported, and RapidCheck shrinks the program and the base seed.
  for (uint64_t i = 0; i < kSchedulesPerProgram; ++i) {
    sim::PctStrategy pct(seed + i, 3);
    pct.begin_run(actors);
    const Execution e = runner.execute(p, pct, 200'000);
    const Judgement j = judge(e, JudgeOptions{});
    const bool ok = strict ? j.failure == Failure::None : !is_bug(j.failure);
    if (!ok) {
      RC_LOG() << "pct seed " << seed + i << " replay: " << replay_string(c, p, e.run.picks) << "\n"
               << to_string(j.failure) << ": " << j.message;
      RC_FAIL("judged " + std::string(to_string(j.failure)));
    }
  }
}

RC_GTEST_PROP(GHeapConcurrent, TopDownFixedUnderPct, ()) { check_concurrent(gheap::Flavor::TopDown, true); }

// DISABLED: fails today (known BU bug, being fixed). RapidCheck's shrunk
// counterexample (after 59 tests and 8 shrinks), judged proof-points (the
// last-lock rule's points fail; the search linearizes this small history):
//   gpulin replay --schedule 'gheap-bu:fixed:k=3:t=2|i0,d;i0-0,i0-0,i0-0;d,d|0*12.1*2.2*2.1*21.2*35'
//   op 2097153 (del []) at its point, t 34, after 5 ops in the rule's order: the
//   model answers [0], the op returned [0,0,0]
// Another run shrank to 'gheap-bu:fixed:k=2:t=2|i0,d;d;i0-1,i1-0,i0-0|2*20.1*7.0*2.1*17.2.0*17.2*3'.
RC_GTEST_PROP(GHeapConcurrent, DISABLED_BottomUpFixedUnderPct, ()) { check_concurrent(gheap::Flavor::BottomUp, true); }

RC_GTEST_PROP(GHeapConcurrent, BottomUpFixedUnderPctHasNoBug, ()) { check_concurrent(gheap::Flavor::BottomUp, false); }

}  // namespace
}  // namespace gpulin::explore
