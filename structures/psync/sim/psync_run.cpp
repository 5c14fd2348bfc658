#include "structures/psync/sim/psync_run.h"

#include <algorithm>
#include <vector>

#include "histories/recorder.h"
#include "sim/sim_block.h"
#include "sim/sim_context.h"
#include "structures/psync/controller.h"
#include "structures/psync/host_psync_heap.h"
#include "structures/psync/level_step.h"
#include "structures/psync/refill.h"
#include "structures/psync/root_step.h"
#include "structures/psync/sim/psync_at_rest.h"

namespace gpulin::explore {

namespace {

uint32_t max_nodes_for(const PsyncConfig& c, const PsyncProgram& p) {
  return static_cast<uint32_t>(p.keys() / c.r) + 2;
}

template <class F>
void with_psync_policy(psync::Mutant m, F&& f) {
  switch (m) {
    case psync::Mutant::None: return f(psync::Policy<uint32_t>{});
    case psync::Mutant::TwoLevels: return f(psync::Policy<uint32_t, psync::Mutant::TwoLevels>{});
    case psync::Mutant::NoBarrier: return f(psync::Policy<uint32_t, psync::Mutant::NoBarrier>{});
    case psync::Mutant::RefillWrongEnd: return f(psync::Policy<uint32_t, psync::Mutant::RefillWrongEnd>{});
  }
}

// What the controller hands the level actors for one cycle; written by actor 0
// before the cycle's first barrier, read after it.
struct CycleShared {
  bool done = false;
  psync::StepTasks steps[2];
  uint64_t arrived[3] = {};  // where the arrived keys end at the cycle's three barriers
  uint32_t barrier = 0;      // the next barrier of the cycle
};

const psync::LevelTask* task_of(const psync::StepTasks& s, uint32_t level) {
  for (uint32_t i = 0; i < s.levels; ++i)
    if (s.level[i].level == level) return &s.level[i];
  return nullptr;
}

// The keys the history says are left: every new key, less every key handed out.
std::vector<uint32_t> expected_left(const PsyncProgram& p, const std::vector<std::vector<uint32_t>>& outs) {
  std::vector<uint32_t> in, out;
  for (const auto& c : p.cycles) in.insert(in.end(), c.begin(), c.end());
  for (const auto& o : outs) out.insert(out.end(), o.begin(), o.end());
  std::sort(in.begin(), in.end());
  std::sort(out.begin(), out.end());
  std::vector<uint32_t> left;
  std::set_difference(in.begin(), in.end(), out.begin(), out.end(), std::back_inserter(left));
  return left;
}

}  // namespace

uint32_t psync_actors(const PsyncConfig& c, const PsyncProgram& p) {
  return 1 + psync::levels_of(max_nodes_for(c, p));
}

namespace {

constexpr uint32_t kPlanWords = 1 + 2 * kPsyncPlanStepWords;

// One simulated run's shared state, and what its actors do each cycle.
struct SimRun {
  const PsyncConfig& c;
  const PsyncProgram& p;
  const psync::View<uint32_t>& h;
  psync::Controller& ctl;
  sim::Simulator& sim;
  CycleShared shared;
  std::vector<std::vector<uint32_t>> outs;

  // Actor 0: step 1 of the cycle (the root step, a kernel per case, then the
  // refills), then the plans of steps 2 and 3; the controller's own errors (a
  // program the heap cannot hold) are the run's faults.
  template <class P>
  void controller(sim::SimContext& x, size_t cycle, sim::SimContext::Private<uint32_t> scratch) {
    psync::CyclePlan plan;
    const bool fresh = cycle < p.cycles.size();
    try {
      if (fresh) plan = ctl.begin_cycle(static_cast<uint32_t>(p.cycles[cycle].size()), int64_t(cycle));
    } catch (const std::exception& err) {
      x.fail(err.what());
    }
    if (fresh) {
      // The cycle's new keys, sorted, into the heap's input (the host's copy before
      // the root step's kernel), through the context like every write of the heap's
      // memory, so that the ptx memory mode sees it.
      std::vector<uint32_t> keys = p.cycles[cycle];
      std::sort(keys.begin(), keys.end());
      if (!keys.empty()) x.store_block(h.new_keys, keys.data(), static_cast<uint32_t>(keys.size()));
    }
    if (fresh) {
      if (psync::root_case(plan.root) == psync::RootCase::Spawn)
        psync::root_step<sim::SimContext, P, psync::RootCase::Spawn>(x, h, plan.root, scratch);
      else
        psync::root_step<sim::SimContext, P, psync::RootCase::Keep>(x, h, plan.root, scratch);
      {  // the step's output, as the host downloads it after the kernel: read directly
        const sim::memory::LiftedGuard lifted = sim.lift_guard();
        outs.emplace_back(h.out, h.out + plan.root.out_count);
      }
      for (const psync::RefillTask& t : plan.refills) psync::refill_root<sim::SimContext, P>(x, h, t, scratch);
    }
    shared.done = !fresh && !ctl.in_flight();
    shared.barrier = 0;
    shared.arrived[0] = ctl.arrived_end();
    try {
      if (!shared.done) shared.steps[0] = ctl.step(), shared.steps[1] = ctl.step();
    } catch (const std::exception& err) {
      x.fail(err.what());
    }
    shared.arrived[1] = shared.steps[0].arrived_end;
    shared.arrived[2] = shared.steps[1].arrived_end;
    publish_plan();
  }

  // The plan as words the stepper draws (kPsyncPlanStepWords, psync_run.h), the
  // processes in level order, kNoPlan where none.
  static constexpr uint32_t kNoPlan = ~0u;
  std::vector<uint32_t> plan = std::vector<uint32_t>(kPlanWords, kNoPlan);
  void publish_plan() {
    std::fill(plan.begin(), plan.end(), kNoPlan);
    plan[0] = shared.barrier;
    for (uint32_t parity = 0; parity < 2; ++parity) {
      uint32_t at = 1 + parity * kPsyncPlanStepWords;
      for (uint32_t i = 0; i < shared.steps[parity].levels && !shared.done; ++i)
        for (uint32_t k = 0; k < shared.steps[parity].level[i].inserts; ++k, at += 2) {
          plan[at] = shared.steps[parity].level[i].insert[k].slot;
          plan[at + 1] = shared.steps[parity].level[i].insert[k].node;
        }
    }
  }

  // Every actor, cycle after cycle: the barrier after step 1, then the even
  // levels' step, the barrier (unless the mutant removed it), the odd levels'
  // step and the barrier; actor a >= 1 works on level a - 1.
  template <class P>
  void actor(sim::SimContext& x, uint32_t a, sim::SimContext::Private<uint32_t> scratch) {
    for (size_t cycle = 0;; ++cycle) {
      if (a == 0) controller<P>(x, cycle, scratch);
      x.block_sync();
      if (shared.done) return;
      for (uint32_t parity = 0; parity < 2; ++parity) {
        if (a > 0)
          if (const psync::LevelTask* t = task_of(shared.steps[parity], a - 1))
            psync::level_step<sim::SimContext, P>(x, h, *t, shared.steps[parity].arrived_end, scratch);
        if (parity == 0 && P::mutant == psync::Mutant::NoBarrier) continue;
        x.block_sync();
      }
    }
  }
};

}  // namespace

PsyncExecution execute_psync(const PsyncConfig& c, const PsyncProgram& p, sim::Strategy& strategy, uint64_t max_points) {
  PsyncExecution e;
  e.actors = psync_actors(c, p);
  const uint32_t max_nodes = max_nodes_for(c, p);
  HostRecorder recorder(psync_fn_names());
  psync::HostPsyncHeap<uint32_t> heap(c.r, max_nodes, e.actors);
  const psync::View<uint32_t>& h = heap.view();
  psync::Controller ctl(c.r, max_nodes);
  // One simulator a thread, its fiber stacks kept between runs: a fresh one maps and
  // faults in 256 KB a fiber every run (under ASan, also poisons and quarantines it).
  thread_local sim::Simulator sim;
  sim.set_memory_mode(c.memory);
  sim.set_shared_regions(sim::memory::ranges_of(heap.shared_bytes()));
  SimRun run{c, p, h, ctl, sim, {}, {}};
  // The controller's plan, named too: the stepper draws where each insert-update
  // process is going from it (SimRun::publish_plan).
  auto named = sim::memory::ranges_of(heap.io_bytes());
  named.push_back(sim::memory::range_of(run.plan));
  sim.set_named_regions(std::move(named));
  sim::SimBlock block(sim, nullptr, 0, e.actors);
  // Between steps every actor waits at the barrier: the heap property must hold on
  // every node no delete-update process is working on (a process that is done
  // holds 0 in its table slot).
  block.set_sync_hook([&] {
    uint32_t b = run.shared.barrier++;
    if (c.mutant == psync::Mutant::NoBarrier && b == 1) b = run.shared.barrier++;  // the cycle's second barrier is gone
    run.plan[0] = run.shared.barrier;
    if (e.invariant_failure || b > 2) return;
    std::vector<uint32_t> working(h.delete_table, h.delete_table + psync::delete_slots_for(max_nodes));
    if (auto bad = psync_heap_property(h.nodes, c.r, run.shared.arrived[b], working))
      e.invariant_failure =
          "at barrier " + std::to_string(b + 1) + " of cycle " + std::to_string(run.outs.size()) + ": " + *bad;
  });
  with_psync_policy(c.mutant, [&](auto policy) {
    using P = decltype(policy);
    e.run = sim.run(
        e.actors,
        [&](uint32_t a) {
          // Each step's actor is a block on the GPU (psync_threads(r) threads; here
          // c.threads, 2 unless asked: enough for two to race in its scratch,
          // sim/private_memory/).
          sim::SimContext x(sim, a, &recorder, sim::WarpPlace{0, 1, a, &block}, c.threads);
          run.actor<P>(x, a, x.private_view(h.scratch_of(a), size_t{psync::kScratchPerR} * c.r));
        },
        strategy, max_points);
  });
  e.history = recorder.to_history(psync_header(c.r, "gpulin explore"), "explore");
  if (e.run.outcome != sim::Outcome::Completed || e.invariant_failure) return e;
  // At rest: every process done, the heap property everywhere, and the keys left
  // are the ones the cycles brought and were not handed out.
  if (auto bad = psync_heap_property(h.nodes, c.r, ctl.arrived_end(), {})) {
    e.invariant_failure = "at rest: " + *bad;
    return e;
  }
  std::vector<uint32_t> left(h.nodes, h.nodes + ctl.arrived_end());
  std::sort(left.begin(), left.end());
  if (left != expected_left(p, run.outs))
    e.invariant_failure = "at rest: the heap holds " + std::to_string(left.size()) +
                          " keys that are not the ones brought and not handed out (" +
                          std::to_string(expected_left(p, run.outs).size()) + " expected)";
  return e;
}

Judgement judge_psync(const PsyncExecution& e, const JudgeOptions& options) {
  return judge_run(e.run, e.history, e.invariant_failure, options);
}

}  // namespace gpulin::explore
