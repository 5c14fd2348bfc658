// The slab hash's kernel templates (structures/slab_hash/ on the CUDA context in
// warp scope). cuda/slab_hash_kernels.cu instantiates the production policies; a
// GPU test may instantiate a mutant policy on purpose (a planted bug the checks must
// reject), never the library.
#pragma once

#include "cuda/cuda_context.cuh"
#include "cuda/slab_hash_launch.h"
#include "structures/slab_hash/flush.h"
#include "structures/slab_hash/work_queue.h"

namespace gpulin::slab_hash {

using SlabFlushContext = cuda_exec::CudaContext<cuda_exec::WarpScope, false>;

template <class P, bool Record>
__global__ void __launch_bounds__(1024)
    slab_batch_kernel(SlabHashView<P> h, SlabOpBatch ops, DeviceRecorderRef rec, int64_t op_id_base) {
  using X = cuda_exec::CudaContext<cuda_exec::WarpScope, Record>;
  X x(cuda_exec::WarpScope{}, rec);
  const uint64_t warps = (uint64_t{gridDim.x} * blockDim.x) / 32;
  const uint64_t first_warp = (uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32;
  WarpAllocator<X> wa;
  wa.warp_id = static_cast<uint32_t>(first_warp);
  // Grid-stride over warps: each round, a warp's 32 lanes bring 32 operations.
  for (uint64_t base = first_warp * 32; base < ops.count; base += warps * 32) {
    const uint64_t i = base + (threadIdx.x & 31);
    typename X::template Regs<uint32_t, kTaskWords> task;
    task.v[kTaskActive] = i < ops.count;
    if (i < ops.count) {
      task.v[kTaskFn] = ops.fn ? ops.fn[i] : ops.uniform_fn;
      task.v[kTaskKey] = ops.key[i];
      task.v[kTaskValue] = ops.value ? ops.value[i] : 0u;
      task.v[kTaskOp] = static_cast<uint32_t>(i - base);
    }
    warp_work_queue(x, h, wa, task, op_id_base + static_cast<int64_t>(base),
                    [&](uint32_t src, uint32_t, const TaskResult& r) {
                      if (ops.out && (threadIdx.x & 31) == src) {
                        const uint32_t fn = task.v[kTaskFn];
                        if (fn == kFnSearch)
                          ops.out[i] = P::mode == Mode::Set ? (r.status == TaskResult::kFound ? 1u : 0u)
                                                            : (r.status == TaskResult::kFound ? r.value : kEmptyKey);
                        else if (fn == kFnSearchAll)
                          ops.out[i] = r.n;
                      }
                    });
  }
}

template <class P>
__global__ void slab_flush_kernel(SlabHashView<P> h) {
  SlabFlushContext x{cuda_exec::WarpScope{}};
  const uint32_t warps = gridDim.x * blockDim.x / 32;
  for (uint32_t b = (blockIdx.x * blockDim.x + threadIdx.x) / 32; b < h.buckets(); b += warps) slab_flush(x, h, b);
}

}  // namespace gpulin::slab_hash
