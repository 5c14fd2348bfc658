// The slab hash's GPU kernels: instantiations of the same templates the simulator
// runs (structures/slab_hash/), with the CUDA execution context in warp scope. No
// second copy of the algorithm and no mutant: SlabPolicy<mode, light, None> only.
#include "cuda/cuda_context.cuh"
#include "cuda/slab_hash_launch.h"
#include "structures/slab_hash/flush.h"
#include "structures/slab_hash/work_queue.h"

namespace gpulin::slab_hash {

namespace {

using Warp = cuda_exec::CudaContext<cuda_exec::WarpScope, false>;

template <class P, bool Record>
__global__ void __launch_bounds__(1024)
    slab_batch_kernel(SlabHashView<P> h, SlabOpBatch ops, DeviceRecorderRef rec, int64_t op_id_base) {
  static_assert(P::mutant == Mutant::None, "mutants are not built into GPU kernels");
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
  Warp x{cuda_exec::WarpScope{}};
  const uint32_t warps = gridDim.x * blockDim.x / 32;
  for (uint32_t b = (blockIdx.x * blockDim.x + threadIdx.x) / 32; b < h.buckets(); b += warps) slab_flush(x, h, b);
}

int sm_count() {
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  return sms > 0 ? sms : 1;
}

template <class P>
cudaError_t launch_policy(const DeviceSlabHash& t, const SlabOpBatch& ops, uint32_t threads, cudaStream_t stream,
                          const DeviceRecorderRef* rec, int64_t op_id_base) {
  if (ops.count == 0) return cudaSuccess;
  // One operation per thread; with recording the grid covers the batch exactly so
  // that warp w is actor w (the recorder's buffers), without it a grid-stride loop.
  const uint64_t needed = (ops.count + threads - 1) / threads;
  const uint64_t blocks = rec ? needed : std::min<uint64_t>(needed, uint64_t(sm_count()) * 32);
  if (rec)
    slab_batch_kernel<P, true><<<blocks, threads, 0, stream>>>(t.view<P>(), ops, *rec, op_id_base);
  else
    slab_batch_kernel<P, false><<<blocks, threads, 0, stream>>>(t.view<P>(), ops, {}, op_id_base);
  return cudaGetLastError();
}

template <Mode M, class F>
cudaError_t by_alloc(const DeviceSlabHash& t, F&& f) {
  return t.light() ? f(SlabPolicy<M, true>{}) : f(SlabPolicy<M, false>{});
}

template <class F>
cudaError_t by_mode(Mode mode, const DeviceSlabHash& t, F&& f) {
  switch (mode) {
    case Mode::Map: return by_alloc<Mode::Map>(t, f);
    case Mode::Set: return by_alloc<Mode::Set>(t, f);
    case Mode::Multimap: return by_alloc<Mode::Multimap>(t, f);
  }
  return cudaErrorInvalidValue;
}

}  // namespace

cudaError_t launch_slab_batch(Mode mode, const DeviceSlabHash& table, const SlabOpBatch& ops, uint32_t threads,
                              cudaStream_t stream, const DeviceRecorderRef* recorder, int64_t op_id_base) {
  if (threads == 0 || threads % 32 != 0 || threads > 1024) return cudaErrorInvalidValue;
  return by_mode(mode, table, [&](auto policy) {
    return launch_policy<decltype(policy)>(table, ops, threads, stream, recorder, op_id_base);
  });
}

cudaError_t launch_slab_flush(Mode mode, const DeviceSlabHash& table, uint32_t threads, cudaStream_t stream) {
  if (threads == 0 || threads % 32 != 0 || threads > 1024) return cudaErrorInvalidValue;
  return by_mode(mode, table, [&](auto policy) {
    const uint64_t warps_needed = table.shape().buckets;
    const uint64_t blocks = std::min<uint64_t>((warps_needed * 32 + threads - 1) / threads, uint64_t(sm_count()) * 32);
    slab_flush_kernel<decltype(policy)><<<blocks, threads, 0, stream>>>(table.view<decltype(policy)>());
    return cudaGetLastError();
  });
}

}  // namespace gpulin::slab_hash
