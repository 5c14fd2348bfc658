// The heap's GPU kernels: instantiations of the same templates the simulator runs
// (operation.h), with the CUDA execution context. No second copy of the algorithm.
#include "cuda/cuda_context.cuh"
#include "structures/gheap/gpu_heap.h"

namespace gpulin::gheap {

namespace {

// Launchable with up to 1024 threads a block (the paper sweeps threads per block,
// Fig. 14): the bound keeps registers within 64 a thread.
template <bool Record>
__global__ void __launch_bounds__(1024)
    heap_batch_kernel(Flavor flavor, HeapView<uint32_t> h, GpuOpBatch ops, DeviceRecorderRef rec, int64_t op_id_base) {
  extern __shared__ uint32_t smem[];
  __shared__ uint32_t broadcast[2];
  const uint32_t k = h.k;
  const Scratch<uint32_t> s = make_scratch(smem, k);
  cuda_exec::CudaContext<Record> x(broadcast, rec);
  for (uint64_t i = blockIdx.x; i < ops.count; i += gridDim.x) {
    x.begin_op(op_id_base + static_cast<int64_t>(i));
    const uint32_t m = run_operation(x, flavor, h, s, ops.fn[i], ops.keys + i * k, ops.n[i]);
    if (ops.fn[i] == kFnDel) {
      for (uint32_t j = threadIdx.x; j < m; j += blockDim.x) ops.out[i * k + j] = s.items[j];
      if (threadIdx.x == 0) ops.out_n[i] = m;
    }
    x.end_op();
  }
}

template <bool Record>
cudaError_t launch(Flavor flavor, const HeapView<uint32_t>& h, const GpuOpBatch& ops, uint32_t blocks, uint32_t threads,
                   DeviceRecorderRef rec, int64_t op_id_base) {
  const size_t shared = kScratchKeysPerK * static_cast<size_t>(h.k) * sizeof(uint32_t);
  if (shared > 48 * 1024) {
    cudaError_t e = cudaFuncSetAttribute(heap_batch_kernel<Record>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(shared));
    if (e != cudaSuccess) return e;
  }
  heap_batch_kernel<Record><<<blocks, threads, shared>>>(flavor, h, ops, rec, op_id_base);
  return cudaGetLastError();
}

}  // namespace

int run_heap_batch_on_gpu(Flavor flavor, const HeapView<uint32_t>& h, const GpuOpBatch& ops, uint32_t blocks,
                          uint32_t threads, const DeviceRecorderRef* recorder, int64_t op_id_base) {
  cudaError_t e = recorder ? launch<true>(flavor, h, ops, blocks, threads, *recorder, op_id_base)
                           : launch<false>(flavor, h, ops, blocks, threads, {}, op_id_base);
  if (e != cudaSuccess) return e;
  return cudaDeviceSynchronize();
}

}  // namespace gpulin::gheap
