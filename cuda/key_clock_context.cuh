// The CUDA context of a warp that records by key clocks (histories/key_clock_records.h).
// Everything but recording is CudaContext<WarpScope>'s. A round is one operation per
// lane, the warp's work queue: begin_round takes each lane's inv ticket from its
// key's clock, the structure's record_lp takes the running operation's point on the
// lane that owns it (no broadcast, nothing waits for the ticket), and end_round
// takes the ret tickets and writes each lane's record, one coalesced store.
// The structure's record_inv and record_ret are empty here: the round brackets
// every operation of the warp (a wider interval than the operation's own steps,
// never a narrower one).
#pragma once

#include "cuda/cuda_context.cuh"
#include "histories/key_clock_records.h"

namespace gpulin::cuda_exec {

class KeyClockContext : public CudaContext<WarpScope, false> {
 public:
  __device__ explicit KeyClockContext(KeyClockRecorderRef rec) : CudaContext<WarpScope, false>(WarpScope{}), rec_(rec) {}

  // Every lane calls it. `op_base`: the op id of lane 0's operation (lane l owns
  // op_base + l); `active`: this lane brings an operation on `key`.
  __device__ void begin_round(int64_t op_base, bool active, uint32_t key) {
    op_base_ = op_base;
    lp_t_ = 0;
    clock_ = key_clock_of(key, rec_.clock_bits);
    if (active) inv_t_ = device_ref<uint32_t>(rec_.clocks[clock_]).fetch_add(1u, cuda::memory_order_acquire) + 1;
    __syncwarp();  // every lane's acquire before any lane's first shared access
  }

  __device__ void begin_op(int64_t op) { owner_ = static_cast<uint32_t>(op - op_base_); }
  __device__ void end_op() {}
  template <class Key>
  __device__ void record_inv(uint32_t, const Key*, uint32_t) {}
  template <class Key>
  __device__ void record_ret(const Key*, uint32_t, bool) {}
  __device__ void record_lp() {
    if ((threadIdx.x & 31) == owner_)
      lp_t_ = device_ref<uint32_t>(rec_.clocks[clock_]).fetch_add(1u, cuda::memory_order_relaxed) + 1;
  }

  // Every lane calls it, after the round's last operation. `pending`: this lane's
  // operation never returned (its record keeps ret_t 0).
  __device__ void end_round(bool active, bool pending, uint32_t fn, uint32_t key, uint32_t value, uint32_t args_len,
                            bool has_res, bool res_null, uint32_t res) {
    __syncwarp();  // every lane's last shared access before any lane's release
    if (!active) return;
    uint32_t ret_t = 0;
    if (!pending) ret_t = device_ref<uint32_t>(rec_.clocks[clock_]).fetch_add(1u, cuda::memory_order_release) + 1;
    KeyClockRecord r{inv_t_, lp_t_, ret_t, fn, {key, value}, res, key_clock_shape(args_len, has_res, res_null, rec_.launch)};
    rec_.records[static_cast<uint64_t>(op_base_) + (threadIdx.x & 31)] = r;
  }

 private:
  KeyClockRecorderRef rec_;
  int64_t op_base_ = 0;
  uint32_t owner_ = 0;
  uint32_t clock_ = 0;
  uint32_t inv_t_ = 0;
  uint32_t lp_t_ = 0;
};

}  // namespace gpulin::cuda_exec
