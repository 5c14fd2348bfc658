#include "tools/explore/slab_run.h"

#include <vector>

#include "histories/recorder.h"
#include "histories/result_shapes.h"
#include "sim/sim_context.h"
#include "structures/slab_hash/host_slab_hash.h"
#include "structures/slab_hash/work_queue.h"
#include "tools/explore/slab_at_rest.h"

namespace gpulin::explore {

using namespace slab_hash;

namespace {

// The simulator's table: two memory blocks in two super blocks (2048 slabs), so
// that warps share resident blocks and race on their bitmaps.
SlabHashShape sim_shape(const SlabConfig& c) { return {c.buckets, 2, 1, 8, 7}; }

// The run's table as a compile-time policy: every mutant and both allocators are
// instantiated here, in the simulator's driver, and nowhere on the GPU.
template <Mode M, class F>
void with_slab_policy(const SlabConfig& c, F&& f) {
  auto by_alloc = [&](auto mutant) {
    constexpr Mutant Mu = decltype(mutant)::value;
    if (c.light)
      f(SlabPolicy<M, true, Mu>{});
    else
      f(SlabPolicy<M, false, Mu>{});
  };
  switch (c.mutant) {
    case Mutant::None: by_alloc(std::integral_constant<Mutant, Mutant::None>{}); break;
    case Mutant::SearchFirstSlab: by_alloc(std::integral_constant<Mutant, Mutant::SearchFirstSlab>{}); break;
    case Mutant::InsertNoReread: by_alloc(std::integral_constant<Mutant, Mutant::InsertNoReread>{}); break;
    case Mutant::LostNextCas: by_alloc(std::integral_constant<Mutant, Mutant::LostNextCas>{}); break;
  }
}

template <Mode M>
SlabExecution execute_mode(const SlabConfig& c, const SlabProgram& p, sim::Strategy& strategy, uint64_t max_points) {
  SlabExecution e;
  std::vector<std::string> names;
  for (uint32_t fn = 0; fn < kFnCount; ++fn) names.emplace_back(fn_name<M>(fn));
  HostRecorder recorder(names);
  HostSlabHash table(sim_shape(c));
  sim::Simulator sim;
  const auto warps = static_cast<uint32_t>(p.warps.size());
  with_slab_policy<M>(c, [&](auto policy) {
    using P = decltype(policy);
    const SlabHashView<P> view = table.view<P>();
    e.run = sim.run(
        warps,
        [&](uint32_t a) {
          sim::SimContext x(sim, a, &recorder, sim::WarpPlace{a, warps, 0, nullptr});
          WarpAllocator<sim::SimContext> wa;
          wa.warp_id = a;
          sim::SimContext::Regs<uint32_t, kTaskWords> task;
          const auto& ops = p.warps[a];
          for (uint32_t l = 0; l < ops.size(); ++l) {
            uint32_t* t = task.of(l);
            t[kTaskFn] = ops[l].fn, t[kTaskKey] = ops[l].key, t[kTaskValue] = ops[l].value;
            t[kTaskOp] = l, t[kTaskActive] = 1;
          }
          warp_work_queue(x, view, wa, task, int64_t{a} << 20, [](uint32_t, uint32_t, const TaskResult&) {});
        },
        strategy, max_points);
    if (e.run.outcome == sim::Outcome::Completed) e.at_rest_failure = slab_table_at_rest(view);
  });
  e.alloc_failures = table.failures();
  Header header;
  header.model = slab_mode_name(M);
  header.lp_rule = "explicit";
  header.extra.emplace_back("source", "\"gpulin explore\"");
  e.history = recorder.to_history(header, "explore");
  if constexpr (M == Mode::Set) {
    apply_result_shapes(e.history, {{"contains", ResultShape::Bool}});
  } else {
    apply_result_shapes(e.history, {{"search", ResultShape::Scalar}});
  }
  return e;
}

}  // namespace

SlabExecution execute_slab(const SlabConfig& c, const SlabProgram& p, sim::Strategy& strategy, uint64_t max_points) {
  switch (c.mode) {
    case Mode::Map: return execute_mode<Mode::Map>(c, p, strategy, max_points);
    case Mode::Set: return execute_mode<Mode::Set>(c, p, strategy, max_points);
    case Mode::Multimap: return execute_mode<Mode::Multimap>(c, p, strategy, max_points);
  }
  return {};
}

Judgement judge_slab(const SlabExecution& e, const JudgeOptions& options) {
  switch (e.run.outcome) {
    case sim::Outcome::Deadlock: return {Failure::Deadlock, e.run.message, false};
    case sim::Outcome::Livelock: return {Failure::Livelock, e.run.message, false};
    case sim::Outcome::Fault: return {Failure::Fault, e.run.message, false};
    case sim::Outcome::Completed: break;
  }
  if (e.alloc_failures) return {Failure::Fault, "SlabAlloc found no free slab (the simulated pool is too small)", false};
  if (e.at_rest_failure) return {Failure::Invariant, "table at rest: " + *e.at_rest_failure, false};
  return judge_history(e.history, options);
}

}  // namespace gpulin::explore
