// The resolution schedule of §2.2.1 (Theorem 1 and the text after it): after the
// k-th operation, RESOLVE(0); RESOLVE(i), i > 0, after every fourth RESOLVE(i - 1)
// (Res_{i-1}(4k) -> Res_i(k)); and never two adjacent levels at once
// (Res_i(k) -> Res_{i-1}(4k + 1)). Each level is an actor (a persistent block on
// the GPU, §4.1); they signal through View::done, the count of RESOLVE(i) done.
#pragma once

#include <cstdint>

#include "structures/bucket_heap/resolve.h"

namespace gpulin::bucket_heap {

// The waits before RESOLVE(i)'s k-th (1-based): the level above has done its share,
// and the level below is done with the RESOLVE that came before (one signal
// buffer), or with the one before that, which emptied the buffer this one pushes
// into (two; the one in between is waited for only before a fill, resolve.h).
template <class X, class P>
GPULIN_HD void wait_for_turn(X& x, const View& h, uint32_t i, uint32_t k) {
  if (i > 0) wait_until_at_least(x, h.done + i - 1, fan_in<P>() * k);
  if (P::mutant == Mutant::AdjacentOverlap || i + 1 == h.levels || k == 1) return;
  const uint32_t before = resolve_below_before(k);
  if (P::buffers == SignalBuffers::One) wait_until_at_least(x, h.done + i + 1, before);
  else if (before > 1) wait_until_at_least(x, h.done + i + 1, before - 1);
}
// The signal after it.
template <class X>
GPULIN_HD void signal_done(X& x, const View& h, uint32_t i, uint32_t k) {
  x.store(h.done + i, k);
}

// RESOLVE(i)'s executions among `ops` operations.
template <class P>
GPULIN_HD constexpr uint64_t resolves_of(uint32_t i, uint64_t ops) {
  uint64_t n = ops;
  for (uint32_t j = 0; j < i; ++j) n /= fan_in<P>();
  return n;
}

// No checks around a RESOLVE (the GPU's runs).
struct NoChecks {
  GPULIN_HD void operator()(bool) const {}
};

// RESOLVE(i)'s k-th: its turn, `around(true)`, the RESOLVE, `around(false)`, its
// signal (the simulator checks Algorithm 1's conditions in `around`; a GPU profile
// also takes the RESOLVE's steps through it, resolve.h's ResolveMark).
template <exec::SharedWords X, class P, class Around>
  requires exec::BulkData<X> && exec::BlockCollectives<X>
GPULIN_HD void scheduled_resolve(X& x, const View& h, uint32_t i, uint32_t k, Around&& around) {
  wait_for_turn<X, P>(x, h, i, k);
  around(true);
  resolve<X, P>(x, h, i, k, around);
  around(false);
  signal_done(x, h, i, k);
}

// A level actor i > 0: its share of the RESOLVEs of a run of `ops` operations.
template <exec::SharedWords X, class P, class Around>
  requires exec::BulkData<X> && exec::BlockCollectives<X>
GPULIN_HD void run_level(X& x, const View& h, uint32_t i, uint64_t ops, Around&& around) {
  for (uint64_t k = 1; k <= resolves_of<P>(i, ops); ++k) scheduled_resolve<X, P>(x, h, i, static_cast<uint32_t>(k), around);
}

}  // namespace gpulin::bucket_heap
