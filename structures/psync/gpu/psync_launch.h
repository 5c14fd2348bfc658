// Host-side entry to the P-Sync heap's GPU kernels (structures/psync/gpu/psync_kernels.cu), the CUDA
// executor of structures/psync: one kernel per kind of step the host controller
// plans (§IV-B). Plain C++ so that host code includes it without nvcc. The kernels
// do not synchronise; a fault shows at the caller's next synchronisation.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "histories/device_events.h"
#include "structures/psync/psync_tasks.h"
#include "structures/psync/psync_view.h"

namespace gpulin::psync {

// Threads a block of the heap's kernels gets for node capacity r.
uint32_t psync_threads(uint32_t r);

// Step 1 (root_step.h), one block; with `recorder` the cycle is recorded (actor 0).
cudaError_t launch_psync_root(const View<uint32_t>& h, const RootTask& t, cudaStream_t stream,
                              const DeviceRecorderRef* recorder = nullptr);
// The refill of step 1 (refill.h), one block.
cudaError_t launch_psync_refill(const View<uint32_t>& h, const RefillTask& t, cudaStream_t stream);
// Step 2 or 3 (level_step.h): one block per level with work; nothing when none has.
cudaError_t launch_psync_step(const View<uint32_t>& h, const StepTasks& t, cudaStream_t stream);

}  // namespace gpulin::psync
