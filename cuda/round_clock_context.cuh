// The CUDA context of a warp that records by warp rounds (histories/key_clock_records.h,
// KeyClockMode::kWarpRounds). Everything but recording is CudaContext<WarpScope>'s.
//
// A round is one operation per lane, the warp's work queue. Lane 0 takes the
// round's 32 inv tickets with one acquire fetch_add of 32 on the one clock before
// any lane's first shared access, and its 32 ret tickets with one release
// fetch_add after every lane's last; lane l's tickets are the block's (l + 1)-th.
// The warp barrier between lane 0's atomic and the other lanes' accesses orders
// them as the lanes' own atomics would (bar.warp.sync is morally strong among the
// warp's threads; a device-scope release is cumulative over what its thread has
// observed; as CudaContext's store relies on). So each operation's [inv, ret]
// brackets the whole round, as with key clocks (key_clock_context.cuh), for two
// atomics a round instead of their 96 (three per operation).
//
// record_lp, record_inv and record_ret are empty: no lp tickets (an lp would need
// an atomic of its own operation), and the round brackets every operation.
//
// What it costs: the one clock is a hot line, and every warp waits on it at the
// start of its round (the acquire's round trip); fewer atomics on it (a pair for a
// block of several warps, or for several rounds) cost the same, while the same
// atomics on spread words cost little: the price is the hot line. So warp rounds cost more than a published
// clock (published_clock_context.cuh), which takes the atomics off the hot line,
// and the slab hash's default recorder is that one. The rates of every recorder:
// bench/results/slab-record-h100.txt; the variants tried on warp rounds:
// bench/results/architecture-notes.md, 3.2.
#pragma once

#include "cuda/round_bracket_context.cuh"

namespace gpulin::cuda_exec {

class RoundClockContext : public RoundBracketContext {
 public:
  __device__ explicit RoundClockContext(KeyClockRecorderRef rec) : RoundBracketContext(rec) {}

  // Every lane calls it. The arguments are the key-clock context's; unused here.
  // Each lane keeps its own inv ticket in a register through the round (the block's
  // first ticket plus its lane), so each lane writes its record straight from its
  // registers with the plain store (write_record) instead of staging the round's
  // tickets in shared memory, which made the recorded run slower
  // (bench/results/architecture-notes.md, 3.2).
  __device__ void begin_round(int64_t, bool, uint32_t) {
    const uint32_t block =
        lane0([&] { return device_ref<uint32_t>(rec_.clocks[0]).fetch_add(32u, cuda::memory_order_acquire); });
    inv_t_ = block + (threadIdx.x & 31) + 1;  // tickets count from 1
    __syncwarp();  // lane 0's acquire before any lane's first shared access
  }

  // Every lane calls it, after the round's last operation. `op`: this lane's op id;
  // `pending`: its operation never returned (its record keeps ret_t 0).
  __device__ void end_round(int64_t op, bool active, bool pending, uint32_t fn, uint32_t key, uint32_t value, uint32_t args_len,
                            bool has_res, bool res_null, uint32_t res) {
    __syncwarp();  // every lane's last shared access before lane 0's release
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t ret_block =
        lane0([&] { return device_ref<uint32_t>(rec_.clocks[0]).fetch_add(32u, cuda::memory_order_release); });
    if (!active) return;
    const uint32_t ret_t = pending ? 0u : ret_block + lane + 1;
    write_record(op, ret_t, fn, key, value, args_len, has_res, res_null, res);
  }
};

}  // namespace gpulin::cuda_exec


// The contract (structures/exec/context.h), checked where the context is defined
// (meets_the_contract, cuda/cuda_context.cuh): a warp actor's parts.
namespace gpulin::cuda_exec {
static_assert(meets_the_contract<RoundClockContext, WarpScope>());
}  // namespace gpulin::cuda_exec
