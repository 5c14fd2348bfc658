// The CUDA context of a warp that records by key rounds (histories/key_clock_records.h,
// KeyClockMode::kKeyRounds). Everything but recording is CudaContext<WarpScope>'s.
//
// A round is one operation per lane, the warp's work queue, as with warp rounds
// (round_clock_context.cuh): each operation's inv ticket is taken before the round's
// first shared access (acquire) and its ret ticket after the round's last (release).
// The tickets come from the operation's key's clock (key_clock_of), as with key
// clocks (key_clock_context.cuh), so an operation whose ret precedes another's inv on
// the same clock happened before it; no lp ticket.
//
// What it costs against warp rounds: two atomics an operation instead of two a round,
// but on 2^20 clocks instead of one hot line that every warp waits on. H100, Γ1 on
// 2^22 keys (bench/results/slab-record-h100.txt, 12ad7de): 32-33 % of the unrecorded
// rate against 38 %. Fewer clocks cost more (2^14: 35 %; 2^8, 32 to a line: 70 %),
// and so did blocks sorted by clock so that a round takes one atomic a clock.
//
// Every lane reads and writes the slabs of every operation of the round (the warp
// works on each in turn), so the warp barrier after the acquires orders each one
// before every lane's first shared access, and the one before the releases orders
// every lane's last access before each (bar.warp.sync is morally strong among the
// warp's threads; a device-scope release is cumulative over what its thread has
// observed), as for key clocks.
#pragma once

#include "cuda/round_bracket_context.cuh"

namespace gpulin::cuda_exec {

class KeyRoundContext : public RoundBracketContext {
 public:
  __device__ explicit KeyRoundContext(KeyClockRecorderRef rec) : RoundBracketContext(rec) {}

  // Every lane calls it; `active`: this lane brings an operation on `key`.
  __device__ void begin_round(int64_t, bool active, uint32_t key) {
    inv_t_ = take<cuda::memory_order_acquire>(active, key);
    __syncwarp();  // the acquires before any lane's first shared access
  }

  // Every lane calls it, after the round's last operation. `op`: this lane's op id;
  // `pending`: its operation never returned (its record keeps ret_t 0).
  __device__ void end_round(int64_t op, bool active, bool pending, uint32_t fn, uint32_t key, uint32_t value, uint32_t args_len,
                            bool has_res, bool res_null, uint32_t res) {
    __syncwarp();  // every lane's last shared access before the releases
    const uint32_t ret_t = take<cuda::memory_order_release>(active && !pending, key);
    if (!active) return;
    write_record(op, ret_t, fn, key, value, args_len, has_res, res_null, res);
  }

 private:
  // Every lane calls it. Each lane that `wants` one gets a ticket of its key's
  // clock (counting from 1); the others get 0.
  template <cuda::memory_order Order>
  __device__ uint32_t take(bool wants, uint32_t key) {
    if (!wants) return 0;
    auto clock = device_ref<uint32_t>(rec_.clocks[key_clock_of(key, rec_.clock_bits)]);
    return clock.fetch_add(1u, Order) + 1;
  }
};

}  // namespace gpulin::cuda_exec
