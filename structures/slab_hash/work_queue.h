// The warp-cooperative work sharing strategy (slab hash §IV-A): every lane of a
// warp brings one operation; the warp forms a work queue with a ballot and
// processes the operations one at a time, lowest lane first, all 32 lanes working
// on each (Fig. 2, lines 1-11). Processing an operation to its end before the next
// is what Fig. 2's loop does: `next` goes back to the base slab exactly when the
// queue changed, i.e. when the previous operation finished.
//
// Each operation is recorded through the context: inv before its first slab read,
// its lp at the deciding access (slab_list.h; the fixed multimap's at its bucket
// version, bucket_version.h), ret after its last.
#pragma once

#include <cstdint>

#include "structures/exec/lane_search.h"
#include "structures/slab_hash/bucket_version.h"
#include "structures/slab_hash/slab_list.h"

namespace gpulin::slab_hash {

// A lane's operation: words of Regs<uint32_t, kTaskWords>.
// A lane's operation is the lane's own: its op id is op_base + lane.
enum TaskWord : uint32_t {
  kTaskFn = 0,
  kTaskKey = 1,
  kTaskValue = 2,
  kTaskActive = 3,
  kTaskBucket = 4,  // filled by warp_work_queue
  kTaskWords = 5
};

// The operation of every task of a queue when it is known at compile time (a bulk
// build or search: SlabOpBatch without `fn`), or kAnyFn when each task names its
// own in kTaskFn. A fixed operation drops the dispatch and the shuffles it needs.
inline constexpr uint32_t kAnyFn = kFnCount;

// What an operation came to (warp-uniform, handed to the driver's callback).
struct TaskResult {
  enum Status : uint32_t { kDone = 0, kFound = 1, kNoMemory = 2 } status = kDone;
  uint32_t value = 0;         // search: the value found
  const uint32_t* all = nullptr;  // searchall: the values, n of them
  uint32_t n = 0;
};

inline constexpr uint32_t kSearchAllCap = 64;

// A SEARCH's outcome as the queue reports it.
GPULIN_HD inline TaskResult search_result(const SlabSearchResult& s) {
  TaskResult res;
  res.status = s.found ? TaskResult::kFound : TaskResult::kDone;
  res.value = s.value;
  return res;
}

// How an operation is recorded, for every recorder: a map or multimap insert's
// args are [key, value], every other operation's [key]; a completed operation's
// result is null except a search's, which is its value (null when absent) in a map
// or multimap and 1 / 0 in a set. (SEARCHALL's list is recorded by run_slab_op.)
template <Mode M>
GPULIN_HD constexpr uint32_t recorded_args_len(uint32_t fn) {
  return fn == kFnInsert && ModeTraits<M>::kPairs ? 2u : 1u;
}
template <Mode M>
GPULIN_HD constexpr bool recorded_result_null(uint32_t fn, bool found) {
  return fn != kFnSearch || (M != Mode::Set && !found);
}

// The operations as a variant runs them: the paper's are slab_list.h's procedures
// alone; the fixed multimap's run the same procedures inside the bucket's version
// (bucket_version.h): INSERT, DELETE and DELETEALL as writers, SEARCH and SEARCHALL
// as validated readers.
template <class X, class P>
GPULIN_HD bool slab_insert_op(X& x, const SlabHashView<P>& h, SlabRegs<X, P>& r, WarpAllocator<X, P::lanes>& wa, uint32_t bucket,
                              uint32_t key, uint32_t value) {
  return write_bucket(x, h, bucket, [&] { return slab_insert(x, h, r, wa, bucket, key, value); });
}
template <class X, class P>
GPULIN_HD void slab_delete_op(X& x, const SlabHashView<P>& h, SlabRegs<X, P>& r, uint32_t bucket, uint32_t key) {
  write_bucket(x, h, bucket, [&] { slab_delete(x, h, r, bucket, key); });
}
template <class X, class P>
GPULIN_HD void slab_delete_all_op(X& x, const SlabHashView<P>& h, SlabRegs<X, P>& r, uint32_t bucket, uint32_t key) {
  write_bucket(x, h, bucket, [&] { slab_delete_all(x, h, r, bucket, key); });
}
template <class X, class P>
GPULIN_HD SlabSearchResult slab_search_op(X& x, const SlabHashView<P>& h, SlabRegs<X, P>& r, uint32_t bucket, uint32_t key) {
  return read_bucket(x, h, bucket, [&] { return slab_search(x, h, r, bucket, key); });
}
// SEARCHALL into out[0, n), n returned; more pairs than `cap` in the list it
// answers from is a fault (slab_search_all).
template <class X, class P>
GPULIN_HD uint32_t slab_search_all_op(X& x, const SlabHashView<P>& h, SlabRegs<X, P>& r, uint32_t bucket, uint32_t key,
                                      uint32_t* out, uint32_t cap) {
  if constexpr (P::versioned) {
    struct Count {
      uint32_t n, over;
    };
    const Count c = read_bucket(x, h, bucket, [&] {
      Count s{0, 0};
      s.n = slab_search_all(x, h, r, bucket, key, out, cap, &s.over);
      return s;
    });
    if (c.over != 0) x.fail("slab hash: SEARCHALL found more pairs than its result buffer holds");
    return c.n;
  } else {
    return slab_search_all(x, h, r, bucket, key, out, cap);
  }
}

// Runs one operation with its recording; `done(result)` is called warp-uniformly.
template <class X, class P, class Done>
GPULIN_HD void run_slab_op(X& x, const SlabHashView<P>& h, SlabRegs<X, P>& r, WarpAllocator<X, P::lanes>& wa, uint32_t fn,
                           uint32_t bucket, uint32_t key, uint32_t value, Done&& done) {
  const uint32_t args[2] = {key, value};
  x.record_inv(fn, args, recorded_args_len<P::mode>(fn));
  TaskResult res;
  if (fn == kFnInsert) {
    if (!slab_insert_op(x, h, r, wa, bucket, key, value)) {
      res.status = TaskResult::kNoMemory;  // no ret: the op stays pending, it never took effect
      done(res);
      return;
    }
    x.record_ret(args, 0u, true);
  } else if (fn == kFnDelete) {
    slab_delete_op(x, h, r, bucket, key);
    x.record_ret(args, 0u, true);
  } else if (fn == kFnSearch) {
    const SlabSearchResult s = slab_search_op(x, h, r, bucket, key);
    res = search_result(s);
    if constexpr (P::mode == Mode::Set) {
      const uint32_t present = s.found ? 1u : 0u;
      x.record_ret(&present, 1u, false);
    } else {
      const bool null = recorded_result_null<P::mode>(fn, s.found);
      x.record_ret(&s.value, null ? 0u : 1u, null);
    }
  } else if constexpr (P::mode != Mode::Multimap) {
    // SEARCHALL and DELETEALL are the multimap's: compiled only there.
    x.fail("slab hash: SEARCHALL and DELETEALL are multimap operations");
  } else if (fn == kFnSearchAll) {
    uint32_t all[kSearchAllCap];
    res.n = slab_search_all_op(x, h, r, bucket, key, all, kSearchAllCap);
    res.all = all;
    res.status = res.n ? TaskResult::kFound : TaskResult::kDone;
    x.record_ret(all, res.n, false);
    done(res);
    return;
  } else {
    slab_delete_all_op(x, h, r, bucket, key);
    x.record_ret(args, 0u, true);
  }
  done(res);
}

// Each lane's bucket, computed by the lane itself (Fig. 2 hashes per thread).
template <class X, class P>
GPULIN_HD void hash_tasks(X& x, const SlabHashView<P>& h, typename X::template Regs<uint32_t, kTaskWords>& task) {
  x.for_each_lane([&](uint32_t l) {
    if (task.of(l)[kTaskActive]) task.of(l)[kTaskBucket] = h.hash(task.of(l)[kTaskKey]);
  });
  // The queue reads the base slabs one after another: fetching them all into the L2
  // now overlaps their DRAM round trips (what it gains: bench/results/
  // architecture-notes.md §4).
  x.prefetch_lanes([&](uint32_t l) -> const void* {
    return task.of(l)[kTaskActive] ? h.base_slab(task.of(l)[kTaskBucket]) : nullptr;
  });
}

// Word i of lane `lane`'s task, to every lane.
template <class X>
GPULIN_HD uint32_t task_word(X& x, typename X::template Regs<uint32_t, kTaskWords>& task, uint32_t lane, uint32_t i) {
  return x.shuffle([&](uint32_t l) { return task.of(l)[i]; }, lane);
}

// The work queue of one warp: each lane's task (Regs of kTaskWords words, the
// lane's kTaskActive word nonzero when it has one) is processed in lane order.
// `done(lane, result)` reports each one, warp-uniformly. `Fn`: kAnyFn, or the one
// operation every task runs.
template <uint32_t Fn = kAnyFn, exec::SharedWords X, class P, class Done>
  requires exec::WarpLanes<X> && exec::Recording<X>
GPULIN_HD void warp_work_queue(X& x, const SlabHashView<P>& h, WarpAllocator<X, P::lanes>& wa,
                               typename X::template Regs<uint32_t, kTaskWords>& task, int64_t op_base, Done&& done) {
  constexpr bool kValues = Fn == kAnyFn || (Fn == kFnInsert && ModeTraits<P::mode>::kPairs);
  SlabRegs<X, P> r;
  hash_tasks(x, h, task);
  auto word = [&](uint32_t lane, uint32_t i) { return task_word(x, task, lane, i); };
  // The queue, one bit a lane, warp-uniform: taken once, then emptied lowest lane
  // first (one register for the warp, no ballot an operation). The insert loop is
  // bound as much by the instructions the warps issue as by memory, so the ballot,
  // select and compare an operation saves count (bench/results/
  // architecture-notes.md §4).
  for (uint32_t queue = x.ballot([&](uint32_t l) { return task.of(l)[kTaskActive] != 0; }); queue != 0;
       queue &= queue - 1) {
    const uint32_t src = lowest_lane(queue);
    const uint32_t fn = Fn != kAnyFn ? Fn : word(src, kTaskFn);
    const uint32_t key = word(src, kTaskKey), bucket = word(src, kTaskBucket);
    const uint32_t value = kValues ? word(src, kTaskValue) : 0u;
    x.begin_op(op_base + src);
    run_slab_op(x, h, r, wa, fn, bucket, key, value, [&](const TaskResult& res) { done(src, res); });
    x.end_op();
  }
}

// BULK SEARCH (the original's searchKeyBulk, a batch of searches only): the queue
// takes its searches two at a time and issues both first-slab reads before it
// resolves either, so that a warp has two reads in flight instead of one; each
// search then goes on alone down its list. The two operations overlap on one
// actor, which a history's actor may not do, so it runs only where no operation's
// own events are recorded (the GPU's unrecorded searches, and those recorded by warp
// rounds or a published clock, whose brackets take in the whole round; the
// simulator with no recorder).
// Writers may run meanwhile: each search is an ordinary walk of its list whose
// first read came early.
// The fixed multimap's searches are validated scans (bucket_version.h), each
// between two reads of its bucket's version: they go one at a time.
template <exec::SharedWords X, class P, class Done>
  requires exec::WarpLanes<X> && exec::Recording<X>
GPULIN_HD void warp_search_pairs(X& x, const SlabHashView<P>& h, typename X::template Regs<uint32_t, kTaskWords>& task,
                                 Done&& done) {
  SlabRegs<X, P> ra, rb;
  hash_tasks(x, h, task);
  uint32_t queue = x.ballot([&](uint32_t l) { return task.of(l)[kTaskActive] != 0; });  // as warp_work_queue's
  if constexpr (P::versioned) {
    for (; queue != 0; queue &= queue - 1) {
      const uint32_t a = lowest_lane(queue);
      const uint32_t key = task_word(x, task, a, kTaskKey), bucket = task_word(x, task, a, kTaskBucket);
      done(a, search_result(slab_search_op(x, h, ra, bucket, key)));
    }
  } else {
    for (;;) {
      const uint32_t a = lowest_lane(queue);
      if (a == 32) return;
      queue &= queue - 1;
      const uint32_t b = lowest_lane(queue);
      queue &= queue - 1;
      const uint32_t key_a = task_word(x, task, a, kTaskKey);
      uint32_t* slab_a = h.base_slab(task_word(x, task, a, kTaskBucket));
      read_slab<P>(x, slab_a, ra);
      if (b == 32) {
        done(a, search_result(slab_search_read(x, h, ra, key_a, slab_a)));
        return;
      }
      const uint32_t key_b = task_word(x, task, b, kTaskKey);
      uint32_t* slab_b = h.base_slab(task_word(x, task, b, kTaskBucket));
      read_slab<P>(x, slab_b, rb);
      done(a, search_result(slab_search_read(x, h, ra, key_a, slab_a)));
      done(b, search_result(slab_search_read(x, h, rb, key_b, slab_b)));
    }
  }
}

}  // namespace gpulin::slab_hash
