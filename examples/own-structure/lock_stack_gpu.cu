// The lock stack on the GPU: the algorithm of lock_stack.h, unchanged, on gpulin's
// CUDA context, through gpulin's generic kernel (cuda/op_program_kernel.cuh): a
// thread block an actor, each running its list of calls.
#include "cuda/op_program_kernel.cuh"
#include "lock_stack_gpu.h"

namespace own {

namespace {

// The device functor the generic kernel calls for each call (every thread of the
// block, actor-uniform).
struct StackCalls {
  LockStackView stack;
  uint32_t* out;
  template <class X>
  __device__ void operator()(X& x, uint32_t call, uint32_t fn, const uint32_t* args, uint32_t /*n*/) const {
    if (fn == kFnPush) {
      stack_push(x, stack, args[0]);
      return;
    }
    uint32_t v = 0;
    const bool found = stack_pop(x, stack, &v);
    if (threadIdx.x == 0) out[call] = found ? v : kNoValue;
  }
};

}  // namespace

cudaError_t launch_lock_stack(const LockStackView& stack, uint32_t* out, const gpulin::cuda_exec::DeviceOpCalls& calls,
                              uint32_t threads, const gpulin::DeviceRecorderRef* rec,
                              const gpulin::cuda_exec::WatchdogRef& watchdog) {
  const StackCalls s{stack, out};
  if (rec) return gpulin::cuda_exec::launch_op_program<true>(s, calls, threads, *rec, watchdog);
  return gpulin::cuda_exec::launch_op_program<false>(s, calls, threads, gpulin::DeviceRecorderRef{}, watchdog);
}

}  // namespace own
