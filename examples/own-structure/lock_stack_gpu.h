// The lock stack's kernel launch (lock_stack_gpu.cu): plain C++ over the CUDA
// runtime, for the stress driver (lock_stack_stress.cpp).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/op_calls.h"
#include "cuda/watchdog.h"
#include "histories/device_events.h"
#include "lock_stack.h"

namespace own {

inline constexpr uint32_t kNoValue = 0;  // out[i] of a pop of an empty stack (pushed values are >= 1)

// Runs `calls` on the stack, a block of `threads` threads an actor (push: fn
// kFnPush, args [v]; pop: kFnPop, no args); pop call i's value goes to out[i].
// Recorded into *rec when rec is not null.
cudaError_t launch_lock_stack(const LockStackView& stack, uint32_t* out, const gpulin::cuda_exec::DeviceOpCalls& calls,
                              uint32_t threads, const gpulin::DeviceRecorderRef* rec,
                              const gpulin::cuda_exec::WatchdogRef& watchdog);

}  // namespace own
