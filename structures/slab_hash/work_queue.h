// The warp-cooperative work sharing strategy (slab hash §IV-A): every lane of a
// warp brings one operation; the warp forms a work queue with a ballot and
// processes the operations one at a time, lowest lane first, all 32 lanes working
// on each (Fig. 2, lines 1-11). Processing an operation to its end before the next
// is what Fig. 2's loop does: `next` goes back to the base slab exactly when the
// queue changed, i.e. when the previous operation finished.
//
// Each operation is recorded through the context: inv before its first slab read,
// its lp at the deciding access (slab_list.h), ret after its last.
#pragma once

#include <cstdint>

#include "structures/exec/lane_search.h"
#include "structures/slab_hash/slab_list.h"

namespace gpulin::slab_hash {

// A lane's operation: words of Regs<uint32_t, kTaskWords>.
enum TaskWord : uint32_t {
  kTaskFn = 0,
  kTaskKey = 1,
  kTaskValue = 2,
  kTaskOp = 3,
  kTaskActive = 4,
  kTaskBucket = 5,  // filled by warp_work_queue
  kTaskWords = 6
};

// What an operation came to (warp-uniform, handed to the driver's callback).
struct TaskResult {
  enum Status : uint32_t { kDone = 0, kFound = 1, kNoMemory = 2 } status = kDone;
  uint32_t value = 0;         // search: the value found
  const uint32_t* all = nullptr;  // searchall: the values, n of them
  uint32_t n = 0;
};

inline constexpr uint32_t kSearchAllCap = 64;

// Runs one operation with its recording; `done(result)` is called warp-uniformly.
template <class X, class P, class Done>
GPULIN_HD void run_slab_op(X& x, const SlabHashView<P>& h, SlabRegs<X>& r, WarpAllocator<X>& wa, uint32_t fn,
                           uint32_t bucket, uint32_t key, uint32_t value, Done&& done) {
  using T = ModeTraits<P::mode>;
  const uint32_t args[2] = {key, value};
  x.record_inv(fn, args, fn == kFnInsert && T::kPairs ? 2u : 1u);
  TaskResult res;
  if (fn == kFnInsert) {
    if (!slab_insert(x, h, r, wa, bucket, key, value)) {
      res.status = TaskResult::kNoMemory;  // no ret: the op stays pending, it never took effect
      done(res);
      return;
    }
    x.record_ret(args, 0u, true);
  } else if (fn == kFnDelete) {
    slab_delete(x, h, r, bucket, key);
    x.record_ret(args, 0u, true);
  } else if (fn == kFnSearch) {
    const SlabSearchResult s = slab_search(x, h, r, bucket, key);
    res.status = s.found ? TaskResult::kFound : TaskResult::kDone;
    res.value = s.value;
    if constexpr (P::mode == Mode::Set) {
      const uint32_t present = s.found ? 1u : 0u;
      x.record_ret(&present, 1u, false);
    } else {
      x.record_ret(&s.value, s.found ? 1u : 0u, !s.found);
    }
  } else if (fn == kFnSearchAll) {
    uint32_t all[kSearchAllCap];
    res.n = slab_search_all(x, h, r, bucket, key, all, kSearchAllCap);
    res.all = all;
    res.status = res.n ? TaskResult::kFound : TaskResult::kDone;
    x.record_ret(all, res.n, false);
    done(res);
    return;
  } else {
    slab_delete_all(x, h, r, bucket, key);
    x.record_ret(args, 0u, true);
  }
  done(res);
}

// The work queue of one warp: each lane's task (Regs of kTaskWords words, the
// lane's kTaskActive word nonzero when it has one) is processed in lane order.
// `done(lane, task_op, result)` reports each one, warp-uniformly.
template <class X, class P, class Done>
GPULIN_HD void warp_work_queue(X& x, const SlabHashView<P>& h, WarpAllocator<X>& wa,
                               typename X::template Regs<uint32_t, kTaskWords>& task, int64_t op_base, Done&& done) {
  SlabRegs<X> r;
  x.for_each_lane([&](uint32_t l) {
    if (task.of(l)[kTaskActive]) task.of(l)[kTaskBucket] = h.hash(task.of(l)[kTaskKey]);
  });
  auto word = [&](uint32_t lane, uint32_t i) { return x.shuffle([&](uint32_t l) { return task.of(l)[i]; }, lane); };
  for (;;) {
    const uint32_t src = first_lane_where(x, [&](uint32_t l) { return task.of(l)[kTaskActive] != 0; });
    if (src == 32) return;
    const uint32_t fn = word(src, kTaskFn), key = word(src, kTaskKey), value = word(src, kTaskValue);
    const uint32_t op = word(src, kTaskOp), bucket = word(src, kTaskBucket);
    x.begin_op(op_base + op);
    run_slab_op(x, h, r, wa, fn, bucket, key, value, [&](const TaskResult& res) { done(src, op, res); });
    x.end_op();
    x.set_lane(task, src, kTaskActive, 0u);
  }
}

}  // namespace gpulin::slab_hash
