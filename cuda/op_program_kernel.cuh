// Runs a program of calls (cuda/op_calls.h) on any structure written against the
// execution context, a thread block an actor, each call recorded when the launch
// records: the GPU side of the generic operation explorer
// (tools/explore/op_explore.h), so that a structure of one's own needs no kernel
// of its own (docs/own-structure.md, examples/own-structure/).
//
// `Structure` is a device functor, the GPU's counterpart of explore::OpInstance:
//
//   struct MyCalls {
//     MyView view;  // the structure's device memory
//     template <class X>
//     __device__ void operator()(X& x, uint32_t call, uint32_t fn, const uint32_t* args, uint32_t n) const;
//   };
//
// called by every thread of the block (actor-uniform code) with the call's global
// index (for outputs of its own), function code and arguments; it records its inv
// and ret through x as the algorithm does. The kernel brackets each call with
// x.begin_op(op_call_id(actor, i)) and x.end_op(), and stops between calls when the
// watchdog stopped the run (cuda/watchdog.h).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/cuda_context.cuh"
#include "cuda/op_calls.h"
#include "histories/device_events.h"

namespace gpulin::cuda_exec {

template <class Structure, bool Record, class RecordKey>
__global__ void op_program_kernel(Structure s, DeviceOpCalls calls, BasicDeviceRecorderRef<RecordKey> rec,
                                  WatchdogRef watchdog) {
  __shared__ unsigned long long broadcast[2];
  CudaContext<BlockScope, Record, RecordKey> x(BlockScope(broadcast), rec, watchdog);
  const uint32_t a = blockIdx.x;
  const uint32_t first = calls.call_begin[a], end = calls.call_begin[a + 1];
  for (uint32_t i = first; i < end; ++i) {
    if (x.stopped()) return;  // the watchdog stopped the run: drain
    x.begin_op(op_call_id(a, i - first));
    const uint32_t arg0 = calls.arg_begin[i];
    s(x, i, calls.fn[i], calls.args + arg0, calls.arg_begin[i + 1] - arg0);
    x.end_op();
  }
}

// One block of `threads` threads an actor of `calls`; recorded into `rec` when
// Record (a recorder of calls.actors actors), unrecorded otherwise.
template <bool Record, class Structure, class RecordKey = uint32_t>
cudaError_t launch_op_program(const Structure& s, const DeviceOpCalls& calls, uint32_t threads,
                              BasicDeviceRecorderRef<RecordKey> rec = {}, const WatchdogRef& watchdog = {},
                              cudaStream_t stream = nullptr) {
  if (calls.actors == 0) return cudaSuccess;
  op_program_kernel<Structure, Record, RecordKey><<<calls.actors, threads, 0, stream>>>(s, calls, rec, watchdog);
  return cudaGetLastError();
}

}  // namespace gpulin::cuda_exec
