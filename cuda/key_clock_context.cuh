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
    has_lp_ = false;
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
  // The ticket goes to one of four registers, chosen by the operation's lane: a
  // warp's register waits for its pending load before it is written again, so with
  // one register every lp would wait for the previous one's round trip; with four,
  // for the one four operations back, long since returned. The four atomics differ
  // in their text (the slot's comment) so that no compiler merges them into one
  // atomic and a move, which would wait again. Relaxed, device scope; the +1 (a
  // ticket counts from 1) is added at end_round.
  __device__ void record_lp() {
    const uint32_t lane = threadIdx.x & 31;
    if (lane != owner_) return;
    uint32_t* const c = rec_.clocks + clock_;
    switch (lane & 3) {
      case 0: asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], 1; // lp slot 0" : "=r"(lp_t_[0]) : "l"(c) : "memory"); break;
      case 1: asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], 1; // lp slot 1" : "=r"(lp_t_[1]) : "l"(c) : "memory"); break;
      case 2: asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], 1; // lp slot 2" : "=r"(lp_t_[2]) : "l"(c) : "memory"); break;
      default: asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], 1; // lp slot 3" : "=r"(lp_t_[3]) : "l"(c) : "memory"); break;
    }
    has_lp_ = true;
  }

  // Every lane calls it, after the round's last operation. `op`: this lane's op id
  // (op_base + lane); `pending`: its operation never returned (its record keeps
  // ret_t 0).
  __device__ void end_round(int64_t op, bool active, bool pending, uint32_t fn, uint32_t key, uint32_t value, uint32_t args_len,
                            bool has_res, bool res_null, uint32_t res) {
    __syncwarp();  // every lane's last shared access before any lane's release
    if (!active) return;
    uint32_t ret_t = 0;
    if (!pending) ret_t = device_ref<uint32_t>(rec_.clocks[clock_]).fetch_add(1u, cuda::memory_order_release) + 1;
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t old = lane % 4 == 0 ? lp_t_[0] : lane % 4 == 1 ? lp_t_[1] : lane % 4 == 2 ? lp_t_[2] : lp_t_[3];
    const uint32_t lp_t = has_lp_ ? old + 1 : 0u;
    KeyClockRecord r{inv_t_, lp_t, ret_t, fn, {key, value}, res, key_clock_shape(args_len, has_res, res_null, rec_.launch)};
    rec_.records[static_cast<uint64_t>(op)] = r;
  }

 private:
  KeyClockRecorderRef rec_;
  int64_t op_base_ = 0;
  uint32_t owner_ = 0;
  uint32_t clock_ = 0;
  uint32_t inv_t_ = 0;
  uint32_t lp_t_[4] = {0, 0, 0, 0};  // lane l's clock value before its lp, in lp_t_[l % 4]
  bool has_lp_ = false;              // this lane's operation took its point
};

}  // namespace gpulin::cuda_exec

// The contract (structures/exec/context.h), checked where the context is defined
// (meets_the_contract, cuda/cuda_context.cuh): a warp actor's parts.
namespace gpulin::cuda_exec {
static_assert(meets_the_contract<KeyClockContext, WarpScope>());
}  // namespace gpulin::cuda_exec
