// The smallest structure written against the execution context: an array of
// counters, each behind its own spin lock. docs/architecture.md walks through it
// as the template for a new structure; tests/structures/counter_array_test.cpp
// explores it in the simulator and checks its histories (model `counters`).
//
// What it shows:
//   * memory is a plain view of pointers (CounterArrayView): the executor owns it
//     (host vectors for the simulator, device memory on the GPU);
//   * every access another actor can see goes through `x`: the lock word with cas
//     and a parked spin, the value with load and store_guarded (published by the
//     lock's release);
//   * the operation records its inv and ret, and its lock holds, through `x`;
//   * a planted bug is a compile-time policy (CounterMutant), so correct builds
//     contain none of it.
#pragma once

#include <cstdint>

#include "structures/exec/context.h"

namespace gpulin::examples {

enum : uint32_t { kFnAdd = 0, kFnGet = 1 };  // recorded as "add", "get"

// LostUpdate: add reads and writes the counter without its lock, so two adds can
// both read the old value and one increment is lost (not linearizable).
enum class CounterMutant : uint32_t { None = 0, LostUpdate = 1 };

struct CounterArrayView {
  uint32_t n = 0;
  uint32_t* locks = nullptr;   // [n], 0 free, 1 held
  uint32_t* values = nullptr;  // [n], each guarded by its lock
};

template <class X>
GPULIN_HD void counter_lock(X& x, const CounterArrayView& c, uint32_t i) {
  while (x.cas(c.locks + i, 0u, 1u) != 0u) x.wait_while_equals(c.locks + i, 1u);
  x.record_acq(i);
}

template <class X>
GPULIN_HD void counter_unlock(X& x, const CounterArrayView& c, uint32_t i) {
  x.record_rel(i);  // before the release: the next holder's acq comes after it
  x.store(c.locks + i, 0u);
  x.after_release(i);
}

// add(i, d): counter i += d.
template <CounterMutant M = CounterMutant::None, exec::SharedWords X>
  requires exec::Recording<X>
GPULIN_HD void counter_add(X& x, const CounterArrayView& c, uint32_t i, uint32_t d) {
  const uint32_t args[2] = {i, d};
  x.record_inv(kFnAdd, args, 2u);
  if constexpr (M == CounterMutant::LostUpdate) {
    const uint32_t v = x.load(c.values + i);
    x.store(c.values + i, v + d);
  } else {
    counter_lock(x, c, i);
    const uint32_t v = x.load(c.values + i);
    x.store_guarded(c.values + i, v + d);
    counter_unlock(x, c, i);
  }
  x.record_ret(args, 0u, true);
}

// get(i): the value of counter i.
template <exec::SharedWords X>
  requires exec::Recording<X>
GPULIN_HD uint32_t counter_get(X& x, const CounterArrayView& c, uint32_t i) {
  x.record_inv(kFnGet, &i, 1u);
  counter_lock(x, c, i);
  const uint32_t v = x.load(c.values + i);
  counter_unlock(x, c, i);
  x.record_ret(&v, 1u, false);
  return v;
}

}  // namespace gpulin::examples
