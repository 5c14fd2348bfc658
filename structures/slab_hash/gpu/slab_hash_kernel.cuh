// The slab hash's kernel templates (structures/slab_hash/ on the CUDA context in
// warp scope). structures/slab_hash/gpu/slab_hash_kernels.cu instantiates the production policies; a
// GPU test may instantiate a mutant policy on purpose (a planted bug the checks must
// reject), never the library.
#pragma once

#include "cuda/cuda_context.cuh"
#include "cuda/key_clock_context.cuh"
#include "cuda/published_clock_context.cuh"
#include "cuda/published_clock_ticker.cuh"
#include "cuda/round_clock_context.cuh"
#include "structures/slab_hash/gpu/slab_hash_launch.h"
#include "structures/slab_hash/flush.h"
#include "structures/slab_hash/work_queue.h"

namespace gpulin::slab_hash {

using SlabFlushContext = cuda_exec::CudaContext<cuda_exec::WarpScope, false>;

// How a batch kernel records: not at all, every event from the one global ticket
// counter (histories/device_events.h), by key clocks, by warp rounds or by a
// published clock (histories/key_clock_records.h).
enum class SlabRecording { kNone, kEvents, kKeyClocks, kWarpRounds, kPublished };

// The blocks of a launch whose operations take `blocks`: a published clock's
// launch has one more, block 0, its ticker (cuda/published_clock_ticker.cuh).
template <SlabRecording R>
constexpr uint64_t slab_batch_grid(uint64_t blocks) {
  return R == SlabRecording::kPublished ? blocks + 1 : blocks;
}

// The context of an operation group of `Lanes` lanes (slab_lanes.h): a warp for
// every recorder, a tile of 16 or 8 lanes for unrecorded batches only.
template <SlabRecording R, uint32_t Lanes = 32>
using SlabBatchContext = std::conditional_t<
    R == SlabRecording::kKeyClocks, cuda_exec::KeyClockContext,
    std::conditional_t<R == SlabRecording::kWarpRounds, cuda_exec::RoundClockContext,
                       std::conditional_t<R == SlabRecording::kPublished, cuda_exec::PublishedClockContext,
                                          cuda_exec::CudaContext<cuda_exec::LaneGroupScope<Lanes>, R == SlabRecording::kEvents>>>>;

// One operation per thread; a group of P::lanes lanes (a warp, or a tile: unrecorded
// only) runs its lanes' operations one after the other. `Fn`: the batch's one
// operation, fixed at compile time (a bulk build or search), or kAnyFn (each thread's from ops.fn or ops.uniform_fn).
// A search's answer goes to the asking lane's register and is stored after the
// warp's queue drains, one coalesced store per round.
// Without recording, 32 registers at most (two blocks of 1024 a multiprocessor,
// every warp slot filled): a warp waits on one slab read at a time, so the more
// warps resident, the more reads in flight. The mixed kernel spills a few words
// under that bound and is still faster with it: the reads in flight are worth more
// than the spilled words cost (bench/results/architecture-notes.md, 4).
// `Pairs`: a batch of searches (Fn == kFnSearch, unrecorded) with two reads in
// flight per warp (warp_search_pairs).
template <class P, SlabRecording R, uint32_t Fn = kAnyFn, bool Pairs = false>
__global__ void __launch_bounds__(1024, R == SlabRecording::kEvents ? 1 : 2)
    slab_batch_kernel(SlabHashView<P> h, SlabOpBatch ops, DeviceRecorderRef rec, KeyClockRecorderRef clocks,
                      int64_t op_id_base) {
  constexpr bool kClocks = R == SlabRecording::kKeyClocks || R == SlabRecording::kWarpRounds ||
                           R == SlabRecording::kPublished;  // records a round
  // A published clock's block 0 is its ticker (slab_batch_grid); the others work.
  constexpr uint32_t kTickers = R == SlabRecording::kPublished ? 1 : 0;
  constexpr uint32_t G = P::lanes;
  static_assert(G == 32 || R == SlabRecording::kNone, "tiles run unrecorded batches");
  if constexpr (kTickers != 0) {
    if (blockIdx.x == 0) return cuda_exec::run_published_ticker(clocks, (ops.count + 31) / 32);
  }
  using X = SlabBatchContext<R, G>;
  X x = [&] {
    if constexpr (kClocks) return X(clocks);
    else return X(cuda_exec::LaneGroupScope<G>{}, rec);
  }();
  const uint64_t groups = (uint64_t{gridDim.x - kTickers} * blockDim.x) / G;
  const uint64_t first_group = (uint64_t{blockIdx.x - kTickers} * blockDim.x + threadIdx.x) / G;
  const uint32_t lane = threadIdx.x & (G - 1);
  WarpAllocator<X, G> wa;
  wa.group = static_cast<uint32_t>(first_group);
  // An unrecorded mixed batch runs one round (below): its grid must cover it.
  constexpr bool kOneRound = R == SlabRecording::kNone && Fn == kAnyFn;
  if constexpr (kOneRound)
    if (groups * G < ops.count) x.fail("slab hash: a mixed batch launched on a grid that does not cover it");
  // Grid-stride over groups: each round, a group's lanes bring one operation each.
  for (uint64_t base = first_group * G; base < ops.count; base += groups * G) {
    const uint64_t i = base + lane;
    typename X::template Regs<uint32_t, kTaskWords> task;
    task.v[kTaskActive] = i < ops.count;
    if (i < ops.count) {
      task.v[kTaskFn] = Fn != kAnyFn ? Fn : ops.fn ? ops.fn[i] : ops.uniform_fn;
      task.v[kTaskKey] = ops.key[i];
      task.v[kTaskValue] = ops.value ? ops.value[i] : 0u;
    }
    const uint32_t fn = task.v[kTaskFn], key = task.v[kTaskKey], value = task.v[kTaskValue];
    const bool active = i < ops.count;
    const int64_t op_base = op_id_base + static_cast<int64_t>(base);
    if constexpr (kClocks) x.begin_round(op_base, active, key);
    uint32_t answer = 0;
    bool found = false, pending = false;
    auto done = [&](uint32_t src, const TaskResult& r) {
      if (lane != src) return;
      found = r.status == TaskResult::kFound;
      pending = r.status == TaskResult::kNoMemory;
      if (task.v[kTaskFn] == kFnSearch)
        answer = P::mode == Mode::Set ? (found ? 1u : 0u) : (found ? r.value : kEmptyKey);
      else
        answer = r.n;
    };
    if constexpr (Pairs) {
      static_assert(Fn == kFnSearch && R == SlabRecording::kNone, "searches in pairs: a batch of searches, unrecorded");
      warp_search_pairs(x, h, task, done);
    } else if constexpr (Fn == kAnyFn) {
      // A mixed batch as the original's batched kernel runs it: the warp's inserts
      // first, then its deletes, then its searches (multimap: then SEARCHALL and
      // DELETEALL), each a work queue with its operation fixed, so that no
      // operation pays for the dispatch or for the registers of the others. The
      // operations of a round are concurrent, so this order is the work queue's
      // own on the same round with the operations dealt to the lanes in it.
      // An operation no phase runs would be left undone: refused instead.
      constexpr bool kMulti = P::mode == Mode::Multimap;
      const bool known = fn == kFnInsert || fn == kFnDelete || fn == kFnSearch ||
                         (kMulti && (fn == kFnSearchAll || fn == kFnDeleteAll));
      if (x.ballot([&](uint32_t) { return active && !known; }) != 0)
        x.fail("slab hash: an operation this mode does not have (SEARCHALL and DELETEALL are the multimap's)");
      // The searches go two at a time (warp_search_pairs), as a bulk search does,
      // where no operation's own events are recorded: unrecorded, or by warp
      // rounds or a published clock, whose brackets take in the whole round.
      constexpr bool kPairs =
          R == SlabRecording::kNone || R == SlabRecording::kWarpRounds || R == SlabRecording::kPublished;
      const auto phase = [&](auto f) {
        constexpr uint32_t F = decltype(f)::value;
        task.v[kTaskActive] = active && fn == F;
        if constexpr (F == kFnSearch && kPairs) warp_search_pairs(x, h, task, done);
        else warp_work_queue<F>(x, h, wa, task, op_base, done);
      };
      phase(std::integral_constant<uint32_t, kFnInsert>{});
      phase(std::integral_constant<uint32_t, kFnDelete>{});
      phase(std::integral_constant<uint32_t, kFnSearch>{});
      if constexpr (kMulti) {
        phase(std::integral_constant<uint32_t, kFnSearchAll>{});
        phase(std::integral_constant<uint32_t, kFnDeleteAll>{});
      }
    } else {
      warp_work_queue<Fn>(x, h, wa, task, op_base, done);
    }
    const bool answers = fn == kFnSearch || fn == kFnSearchAll;
    if constexpr (kClocks) {
      // The call and result in the shapes run_slab_op records them (work_queue.h).
      const bool res_null = recorded_result_null<P::mode>(fn, found);
      x.end_round(op_id_base + static_cast<int64_t>(i), active, pending, fn, key, value, recorded_args_len<P::mode>(fn), !res_null, res_null, answer);
    }
    if constexpr (kOneRound) {
      // The thread's operation again (an exact grid: the thread's index), not kept
      // in registers through the phases.
      const uint64_t mine = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
      if (ops.out && mine < ops.count && answers) ops.out[mine] = answer;
    } else if (ops.out && i < ops.count && answers) {
      ops.out[i] = answer;
    }
    // An unrecorded mixed batch is launched on an exact grid (slab_hash_kernels.cu):
    // one round, so nothing of the loop lives through its phases in registers the
    // 32-register kernel has none to spare of (bench/results/slab-original-h200.txt).
    if constexpr (kOneRound) break;
  }
}

template <class P>
__global__ void slab_flush_kernel(SlabHashView<P> h) {
  SlabFlushContext x{cuda_exec::WarpScope{}};
  const uint32_t warps = gridDim.x * blockDim.x / 32;
  for (uint32_t b = (blockIdx.x * blockDim.x + threadIdx.x) / 32; b < h.buckets(); b += warps) slab_flush(x, h, b);
}

}  // namespace gpulin::slab_hash
