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
// Nothing waits for a ticket inside the round: the inv ticket is first needed by
// the record, written after the round; the ret ticket by the same store.
// record_lp, record_inv and record_ret are empty: no lp tickets (an lp would need
// an atomic of its own operation), and the round brackets every operation.
#pragma once

#include <cstddef>

#include "cuda/cuda_context.cuh"
#include "histories/key_clock_records.h"

namespace gpulin::cuda_exec {

static_assert(offsetof(KeyClockRecord, fn) == 12 && offsetof(KeyClockRecord, args) == 16 &&
                  offsetof(KeyClockRecord, shape) == 28 && alignof(KeyClockRecord) <= 16,
              "end_round writes a record as two int4 in this layout");

class RoundClockContext : public CudaContext<WarpScope, false> {
 public:
  __device__ explicit RoundClockContext(KeyClockRecorderRef rec) : CudaContext<WarpScope, false>(WarpScope{}), rec_(rec) {}

  // Every lane calls it. The arguments are the key-clock context's; unused here.
  // The inv block waits in the warp's shared-memory slot, not in a register: the
  // acquire holds the warp's next access until it returns anyway, and a register
  // live across the work queue would be one more spilled at 32 registers.
  __device__ void begin_round(int64_t, bool, uint32_t) {
    if ((threadIdx.x & 31) == 0)
      inv_blocks()[threadIdx.x / 32] = device_ref<uint32_t>(rec_.clocks[0]).fetch_add(32u, cuda::memory_order_acquire);
    __syncwarp();  // lane 0's acquire before any lane's first shared access
  }

  __device__ void begin_op(int64_t) {}
  __device__ void end_op() {}
  template <class Key>
  __device__ void record_inv(uint32_t, const Key*, uint32_t) {}
  template <class Key>
  __device__ void record_ret(const Key*, uint32_t, bool) {}
  __device__ void record_lp() {}

  // Every lane calls it, after the round's last operation. `op`: this lane's op id;
  // `pending`: its operation never returned (its record keeps ret_t 0).
  __device__ void end_round(int64_t op, bool active, bool pending, uint32_t fn, uint32_t key, uint32_t value, uint32_t args_len,
                            bool has_res, bool res_null, uint32_t res) {
    __syncwarp();  // every lane's last shared access before lane 0's release
    const uint32_t lane = threadIdx.x & 31;
    uint32_t ret_block = 0;
    if (lane == 0) ret_block = device_ref<uint32_t>(rec_.clocks[0]).fetch_add(32u, cuda::memory_order_release);
    const uint32_t inv_t = inv_blocks()[threadIdx.x / 32] + lane + 1;  // tickets count from 1 (lane 0 wrote it before __syncwarp)
    ret_block = __shfl_sync(~0u, ret_block, 0);
    if (!active) return;
    const uint32_t ret_t = pending ? 0u : ret_block + lane + 1;
    // Written once and read only by the host after the run: streaming stores
    // (evict first), so that the records do not push the table out of L2.
    int4* const out = reinterpret_cast<int4*>(rec_.records + static_cast<uint64_t>(op));
    __stcs(out, make_int4(int(inv_t), 0, int(ret_t), int(fn)));
    __stcs(out + 1, make_int4(int(key), int(value), int(res),
                              int(key_clock_shape(args_len, has_res, res_null, rec_.launch))));
  }

 private:
  // Warp w of the block: the clock before its round's inv tickets.
  __device__ static uint32_t* inv_blocks() {
    __shared__ uint32_t blocks[32];
    return blocks;
  }
  KeyClockRecorderRef rec_;
};

}  // namespace gpulin::cuda_exec

namespace gpulin::cuda_exec {

// The same with the thread block as the round: thread 0 takes the block's inv
// tickets (one per thread) before any warp's first shared access and its ret
// tickets after every warp's last, with a block barrier on each side; each thread
// keeps its record in registers until then. A block's resources are freed only
// when its last warp ends, so the barrier at the end keeps no slot from the next
// block; it only widens the early warps' intervals (later rets, never earlier).
// Two atomics a block instead of two a warp: with 128 threads a block, a quarter.
// For launches that give every thread at most one operation (recorded slab
// launches cover the batch exactly): end_round keeps ONE record a thread.
class BlockRoundContext : public CudaContext<WarpScope, false> {
 public:
  __device__ explicit BlockRoundContext(KeyClockRecorderRef rec) : CudaContext<WarpScope, false>(WarpScope{}), rec_(rec) {}

  // Every thread of the block, before its round (or in place of it).
  __device__ void begin_block() {
    __shared__ uint32_t inv_block;
    if (threadIdx.x == 0) inv_block = device_ref<uint32_t>(rec_.clocks[0]).fetch_add(blockDim.x, cuda::memory_order_acquire);
    __syncthreads();  // thread 0's acquire before any thread's first shared access
    inv_block_ = inv_block;
  }
  __device__ void begin_round(int64_t, bool, uint32_t) {}
  __device__ void begin_op(int64_t) {}
  __device__ void end_op() {}
  template <class Key>
  __device__ void record_inv(uint32_t, const Key*, uint32_t) {}
  template <class Key>
  __device__ void record_ret(const Key*, uint32_t, bool) {}
  __device__ void record_lp() {}

  // The thread's record (op id `op`), kept until end_block.
  __device__ void end_round(int64_t op, bool active, bool pending, uint32_t fn, uint32_t key, uint32_t value, uint32_t args_len,
                            bool has_res, bool res_null, uint32_t res) {
    if (!active) return;
    has_record_ = true;
    op_ = op;
    pending_ = pending;
    fn_ = fn, key_ = key, value_ = value, res_ = res;
    shape_ = key_clock_shape(args_len, has_res, res_null, rec_.launch);
  }

  // Every thread of the block, after its round (or in place of it).
  __device__ void end_block() {
    __shared__ uint32_t ret_block;
    __syncthreads();  // every thread's last shared access before thread 0's release
    if (threadIdx.x == 0) ret_block = device_ref<uint32_t>(rec_.clocks[0]).fetch_add(blockDim.x, cuda::memory_order_release);
    __syncthreads();
    if (!has_record_) return;
    const uint32_t inv_t = inv_block_ + threadIdx.x + 1, ret_t = pending_ ? 0u : ret_block + threadIdx.x + 1;
    int4* const out = reinterpret_cast<int4*>(rec_.records + static_cast<uint64_t>(op_));
    __stcs(out, make_int4(int(inv_t), 0, int(ret_t), int(fn_)));
    __stcs(out + 1, make_int4(int(key_), int(value_), int(res_), int(shape_)));
  }

 private:
  KeyClockRecorderRef rec_;
  int64_t op_ = 0;
  uint32_t inv_block_ = 0;
  bool has_record_ = false, pending_ = false;
  uint32_t fn_ = 0, key_ = 0, value_ = 0, res_ = 0, shape_ = 0;
};

}  // namespace gpulin::cuda_exec
