// The slab hash's GPU kernels: instantiations of the same templates the simulator
// runs (structures/slab_hash/), with the CUDA execution context in warp scope. No
// second copy of the algorithm and no mutant: SlabPolicy<mode, light, None> only.
#include "cuda/slab_hash_kernel.cuh"

namespace gpulin::slab_hash {

namespace {

int sm_count() {
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  return sms > 0 ? sms : 1;
}

template <class P>
cudaError_t launch_policy(const DeviceSlabHash& t, const SlabOpBatch& ops, uint32_t threads, cudaStream_t stream,
                          const DeviceRecorderRef* rec, int64_t op_id_base) {
  static_assert(P::mutant == Mutant::None, "mutants are not built into the library's GPU kernels");
  if (ops.count == 0) return cudaSuccess;
  // One operation per thread; with recording the grid covers the batch exactly so
  // that warp w is actor w (the recorder's buffers), without it a grid-stride loop.
  const uint64_t needed = (ops.count + threads - 1) / threads;
  const uint64_t blocks = rec ? needed : std::min<uint64_t>(needed, uint64_t(sm_count()) * 32);
  const auto launch = [&](auto kernel, const DeviceRecorderRef& r) {
    kernel<<<blocks, threads, 0, stream>>>(t.view<P>(), ops, r, op_id_base);
    return cudaGetLastError();
  };
  if (rec && ops.bulk) return cudaErrorInvalidValue;  // a bulk search is unrecorded
  if (rec) return launch(slab_batch_kernel<P, true>, *rec);
  // A batch of one operation (a bulk build, search or delete) runs a kernel with
  // that operation fixed: no dispatch per operation.
  if (!ops.fn && ops.uniform_fn == kFnInsert) return launch(slab_batch_kernel<P, false, kFnInsert>, {});
  if (!ops.fn && ops.uniform_fn == kFnSearch && ops.bulk) return launch(slab_batch_kernel<P, false, kFnSearch, true>, {});
  if (!ops.fn && ops.uniform_fn == kFnSearch) return launch(slab_batch_kernel<P, false, kFnSearch>, {});
  if (!ops.fn && ops.uniform_fn == kFnDelete) return launch(slab_batch_kernel<P, false, kFnDelete>, {});
  return launch(slab_batch_kernel<P, false>, {});
}

}  // namespace

cudaError_t launch_slab_batch(Mode mode, const DeviceSlabHash& table, const SlabOpBatch& ops, uint32_t threads,
                              cudaStream_t stream, const DeviceRecorderRef* recorder, int64_t op_id_base) {
  if (threads == 0 || threads % 32 != 0 || threads > 1024) return cudaErrorInvalidValue;
  return with_slab_policy(mode, table.light(), [&](auto policy) -> cudaError_t {
    return launch_policy<decltype(policy)>(table, ops, threads, stream, recorder, op_id_base);
  });
}

cudaError_t load_slab_kernels(Mode mode, bool light) {
  return with_slab_policy(mode, light, [&](auto policy) -> cudaError_t {
    using P = decltype(policy);
    cudaFuncAttributes a;
    for (const void* k : {(const void*)slab_batch_kernel<P, true>, (const void*)slab_batch_kernel<P, false>,
                          (const void*)slab_batch_kernel<P, false, kFnInsert>,
                          (const void*)slab_batch_kernel<P, false, kFnSearch>,
                          (const void*)slab_batch_kernel<P, false, kFnSearch, true>,
                          (const void*)slab_batch_kernel<P, false, kFnDelete>, (const void*)slab_flush_kernel<P>})
      if (const cudaError_t e = cudaFuncGetAttributes(&a, k); e != cudaSuccess) return e;
    return cudaSuccess;
  });
}

cudaError_t launch_slab_flush(Mode mode, const DeviceSlabHash& table, uint32_t threads, cudaStream_t stream) {
  if (threads == 0 || threads % 32 != 0 || threads > 1024) return cudaErrorInvalidValue;
  return with_slab_policy(mode, table.light(), [&](auto policy) -> cudaError_t {
    const uint64_t warps_needed = table.shape().buckets;
    const uint64_t blocks = std::min<uint64_t>((warps_needed * 32 + threads - 1) / threads, uint64_t(sm_count()) * 32);
    slab_flush_kernel<decltype(policy)><<<blocks, threads, 0, stream>>>(table.view<decltype(policy)>());
    return cudaGetLastError();
  });
}

}  // namespace gpulin::slab_hash
