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
// What it costs (H100, Γ1 on 2^22 keys, gpulin_bench_slab's record section): 31 %
// at e8cc10e and 35 % at aec0b88 (the same kernels; the unrecorded rate measured
// 9.75 and 10.22), against 50-53 % by key clocks (26-28 % and 52-53 % before the unrecorded
// mixed kernel ran its searches in pairs and got faster). Taken apart with throwaway variants
// (bench/results/slab-record-h100.txt): the brackets and records with no atomic,
// 12 %; the same two atomics on 1024 spread words (which would order nothing),
// 14 %; on the one clock, relaxed, 23 %: the one clock is a hot line, and every
// warp waits on it at its start (the acquire's round trip). Fewer atomics on it
// (a pair a block of four warps, or a pair every two or four rounds) cost the same.
// At f4fb0af 38 % (7.12 against 11.39 G ops/s). Taking the waits off the clock (a
// relaxed block of tickets a round ahead, a fence at each round's end, the rets
// patched a round later) measured slower still: 56-58 %. Chained rounds (one acq_rel
// atomic of 64 tickets a round: its rets and the next round's invs) measured the
// same as two: 37-38 % (bench/results/slab-record-h100.txt). Key rounds
// (key_round_context.cuh) take the same brackets from 2^20 key clocks: 32-33 %.
// With each lane's inv in a register and plain record stores, 34-35 % at 113ca77.
#pragma once

#include "cuda/round_bracket_context.cuh"

namespace gpulin::cuda_exec {

class RoundClockContext : public RoundBracketContext {
 public:
  __device__ explicit RoundClockContext(KeyClockRecorderRef rec) : RoundBracketContext(rec) {}

  // Every lane calls it. The arguments are the key-clock context's; unused here.
  // Each lane keeps its own inv ticket in a register through the round: with the
  // plain record store (write_record), 7.57-7.58 G ops/s against 7.08-7.12 with the block in
  // shared memory and streaming stores (H100, 2026-11-27, slab-record-h100.txt).
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

