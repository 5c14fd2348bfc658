#include "structures/bucket_heap/sim/bucket_run.h"

#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
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
  auto with_mutant = [&](auto variant, auto refill, auto buffers) {
    constexpr Variant V = decltype(variant)::value;
    constexpr Refill R = decltype(refill)::value;
    constexpr SignalBuffers B = decltype(buffers)::value;
    switch (c.mutant) {
      case Mutant::None: return f(Policy<V, Mutant::None, R, B>{});
      case Mutant::EveryThird: return f(Policy<V, Mutant::EveryThird, R, B>{});
      case Mutant::AdjacentOverlap: return f(Policy<V, Mutant::AdjacentOverlap, R, B>{});
      case Mutant::KeepDuplicates: return f(Policy<V, Mutant::KeepDuplicates, R, B>{});
      case Mutant::ShiftInPlace: return f(Policy<V, Mutant::ShiftInPlace, R, B>{});
    }
  };
  using Paper = std::integral_constant<Variant, Variant::Paper>;
  using Fixed = std::integral_constant<Variant, Variant::Fixed>;
  using Full = std::integral_constant<Refill, Refill::Full>;
  using Lazy = std::integral_constant<Refill, Refill::Lazy>;
  using One = std::integral_constant<SignalBuffers, SignalBuffers::One>;
  using Two = std::integral_constant<SignalBuffers, SignalBuffers::Two>;
  if (c.variant == Variant::Paper) with_mutant(Paper{}, Full{}, One{});
  else if (c.refill == Refill::Full) with_mutant(Fixed{}, Full{}, One{});
  else if (c.buffers == SignalBuffers::One) with_mutant(Fixed{}, Lazy{}, One{});
  else with_mutant(Fixed{}, Lazy{}, Two{});
}

// The largest level holding an element (DELETEs on their way down fill nothing).
uint32_t largest_nonempty_level(const bucket_heap::View& h) {
  using namespace bucket_heap;
  uint32_t ell = 0;
  auto holds = [](const Element* a, uint32_t n) { return std::any_of(a, a + n, [](Element x) { return !is_del(x); }); };
  for (uint32_t j = 0; j < h.levels; ++j)
    if (holds(h.bucket(j), h.bucket_n[j]) || holds(h.signal(j, 0), h.signal_n[j]) || holds(h.signal(j, 1), h.signal_n_b[j]))
      ell = j;
  return ell;
}

// RESOLVE(i)'s condition on |B_i+1| (Theorem 1: enough below for the fill), or none
// when level i + 1 is the largest non-empty one or past it.
std::optional<std::string> below_bucket_condition(const bucket_heap::View& h, uint32_t i, uint32_t ell) {
  const uint64_t d = h.d;
  if (i + 1 < ell && h.bucket_n[i + 1] < (d << (2 * i + 2)) + (d << (2 * i)))
    return "|B_i+1| = " + std::to_string(h.bucket_n[i + 1]) + " < d 2^(2(i+1)) + d 2^(2i)";
  return std::nullopt;
}

// Algorithm 1's conditions on the sizes of levels i and i + 1 around RESOLVE(i)'s
// k-th, `pre` before it, else after it; ell is the largest non-empty level. With
// the lazy refill (config.h) B_0 holds between d and 2d after RESOLVE(0) instead of
// 2d, and before it what an operation left (it takes one element at most, so d - 1
// or more). |S_i| is the buffer the RESOLVE empties, |S_i+1| the one it pushes
// into. With two signal buffers RESOLVE(i+1) may still run at RESOLVE(i)'s start,
// so B_i+1's condition is checked where a fill begins (fill_condition).
template <class P>
std::optional<std::string> resolve_conditions(const bucket_heap::View& h, uint32_t i, uint32_t k, bool pre) {
  using namespace bucket_heap;
  const uint32_t ell = largest_nonempty_level(h);
  const uint64_t d = h.d;
  const uint32_t own = *h.signal_count(i, emptied_buffer<P>(i, k));
  auto sz = [](uint64_t n) { return std::to_string(n); };
  const std::string at = (pre ? "before" : "after") + std::string(" RESOLVE(") + std::to_string(i) + "): ";
  const bool lazy0 = P::refill == Refill::Lazy && i == 0;
  if (pre) {
    if (lazy0 && i < ell && h.bucket_n[i] + 1 < d)
      return at + "|B_0| = " + sz(h.bucket_n[i]) + " < d - 1 = " + sz(d - 1) + " (lazy refill)";
    if (!lazy0 && i < ell && h.bucket_n[i] < d << (2 * i))
      return at + "|B_i| = " + sz(h.bucket_n[i]) + " < d 2^(2i) = " + sz(d << (2 * i));
    if (own > d << (2 * i)) return at + "|S_i| = " + sz(own) + " > d 2^(2i)";
    if (P::buffers == SignalBuffers::One)
      if (auto bad = below_bucket_condition(h, i, ell)) return at + *bad;
    const uint32_t below = i + 1 < h.levels ? *h.signal_count(i + 1, pushed_buffer<P>(k)) : 0;
    if (i + 1 < h.levels && below > (d << (2 * i + 2)) - (d << (2 * i)))
      return at + "|S_i+1| = " + sz(below) + " > d 2^(2(i+1)) - d 2^(2i)";
    return std::nullopt;
  }
  if (own != 0) return at + "|S_i| = " + sz(own) + ", not 0";
  if (lazy0 && i < ell && (h.bucket_n[i] < d || h.bucket_n[i] > 2 * d))
    return at + "|B_0| = " + sz(h.bucket_n[i]) + ", not between d = " + sz(d) + " and 2d (lazy refill)";
  if (!lazy0 && i < ell && h.bucket_n[i] != d << (2 * i + 1))
    return at + "|B_i| = " + sz(h.bucket_n[i]) + ", not d 2^(2i+1) = " + sz(d << (2 * i + 1));
  return std::nullopt;
}

// Two signal buffers: RESOLVE(i)'s condition on |B_i+1| where its fill begins,
// after the wait for the RESOLVE(i+1) in flight.
std::optional<std::string> fill_condition(const bucket_heap::View& h, uint32_t i) {
  if (auto bad = below_bucket_condition(h, i, largest_nonempty_level(h)))
    return "at RESOLVE(" + std::to_string(i) + ")'s fill: " + *bad;
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
                          range_of(heap.signal_n), range_of(heap.done), range_of(heap.threshold),
                          range_of(heap.signals_b), range_of(heap.signal_n_b)});
  with_bucket_policy(c, [&](auto policy) {
    using P = decltype(policy);
    using X = sim::SimContext;
    // Algorithm 1's conditions around every RESOLVE(i) (its k-th: done[i] + 1 at
    // its start and before its signal), and where a fill begins.
    auto check = [&](uint32_t i, auto at) {
      if (e.invariant_failure) return;
      const sim::memory::LiftedGuard lifted = sim.lift_guard();  // the conditions read the levels directly
      std::optional<std::string> bad;
      if constexpr (std::is_same_v<decltype(at), bool>) bad = resolve_conditions<P>(h, i, h.done[i] + 1, at);
      else if (P::buffers == SignalBuffers::Two && at.step == kStepFillTurn) bad = fill_condition(h, i);
      if (bad) e.invariant_failure = *bad;
    };
    const uint64_t ops = p.ops.size();
    e.run = sim.run(
        levels,
        [&](uint32_t a) {
          // A level block's threads (2 unless asked): enough for two of them to race
          // in its scratch (sim/private_memory/barrier_phases.h); the schedules do
          // not depend on it.
          X x(sim, a, &recorder, c.threads);
          // Algorithm 1's conditions checked around every RESOLVE(a) and at its fill.
          auto around = [&](auto at) { check(a, at); };
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
