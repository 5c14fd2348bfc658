// The parallel bucket heap's GPU kernel: the simulator's templates (structures/
// bucket_heap/) on the CUDA context, one persistent block per level. Only the fixed
// variant, no mutant.
#include "structures/bucket_heap/gpu/bucket_heap_launch.h"
#include "cuda/cuda_context.cuh"
#include "structures/bucket_heap/operations.h"
#include "structures/bucket_heap/schedule.h"

namespace gpulin::bucket_heap {

namespace {

using P = Policy<Variant::Fixed>;

template <bool Record>
__global__ void __launch_bounds__(1024) program_kernel(View h, DeviceProgram p, DeviceRecorderRef rec,
                                                       cuda_exec::WatchdogRef watchdog) {
  __shared__ unsigned long long broadcast[2];
  using X = cuda_exec::CudaContext<cuda_exec::BlockScope, Record>;
  X x{cuda_exec::BlockScope(broadcast), rec, watchdog};
  const uint32_t level = blockIdx.x;
  if (level > 0) {
    run_level<X, P>(x, h, level, p.ops, NoChecks{});
    return;
  }
  for (uint64_t k = 0; k < p.ops; ++k) {
    if (x.stopped()) return;  // the watchdog stopped the run (the levels drain in their waits)
    x.begin_op(static_cast<int64_t>(k));
    if (p.fn[k] == kFnExtractMin) {
      uint32_t v = 0, pr = 0;
      const bool found = extract_min<X, P>(x, h, &v, &pr);
      if (threadIdx.x == 0) p.out[k] = found ? make_element(v, pr) : kNoElement;
    } else if (p.fn[k] == kFnDelete) {
      delete_value<X, P>(x, h, p.value[k]);
    } else {
      bulk_update<X, P>(x, h, p.updates + p.first[k], p.first[k + 1] - p.first[k]);
    }
    x.end_op();
    scheduled_resolve<X, P>(x, h, 0, static_cast<uint32_t>(k + 1), NoChecks{});
  }
}

}  // namespace

cudaError_t launch_bucket_program(const View& h, const DeviceProgram& p, uint32_t threads, cudaStream_t stream,
                                  const DeviceRecorderRef* recorder, const cuda_exec::WatchdogRef* watchdog) {
  const cuda_exec::WatchdogRef wd = watchdog ? *watchdog : cuda_exec::WatchdogRef{};
  if (recorder)
    program_kernel<true><<<h.levels, threads, 0, stream>>>(h, p, *recorder, wd);
  else
    program_kernel<false><<<h.levels, threads, 0, stream>>>(h, p, DeviceRecorderRef{}, wd);
  return cudaGetLastError();
}

}  // namespace gpulin::bucket_heap
