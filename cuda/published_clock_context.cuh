// The CUDA context of a warp that records by a published clock (histories/
// key_clock_records.h, KeyClockMode::kPublished). Everything but recording is
// CudaContext<WarpScope>'s; the ticker that publishes the rets is
// published_clock_ticker.cuh.
//
// A round is one operation per lane, the warp's work queue, as with warp rounds
// (round_clock_context.cuh), and a warp runs several rounds of a launch (the
// launch is a grid-stride loop over one resident wave, slab_hash_kernels.cu).
// After every lane's last shared access of a round, lane 0 loads G (relaxed),
// issues one device-scope acq_rel fence, and adds 1 to its multiprocessor's clock
// (relaxed): the fence makes the add a release of this round (PTX's release
// pattern, a fence then a strong write) and the load an acquire for the next one
// (an acquire pattern, a strong read then a fence). The value the add leaves is
// every lane's ret in this round; the value loaded is every lane's inv in the
// next, loaded before any of its shared accesses as an inv must be. So a round
// costs one fence and one atomic's round trip, where a separate acquire load
// before the round would cost a second round trip every round. The warp's first
// round has no round before it: its inv is an acquire load of G.
// The warp barriers order the other lanes' accesses around lane 0's fence
// (bar.warp.sync is morally strong among the warp's threads; a device-scope fence
// is cumulative over what its thread has observed).
//
// Only the ticker writes G, so a load of G waits on a line no atomic queues on;
// the ret's atomic goes to a line that only the warps of one multiprocessor share.
// The record is 16 bytes, written after the ret.
#pragma once

#include "cuda/round_bracket_context.cuh"

namespace gpulin::cuda_exec {

class PublishedClockContext : public RoundBracketContext {
 public:
  __device__ explicit PublishedClockContext(KeyClockRecorderRef rec) : RoundBracketContext(rec) {}

  // Every lane calls it. The arguments are the key-clock context's; unused here.
  __device__ void begin_round(int64_t, bool, uint32_t) {
    if (have_next_inv_) {
      inv_t_ = next_inv_;  // loaded by the previous round's end, before its fence
      return;
    }
    inv_t_ = lane0([&] { return device_ref<uint32_t>(rec_.clocks[0]).load(cuda::memory_order_acquire); });
    __syncwarp();  // lane 0's acquire before any lane's first shared access
  }

  // Every lane calls it, after the round's last operation. `op`: this lane's op id;
  // `pending`: its operation never returned (its record keeps ret 0).
  __device__ void end_round(int64_t op, bool active, bool pending, uint32_t fn, uint32_t, uint32_t, uint32_t args_len,
                            bool has_res, bool res_null, uint32_t res) {
    __syncwarp();  // every lane's last shared access before lane 0's fence
    uint32_t sm;
    asm("mov.u32 %0, %%smid;" : "=r"(sm));
    sm %= kPublishedMaxSms;  // a label as much as an index: two multiprocessors may share a clock
    uint32_t ret = 0, next = 0;
    if ((threadIdx.x & 31) == 0) {
      next = device_ref<uint32_t>(rec_.clocks[0]).load(cuda::memory_order_relaxed);
      cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device);
      ret = device_ref<uint32_t>(rec_.clocks[published_sm_clock(sm)]).fetch_add(1u, cuda::memory_order_relaxed) + 1;
    }
    ret = __shfl_sync(~0u, ret, 0);
    next_inv_ = __shfl_sync(~0u, next, 0);
    have_next_inv_ = true;
    __syncwarp();  // lane 0's fence (the next round's acquire) before any lane's next shared access
    if (!active) return;
    rec_.published[static_cast<uint64_t>(op)] =
        PublishedRecord{inv_t_, pending ? 0u : ret, res, published_shape(args_len, has_res, res_null, fn, sm, rec_.launch)};
  }

 private:
  uint32_t next_inv_ = 0;
  bool have_next_inv_ = false;
};

}  // namespace gpulin::cuda_exec

// The contract (structures/exec/context.h), checked where the context is defined
// (meets_the_contract, cuda/cuda_context.cuh): a warp actor's parts.
namespace gpulin::cuda_exec {
static_assert(meets_the_contract<PublishedClockContext, WarpScope>());
}  // namespace gpulin::cuda_exec
