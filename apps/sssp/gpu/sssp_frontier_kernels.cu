// The SSSP frontier loop's GPU kernel: apps/sssp/frontier.h on the CUDA context, a
// block an actor, the fixed heaps with 64-bit keys (the same template the simulator
// runs in apps/sssp/sim/sssp_frontier_sim.cpp).
#include "apps/sssp/gpu/sssp_frontier_launch.h"
#include "cuda/cuda_context.cuh"
#include "structures/gheap/gpu/gheap_launch.h"

namespace gpulin::sssp {

namespace {

__device__ __forceinline__ uint64_t global_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

template <class P, bool Record>
__global__ void __launch_bounds__(1024) frontier_kernel(gheap::HeapView<uint64_t, P> h, FrontierView v,
                                                        FrontierRounds* rounds, BasicDeviceRecorderRef<uint64_t> rec,
                                                        cuda_exec::WatchdogRef watchdog) {
  __shared__ unsigned long long broadcast[2];
  extern __shared__ uint64_t frontier_smem[];
  const gheap::Scratch<uint64_t> s = gheap::make_scratch(frontier_smem, h.k);
  uint64_t* keys = frontier_smem + gheap::kScratchKeysPerK * h.k;
  cuda_exec::CudaContext<cuda_exec::BlockScope, Record, uint64_t, Record> x(cuda_exec::BlockScope(broadcast), rec, watchdog);
  const FrontierRounds r = frontier_sssp(x, h, s, keys, v, blockIdx.x, gridDim.x, static_cast<int64_t>(blockIdx.x) << 32,
                                         [&] { return x.stopped(); }, [] { return global_ns(); });
  if (blockIdx.x == 0 && threadIdx.x == 0) *rounds = r;
}

template <class P, bool Record>
cudaError_t launch_as(const gheap::HeapMemory<uint64_t>& h, const FrontierView& v, FrontierRounds* rounds,
                      uint32_t blocks, uint32_t threads, cudaStream_t stream, BasicDeviceRecorderRef<uint64_t> rec,
                      const cuda_exec::WatchdogRef& wd) {
  const size_t shared = frontier_shared_bytes(h.k);
  if (shared + 2 * sizeof(unsigned long long) > 48 * 1024) {
    const cudaError_t e = cudaFuncSetAttribute(frontier_kernel<P, Record>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(shared));
    if (e != cudaSuccess) return e;
  }
  frontier_kernel<P, Record><<<blocks, threads, shared, stream>>>(gheap::view_as<P>(h), v, rounds, rec, wd);
  return cudaGetLastError();
}

template <class P>
cudaError_t launch_policy(const gheap::HeapMemory<uint64_t>& h, const FrontierView& v, FrontierRounds* rounds,
                          uint32_t blocks, uint32_t threads, cudaStream_t stream, const DeviceRecorderRef64* recorder,
                          const cuda_exec::WatchdogRef* watchdog) {
  const cuda_exec::WatchdogRef wd = watchdog ? *watchdog : cuda_exec::WatchdogRef{};
  // The recording kernels record the root's holds alone (cuda_context.cuh's
  // CountedHoldsOnly): a recorder set otherwise is refused.
  if (recorder && !gheap::root_only_recorder(*recorder)) return cudaErrorInvalidValue;
  return recorder ? launch_as<P, true>(h, v, rounds, blocks, threads, stream, *recorder, wd)
                  : launch_as<P, false>(h, v, rounds, blocks, threads, stream, {}, wd);
}

}  // namespace

cudaError_t launch_frontier_sssp(gheap::Flavor flavor, const gheap::HeapMemory<uint64_t>& h, const FrontierView& v,
                                 FrontierRounds* rounds, uint32_t blocks, uint32_t threads, cudaStream_t stream,
                                 const DeviceRecorderRef64* recorder, const cuda_exec::WatchdogRef* watchdog) {
  using gheap::Flavor;
  using gheap::HeapPolicy;
  using gheap::Variant;
  if (flavor == Flavor::TopDown)
    return launch_policy<HeapPolicy<Flavor::TopDown, Variant::Fixed>>(h, v, rounds, blocks, threads, stream, recorder,
                                                                       watchdog);
  return launch_policy<HeapPolicy<Flavor::BottomUp, Variant::Fixed>>(h, v, rounds, blocks, threads, stream, recorder,
                                                                      watchdog);
}

}  // namespace gpulin::sssp
