// What the recorders that bracket a warp's whole round share (warp rounds,
// round_clock_context.cuh; a published clock, published_clock_context.cuh):
// CudaContext<WarpScope> with no per-operation recording (no lp, and the round's
// inv and ret bracket every operation of the warp), each lane's inv, lane 0's
// clock access given to the warp (lane0), and the 32-byte record (write_record;
// the published clock writes its own 16-byte one).
// The derived context takes the brackets (begin_round, end_round).
#pragma once

#include "cuda/cuda_context.cuh"
#include "histories/key_clock_records.h"

namespace gpulin::cuda_exec {

class RoundBracketContext : public CudaContext<WarpScope, false> {
 public:
  __device__ explicit RoundBracketContext(KeyClockRecorderRef rec) : CudaContext<WarpScope, false>(WarpScope{}), rec_(rec) {}

  __device__ void begin_op(int64_t) {}
  __device__ void end_op() {}
  template <class Key>
  __device__ void record_inv(uint32_t, const Key*, uint32_t) {}
  template <class Key>
  __device__ void record_ret(const Key*, uint32_t, bool) {}
  __device__ void record_lp() {}

 protected:
  // This lane's record of operation `op`: its inv ticket, `ret_t` (0: pending), no lp.
  // A plain store. Streaming stores (evict first, meant to keep the table in L2)
  // would seem the better fit for records nobody reads again during the run, but
  // they make the recorded run slower (bench/results/architecture-notes.md, 3.2).
  __device__ void write_record(int64_t op, uint32_t ret_t, uint32_t fn, uint32_t key, uint32_t value, uint32_t args_len,
                               bool has_res, bool res_null, uint32_t res) const {
    rec_.records[static_cast<uint64_t>(op)] =
        KeyClockRecord{inv_t_, 0u, ret_t, fn, {key, value}, res, key_clock_shape(args_len, has_res, res_null, rec_.launch)};
  }

  // Lane 0's `access()` (its one atomic on a clock), its value given to every lane.
  // The callers' warp barriers order the other lanes' shared accesses around it.
  template <class F>
  __device__ static uint32_t lane0(F&& access) {
    uint32_t v = 0;
    if ((threadIdx.x & 31) == 0) v = access();
    return __shfl_sync(~0u, v, 0);
  }

  KeyClockRecorderRef rec_;
  uint32_t inv_t_ = 0;  // this lane's inv ticket
};

}  // namespace gpulin::cuda_exec

// The contract (structures/exec/context.h), checked where the context is defined
// (meets_the_contract, cuda/cuda_context.cuh): a warp actor's parts.
namespace gpulin::cuda_exec {
static_assert(meets_the_contract<RoundBracketContext, WarpScope>());
}  // namespace gpulin::cuda_exec
