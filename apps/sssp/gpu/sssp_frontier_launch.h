// Host-side entry to the SSSP frontier loop's GPU kernel (sssp_frontier_kernels.cu
// beside it): apps/sssp/frontier.h on the CUDA context, one thread block an actor,
// over the fixed generalized heap with 64-bit keys. Plain C++ for host code. It lives
// with the application, not in cuda/, so that cuda/ never includes apps/.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "apps/sssp/frontier.h"
#include "cuda/watchdog.h"
#include "histories/device_events.h"

namespace gpulin::sssp {

// Shared memory a block needs for node capacity k (the heap's scratch and a batch).
inline size_t frontier_shared_bytes(uint32_t k) { return (gheap::kScratchKeysPerK + 1) * size_t{k} * sizeof(uint64_t); }

// `blocks` x `threads` (every block resident at once) over heap memory `h` (device
// memory, empty) and the view's words as frontier.h says. Actor 0's FrontierRounds
// (its times from the GPU's global timer) go to `rounds` (device memory). With
// `recorder` the heap's operations are recorded, with the root's holds alone
// (gheap::root_only_recorder; a recorder set otherwise is cudaErrorInvalidValue);
// `watchdog` as cuda/watchdog.h.
cudaError_t launch_frontier_sssp(gheap::Flavor flavor, const gheap::HeapMemory<uint64_t>& h, const FrontierView& v,
                                 FrontierRounds* rounds, uint32_t blocks, uint32_t threads, cudaStream_t stream,
                                 const DeviceRecorderRef64* recorder, const cuda_exec::WatchdogRef* watchdog);

}  // namespace gpulin::sssp
