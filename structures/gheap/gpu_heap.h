// Host-side entry to the heap's GPU kernels (the glue is gheap_kernels.cu). Plain
// C++ so that host code includes it without nvcc.
#pragma once

#include <cstdint>

#include "histories/device_events.h"
#include "structures/gheap/config.h"
#include "structures/gheap/operation.h"

namespace gpulin::gheap {

// A batch of operations for the GPU: operation i is fn[i] (kFnIns or kFnDel), with
// n[i] keys at keys[i*k ...] for an insert. Blocks take operations round-robin:
// block b runs b, b + blocks, ... in order. Deleted keys go to out[i*k ...], their
// count to out_n[i]. All pointers are device memory.
struct GpuOpBatch {
  const uint32_t* fn = nullptr;
  const uint32_t* n = nullptr;
  const uint32_t* keys = nullptr;
  uint32_t* out = nullptr;
  uint32_t* out_n = nullptr;
  uint64_t count = 0;
};

// Runs the batch on `h` (device memory) with `blocks` x `threads`; returns the
// CUDA error code (0 on success) after synchronising. With `recorder` every event
// is recorded (op ids are `op_id_base + i`); without it, recording is compiled out.
int run_heap_batch_on_gpu(Flavor flavor, const HeapView<uint32_t>& h, const GpuOpBatch& ops, uint32_t blocks,
                          uint32_t threads, const DeviceRecorderRef* recorder = nullptr, int64_t op_id_base = 0);

}  // namespace gpulin::gheap
