#include "structures/bucket_heap/sim/bucket_run.h"

#include <algorithm>
#include <vector>

#include "histories/recorder.h"
#include "sim/sim_context.h"
#include "structures/bucket_heap/host_bucket_heap.h"
#include "structures/bucket_heap/operations.h"
#include "structures/bucket_heap/schedule.h"

namespace gpulin::explore {

namespace {

template <class F>
void with_bucket_policy(const BucketConfig& c, F&& f) {
  using namespace bucket_heap;
  auto with_mutant = [&](auto variant, auto refill) {
    constexpr Variant V = decltype(variant)::value;
    constexpr Refill R = decltype(refill)::value;
    switch (c.mutant) {
      case Mutant::None: return f(Policy<V, Mutant::None, R>{});
      case Mutant::EveryThird: return f(Policy<V, Mutant::EveryThird, R>{});
      case Mutant::AdjacentOverlap: return f(Policy<V, Mutant::AdjacentOverlap, R>{});
      case Mutant::KeepDuplicates: return f(Policy<V, Mutant::KeepDuplicates, R>{});
      case Mutant::ShiftInPlace: return f(Policy<V, Mutant::ShiftInPlace, R>{});
    }
  };
  using Full = std::integral_constant<Refill, Refill::Full>;
  if (c.variant == Variant::Paper) with_mutant(std::integral_constant<Variant, Variant::Paper>{}, Full{});
  else if (c.refill == Refill::Lazy)
    with_mutant(std::integral_constant<Variant, Variant::Fixed>{}, std::integral_constant<Refill, Refill::Lazy>{});
  else with_mutant(std::integral_constant<Variant, Variant::Fixed>{}, Full{});
}

// Algorithm 1's conditions on the sizes of levels i and i + 1, `pre` before the
// RESOLVE, else after it; ell is the largest non-empty level. With the lazy refill
// (config.h) B_0 holds between d and 2d after RESOLVE(0) instead of 2d, and before
// it what an operation left (it takes one element at most, so d - 1 or more).
std::optional<std::string> resolve_conditions(const bucket_heap::View& h, uint32_t i, bool pre, bucket_heap::Refill refill) {
  using namespace bucket_heap;
  // The largest level holding an element (DELETEs on their way down fill nothing).
  uint32_t ell = 0;
  for (uint32_t j = 0; j < h.levels; ++j) {
    const Element* b = h.bucket(j);
    const Element* s = h.signal(j);
    if (std::any_of(b, b + h.bucket_n[j], [](Element x) { return !is_del(x); }) ||
        std::any_of(s, s + h.signal_n[j], [](Element x) { return !is_del(x); }))
      ell = j;
  }
  const uint64_t d = h.d;
  auto sz = [](uint64_t n) { return std::to_string(n); };
  const std::string at = (pre ? "before" : "after") + std::string(" RESOLVE(") + std::to_string(i) + "): ";
  const bool lazy0 = refill == Refill::Lazy && i == 0;
  if (pre) {
    if (lazy0 && i < ell && h.bucket_n[i] + 1 < d)
      return at + "|B_0| = " + sz(h.bucket_n[i]) + " < d - 1 = " + sz(d - 1) + " (lazy refill)";
    if (!lazy0 && i < ell && h.bucket_n[i] < d << (2 * i))
      return at + "|B_i| = " + sz(h.bucket_n[i]) + " < d 2^(2i) = " + sz(d << (2 * i));
    if (h.signal_n[i] > d << (2 * i)) return at + "|S_i| = " + sz(h.signal_n[i]) + " > d 2^(2i)";
    if (i + 1 < ell && h.bucket_n[i + 1] < (d << (2 * i + 2)) + (d << (2 * i)))
      return at + "|B_i+1| = " + sz(h.bucket_n[i + 1]) + " < d 2^(2(i+1)) + d 2^(2i)";
    if (i + 1 < h.levels && h.signal_n[i + 1] > (d << (2 * i + 2)) - (d << (2 * i)))
      return at + "|S_i+1| = " + sz(h.signal_n[i + 1]) + " > d 2^(2(i+1)) - d 2^(2i)";
    return std::nullopt;
  }
  if (h.signal_n[i] != 0) return at + "|S_i| = " + sz(h.signal_n[i]) + ", not 0";
  if (lazy0 && i < ell && (h.bucket_n[i] < d || h.bucket_n[i] > 2 * d))
    return at + "|B_0| = " + sz(h.bucket_n[i]) + ", not between d = " + sz(d) + " and 2d (lazy refill)";
  if (!lazy0 && i < ell && h.bucket_n[i] != d << (2 * i + 1))
    return at + "|B_i| = " + sz(h.bucket_n[i]) + ", not d 2^(2i+1) = " + sz(d << (2 * i + 1));
  return std::nullopt;
}

}  // namespace

uint32_t bucket_actors(const BucketConfig& c, const BucketProgram& p) {
  using bucket_heap::bucket_cap;
  uint32_t levels = 1;
  while (bucket_cap(c.d, levels - 1) < p.elements() + c.d) ++levels;
  return levels;
}

BucketExecution execute_bucket(const BucketConfig& c, const BucketProgram& p, sim::Strategy& strategy,
                               uint64_t max_points) {
  using namespace bucket_heap;
  BucketExecution e;
  const uint32_t levels = bucket_actors(c, p);
  HostBucketHeap heap(c.d, levels);
  const View& h = heap.view;
  HostRecorder recorder(bucket_fn_names());
  // One simulator a thread, its fiber stacks kept between runs: a fresh one maps and
  // faults in 256 KB a fiber every run (under ASan, also poisons and quarantines it).
  thread_local sim::Simulator sim;
  sim.set_memory_mode(c.memory);
  // The levels' arrays and words (each level's scratch is its private memory).
  using sim::memory::range_of;
  sim.set_shared_regions({range_of(heap.buckets), range_of(heap.signals), range_of(heap.bucket_n),
                          range_of(heap.signal_n), range_of(heap.done), range_of(heap.threshold)});
  auto check = [&](uint32_t i, bool pre) {
    if (e.invariant_failure) return;
    const sim::memory::LiftedGuard lifted = sim.lift_guard();  // the conditions read the levels directly
    if (auto bad = resolve_conditions(h, i, pre, c.refill)) e.invariant_failure = *bad;
  };
  with_bucket_policy(c, [&](auto policy) {
    using P = decltype(policy);
    using X = sim::SimContext;
    const uint64_t ops = p.ops.size();
    e.run = sim.run(
        levels,
        [&](uint32_t a) {
          // A level block's threads (2 unless asked): enough for two of them to race
          // in its scratch (sim/private_memory/barrier_phases.h); the schedules do
          // not depend on it.
          X x(sim, a, &recorder, c.threads);
          // Algorithm 1's conditions checked around every RESOLVE(a).
          auto around = [&](bool pre) { check(a, pre); };
          if (a > 0) {
            run_level<X, P>(x, h, a, ops, around);
            return;
          }
          for (uint64_t k = 1; k <= ops; ++k) {
            const BucketOp& op = p.ops[k - 1];
            x.begin_op(static_cast<int64_t>(k - 1));
            if (op.fn == kFnExtractMin) {
              uint32_t v = 0, pr = 0;
              extract_min<X, P>(x, h, &v, &pr);
            } else if (op.fn == kFnDelete) {
              delete_value<X, P>(x, h, op.value);
            } else {
              std::vector<Element> u;
              for (const auto& [v, pr] : op.updates) u.push_back(make_element(v, pr));
              bulk_update<X, P>(x, h, u.data(), static_cast<uint32_t>(u.size()));
            }
            x.end_op();
            scheduled_resolve<X, P>(x, h, 0, static_cast<uint32_t>(k), around);
          }
        },
        strategy, max_points);
  });
  e.history = recorder.to_history(bucket_header("gpulin explore"), "explore");
  pair_update_args(e.history);
  return e;
}

Judgement judge_bucket(const BucketExecution& e, const JudgeOptions& options) {
  return judge_run(e.run, e.history, e.invariant_failure, options);
}

}  // namespace gpulin::explore
