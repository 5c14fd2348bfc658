// The P-Sync heap's GPU kernels: the templates the simulator runs (structures/psync/)
// on the CUDA context, a block per step's actor (the controller's root and refill
// steps; one level's processes in steps 2 and 3), a kernel per special case of step
// 1 (root_step.h's RootCase, the refill). No mutant is built here.
#include "cuda/cuda_context.cuh"
#include "structures/psync/gpu/psync_launch.h"
#include "structures/psync/level_step.h"
#include "structures/psync/refill.h"
#include "structures/psync/root_step.h"

namespace gpulin::psync {

namespace {

using P = Policy<uint32_t>;
template <bool Record>
using Context = cuda_exec::CudaContext<cuda_exec::BlockScope, Record>;

// An actor's scratch is shared memory while it fits in 32 KiB (r <= 1024), else its
// slice of View::scratch in global memory, private to the block all the same.
constexpr uint32_t kSharedScratchMaxR = 32 * 1024 / (kScratchPerR * sizeof(uint32_t));

size_t shared_bytes(uint32_t r) { return r <= kSharedScratchMaxR ? size_t{kScratchPerR} * r * sizeof(uint32_t) : 0; }

__device__ uint32_t* scratch_for(const View<uint32_t>& h, uint32_t actor) {
  extern __shared__ uint32_t psync_smem[];
  return h.r <= kSharedScratchMaxR ? psync_smem : h.scratch_of(actor);
}

template <bool Record, RootCase C>
__global__ void __launch_bounds__(1024) root_kernel(View<uint32_t> h, RootTask t, DeviceRecorderRef rec) {
  __shared__ unsigned long long broadcast[2];
  Context<Record> x(cuda_exec::BlockScope(broadcast), rec);
  root_step<Context<Record>, P, C>(x, h, t, scratch_for(h, 0));
}

template <bool Record>
void launch_root(const View<uint32_t>& h, const RootTask& t, cudaStream_t stream, DeviceRecorderRef rec) {
  const dim3 grid(1), block(psync_threads(h.r));
  if (root_case(t) == RootCase::Spawn)
    root_kernel<Record, RootCase::Spawn><<<grid, block, shared_bytes(h.r), stream>>>(h, t, rec);
  else
    root_kernel<Record, RootCase::Keep><<<grid, block, shared_bytes(h.r), stream>>>(h, t, rec);
}

__global__ void __launch_bounds__(1024) refill_kernel(View<uint32_t> h, RefillTask t) {
  __shared__ unsigned long long broadcast[2];
  Context<false> x{cuda_exec::BlockScope(broadcast)};
  refill_root<Context<false>, P>(x, h, t, scratch_for(h, 0));
}

__global__ void __launch_bounds__(1024) step_kernel(View<uint32_t> h, StepTasks t) {
  __shared__ unsigned long long broadcast[2];
  Context<false> x{cuda_exec::BlockScope(broadcast)};
  const LevelTask& task = t.level[blockIdx.x];
  level_step<Context<false>, P>(x, h, task, t.arrived_end, scratch_for(h, 1 + task.level));
}

}  // namespace

uint32_t psync_threads(uint32_t r) {
  uint32_t threads = 32;
  while (threads < r && threads < 1024) threads *= 2;
  return threads;
}

cudaError_t launch_psync_root(const View<uint32_t>& h, const RootTask& t, cudaStream_t stream,
                              const DeviceRecorderRef* recorder) {
  if (recorder)
    launch_root<true>(h, t, stream, *recorder);
  else
    launch_root<false>(h, t, stream, DeviceRecorderRef{});
  return cudaGetLastError();
}

cudaError_t launch_psync_refill(const View<uint32_t>& h, const RefillTask& t, cudaStream_t stream) {
  refill_kernel<<<1, psync_threads(h.r), shared_bytes(h.r), stream>>>(h, t);
  return cudaGetLastError();
}

cudaError_t launch_psync_step(const View<uint32_t>& h, const StepTasks& t, cudaStream_t stream) {
  if (t.levels == 0) return cudaSuccess;
  step_kernel<<<t.levels, psync_threads(h.r), shared_bytes(h.r), stream>>>(h, t);
  return cudaGetLastError();
}

}  // namespace gpulin::psync
