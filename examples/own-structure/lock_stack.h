// A structure the testbed does not have: a stack behind one spin lock (a lock word
// and a top index over an array of slots), written once against the execution
// context, so that the same code runs in gpulin's simulator (explore, replay,
// survey) and on the GPU (stress). docs/own-structure.md walks through it.
//
// As in structures/counter_array/counter_array.h:
//   * memory is a plain view of pointers (LockStackView): the executor owns it
//     (host vectors in the simulator, device memory on the GPU);
//   * every access another actor can see goes through `x`: the lock word with cas
//     and a parked wait, the top and the slots with load and store_guarded (a
//     store the lock's release publishes);
//   * each operation records its inv and ret, and its hold of the lock, through
//     `x`. The lock is node 1 of its histories, and each operation holds it once:
//     the hold is the operation's linearization point, the `root-release` rule of
//     history-format.md, so a GPU history of millions of operations is checked by
//     the witness checker in O(n log n);
//   * the planted bug is a compile-time policy (StackMutant): a correct build
//     contains none of it.
#pragma once

#include <cstdint>

#include "structures/exec/context.h"

namespace own {

enum : uint32_t { kFnPush = 0, kFnPop = 1 };  // recorded as "push", "pop"
inline constexpr int64_t kLockNode = 1;        // the lock's node in histories

// UnlockedPop: pop reads the top and takes the slot without the lock, so two pops
// can both take the same value (and a pop can miss a push in flight): not
// linearizable.
enum class StackMutant : uint32_t { None = 0, UnlockedPop = 1 };

struct LockStackView {
  uint32_t capacity = 0;
  uint32_t* lock = nullptr;   // 0 free, 1 held
  uint32_t* top = nullptr;    // values held; guarded by the lock
  uint32_t* slots = nullptr;  // [capacity], slots[0, top) the values, bottom first; guarded
};

template <class X>
GPULIN_HD void stack_lock(X& x, const LockStackView& s) {
  while (x.cas(s.lock, 0u, 1u) != 0u) x.wait_while_equals(s.lock, 1u);
  x.record_acq(kLockNode);
}

template <class X>
GPULIN_HD void stack_unlock(X& x, const LockStackView& s) {
  x.record_rel(kLockNode);  // before the release: the next holder's acq comes after it
  x.store(s.lock, 0u);
  x.after_release(kLockNode);
}

// push(v): v on top. A full stack is a fault of the run (x.fail), never a silent
// loss: the executors size it for every push of their program.
template <gpulin::exec::SharedWords X>
  requires gpulin::exec::Recording<X>
GPULIN_HD void stack_push(X& x, const LockStackView& s, uint32_t v) {
  x.record_inv(kFnPush, &v, 1u);
  stack_lock(x, s);
  const uint32_t t = x.load(s.top);
  if (t >= s.capacity) x.fail("lock-stack: push on a full stack");
  x.store_guarded(s.slots + t, v);
  x.store_guarded(s.top, t + 1);
  stack_unlock(x, s);
  x.record_ret(&v, 0u, true);  // null
}

// pop(): the top value, recorded as [v]; [] when the stack is empty. Returns
// whether there was one (in *out).
template <StackMutant M = StackMutant::None, gpulin::exec::SharedWords X>
  requires gpulin::exec::Recording<X>
GPULIN_HD bool stack_pop(X& x, const LockStackView& s, uint32_t* out) {
  x.record_inv(kFnPop, out, 0u);
  uint32_t v = 0;
  bool found = false;
  if constexpr (M == StackMutant::UnlockedPop) {
    const uint32_t t = x.load(s.top);
    if (t > 0) {
      v = x.load(s.slots + t - 1);
      x.store(s.top, t - 1);
      found = true;
    }
  } else {
    stack_lock(x, s);
    const uint32_t t = x.load(s.top);
    if (t > 0) {
      v = x.load(s.slots + t - 1);
      x.store_guarded(s.top, t - 1);
      found = true;
    }
    stack_unlock(x, s);
  }
  *out = v;
  x.record_ret(&v, found ? 1u : 0u, false);
  return found;
}

}  // namespace own
