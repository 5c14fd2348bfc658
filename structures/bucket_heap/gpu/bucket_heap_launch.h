// Host-side entry to the parallel bucket heap's GPU kernel (structures/bucket_heap/gpu/bucket_heap_kernels.cu):
// one persistent block per level (§4.1, never more than the SMs), block 0 running a
// program of operations, each followed by RESOLVE(0), the others their RESOLVEs under
// the schedule, signalled through the heap's done counts. Plain C++ for host code.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/watchdog.h"
#include "histories/device_events.h"
#include "structures/bucket_heap/config.h"
#include "structures/bucket_heap/view.h"

namespace gpulin::bucket_heap {

// A program in device memory: operation k is fn[k] (Fn); an update's pairs are
// updates[first[k], first[k + 1]) (sorted by value, at most d), a delete's value
// value[k]. EXTRACTMIN k's answer goes to out[k] (value << 32 | priority, or
// kNoElement when the heap was empty).
struct DeviceProgram {
  const uint32_t* fn = nullptr;
  const uint32_t* first = nullptr;
  const Element* updates = nullptr;
  const uint32_t* value = nullptr;
  Element* out = nullptr;
  uint64_t ops = 0;
};

// The fixed variant, no mutant. With `recorder` the operations are recorded (actor 0);
// with `watchdog` a level that waits past its bound stops the run (cuda/watchdog.h).
cudaError_t launch_bucket_program(const View& h, const DeviceProgram& p, uint32_t threads, cudaStream_t stream,
                                  const DeviceRecorderRef* recorder = nullptr,
                                  const cuda_exec::WatchdogRef* watchdog = nullptr);

}  // namespace gpulin::bucket_heap
