#include "structures/slab_hash/sim/slab_run.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "histories/recorder.h"
#include "histories/result_shapes.h"
#include "sim/sim_context.h"
#include "structures/slab_hash/host_slab_hash.h"
#include "structures/slab_hash/work_queue.h"
#include "structures/slab_hash/sim/slab_at_rest.h"

namespace gpulin::explore {

namespace {

// The simulator's table: two memory blocks in two super blocks (2048 slabs), so
// that warps share resident blocks and race on their bitmaps.

// The run's table as a compile-time policy: every mutant and both allocators are
// instantiated here, in the simulator's driver, and nowhere on the GPU (with the
// multimap's fixed variant too).
// With c.lanes != 32, the policy runs its operations on tiles (slab_lanes.h).
template <class F>
void with_run_policy(const SlabConfig& c, F&& f) {
  using slab_hash::Mutant;
  if (const std::string why = slab_lanes_problem(c); !why.empty()) throw std::invalid_argument("slab hash: " + why);
  auto with_lanes = [&](auto policy) {
    using P = decltype(policy);
    if constexpr (slab_hash::ModeTraits<P::mode>::kPairs) {
      if (c.lanes == 16) return f(slab_hash::WithLanes<P, 16>{});
      if (c.lanes == 8) return f(slab_hash::WithLanes<P, 8>{});
    }
    return f(policy);
  };
  auto with_mutant = [&](auto mu) {
    slab_hash::with_slab_policy<decltype(mu)::value>(c.mode, c.light, c.variant, with_lanes);
  };
  switch (c.mutant) {
    case Mutant::None: return with_mutant(std::integral_constant<Mutant, Mutant::None>{});
    case Mutant::SearchFirstSlab: return with_mutant(std::integral_constant<Mutant, Mutant::SearchFirstSlab>{});
    case Mutant::InsertNoReread: return with_mutant(std::integral_constant<Mutant, Mutant::InsertNoReread>{});
    case Mutant::LostNextCas: return with_mutant(std::integral_constant<Mutant, Mutant::LostNextCas>{});
  }
}

}  // namespace

slab_hash::SlabHashShape sim_shape(const SlabConfig& c) { return {c.buckets, 2, 1, 8, 7}; }

SlabExecution execute_slab(const SlabConfig& c, const SlabProgram& p, sim::Strategy& strategy, uint64_t max_points) {
  using namespace slab_hash;
  SlabExecution e;
  HostRecorder recorder(slab_fn_names(c.mode));
  // One table a thread, reset for each run: a fresh one is a 256 KB pool allocated,
  // faulted in and freed every run (under ASan also poisoned and quarantined).
  thread_local HostSlabHash table(sim_shape(c));
  table.reset(sim_shape(c));
  // One simulator a thread, its fiber stacks kept between runs: a fresh one maps and
  // faults in 256 KB a fiber every run (under ASan, also poisons and quarantines it).
  thread_local sim::Simulator sim;
  sim.set_memory_mode(c.memory);
  sim.set_shared_regions(sim::memory::ranges_of(table.shared_bytes()));
  const auto warps = static_cast<uint32_t>(p.warps.size());
  with_run_policy(c, [&](auto policy) {
    using P = decltype(policy);
    const SlabHashView<P> view = table.view<P>();
    e.run = sim.run(
        warps,
        [&](uint32_t a) {
          sim::SimContext x(sim, a, &recorder, sim::WarpPlace{a, warps, 0, nullptr});
          x.set_lanes(P::lanes);
          WarpAllocator<sim::SimContext, P::lanes> wa;
          wa.group = a;
          sim::SimContext::Regs<uint32_t, kTaskWords> task;
          const auto& ops = p.warps[a];
          for (uint32_t l = 0; l < ops.size(); ++l) {
            uint32_t* t = task.of(l);
            t[kTaskFn] = ops[l].fn, t[kTaskKey] = ops[l].key, t[kTaskValue] = ops[l].value;
            t[kTaskActive] = 1;
          }
          warp_work_queue(x, view, wa, task, int64_t{a} << 20, [](uint32_t, const TaskResult&) {});
        },
        strategy, max_points);
    if (e.run.outcome == sim::Outcome::Completed) e.at_rest_failure = slab_table_at_rest(view);
  });
  e.alloc_failures = table.failures();
  e.history = recorder.to_history(slab_header(c.mode, "gpulin explore"), "explore");
  apply_result_shapes(e.history, slab_result_shapes());
  return e;
}

Judgement judge_slab(const SlabExecution& e, const JudgeOptions& options) {
  if (auto stopped = judge_stopped_run(e.run)) return *stopped;
  if (e.alloc_failures) return {Failure::Fault, "SlabAlloc found no free slab (the simulated pool is too small)", false};
  if (e.at_rest_failure) return {Failure::Invariant, "table at rest: " + *e.at_rest_failure, false};
  return judge_history(e.history, options);
}

}  // namespace gpulin::explore
