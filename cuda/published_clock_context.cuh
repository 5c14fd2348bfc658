// The CUDA context of a warp that records by a published clock (histories/
// key_clock_records.h, KeyClockMode::kPublished). Everything but recording is
// CudaContext<WarpScope>'s; the ticker that publishes the rets is
// published_clock_ticker.cuh.
//
// A round is one operation per lane, the warp's work queue, as with warp rounds
// (round_clock_context.cuh). Lane 0 loads G with acquire before any lane's first
// shared access: that value is every lane's inv. After every lane's last shared
// access, lane 0 adds 1 to its multiprocessor's clock with release: the value it
// leaves is every lane's ret. The warp barriers order the other lanes' accesses as
// for warp rounds (bar.warp.sync is morally strong among the warp's threads; a
// device-scope release is cumulative over what its thread has observed).
//
// Only the ticker writes G, so the inv waits on a read of a line no atomic queues
// on; the ret's atomic goes to a line that only the warps of one multiprocessor
// share. The record is 16 bytes, written after the ret.
#pragma once

#include "cuda/round_bracket_context.cuh"

namespace gpulin::cuda_exec {

class PublishedClockContext : public RoundBracketContext {
 public:
  __device__ explicit PublishedClockContext(KeyClockRecorderRef rec) : RoundBracketContext(rec) {}

  // Every lane calls it. The arguments are the key-clock context's; unused here.
  __device__ void begin_round(int64_t, bool, uint32_t) {
    inv_t_ = lane0([&] { return device_ref<uint32_t>(rec_.clocks[0]).load(cuda::memory_order_acquire); });
    __syncwarp();  // lane 0's acquire before any lane's first shared access
  }

  // Every lane calls it, after the round's last operation. `op`: this lane's op id;
  // `pending`: its operation never returned (its record keeps ret 0).
  __device__ void end_round(int64_t op, bool active, bool pending, uint32_t fn, uint32_t, uint32_t, uint32_t args_len,
                            bool has_res, bool res_null, uint32_t res) {
    __syncwarp();  // every lane's last shared access before lane 0's release
    uint32_t sm;
    asm("mov.u32 %0, %%smid;" : "=r"(sm));
    sm %= kPublishedMaxSms;  // a label as much as an index: two multiprocessors may share a clock
    const uint32_t ret = lane0([&] {
      return device_ref<uint32_t>(rec_.clocks[published_sm_clock(sm)]).fetch_add(1u, cuda::memory_order_release) + 1;
    });
    if (!active) return;
    rec_.published[static_cast<uint64_t>(op)] =
        PublishedRecord{inv_t_, pending ? 0u : ret, res, published_shape(args_len, has_res, res_null, fn, sm, rec_.launch)};
  }
};

}  // namespace gpulin::cuda_exec

// The contract (structures/exec/context.h), checked where the context is defined
// (meets_the_contract, cuda/cuda_context.cuh): a warp actor's parts.
namespace gpulin::cuda_exec {
static_assert(meets_the_contract<PublishedClockContext, WarpScope>());
}  // namespace gpulin::cuda_exec
