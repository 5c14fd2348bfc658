// The knapsack branch and bound's GPU kernel: the simulator's template
// (apps/knapsack/branch_and_bound.h) on the CUDA context, a block an actor, the fixed
// heaps with 64-bit keys.
#include "apps/knapsack/gpu/knapsack_launch.h"
#include "cuda/cuda_context.cuh"
#include "structures/gheap/gpu/gheap_launch.h"

namespace gpulin::knapsack {

namespace {

template <class P, bool Record, Order O>
__global__ void __launch_bounds__(1024) knapsack_kernel(gheap::HeapView<uint64_t, P> h, KnapsackView v,
                                                        BasicDeviceRecorderRef<uint64_t> rec,
                                                        cuda_exec::WatchdogRef watchdog) {
  __shared__ unsigned long long broadcast[2];
  extern __shared__ uint64_t knapsack_smem[];
  const uint32_t k = h.k;
  const gheap::Scratch<uint64_t> s = gheap::make_scratch(knapsack_smem, k);
  uint64_t* keys = knapsack_smem + gheap::kScratchKeysPerK * k;
  const KnapsackScratch c = make_knapsack_scratch(keys, reinterpret_cast<uint32_t*>(keys + 2 * k), k);
  cuda_exec::CudaContext<cuda_exec::BlockScope, Record, uint64_t, Record> x(cuda_exec::BlockScope(broadcast), rec, watchdog);
  branch_and_bound<O>(x, h, s, c, v, blockIdx.x, static_cast<int64_t>(blockIdx.x) << 32, [&] { return x.stopped(); });
}

template <class P, bool Record, Order O>
cudaError_t launch_as(const gheap::HeapMemory<uint64_t>& h, const KnapsackView& v, uint32_t blocks, uint32_t threads,
                      cudaStream_t stream, BasicDeviceRecorderRef<uint64_t> rec, const cuda_exec::WatchdogRef& wd) {
  const size_t shared = knapsack_shared_bytes(h.k);
  if (shared + 2 * sizeof(unsigned long long) > 48 * 1024) {
    const cudaError_t e = cudaFuncSetAttribute(knapsack_kernel<P, Record, O>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(shared));
    if (e != cudaSuccess) return e;
  }
  knapsack_kernel<P, Record, O><<<blocks, threads, shared, stream>>>(gheap::view_as<P>(h), v, rec, wd);
  return cudaGetLastError();
}

template <class P, Order O>
cudaError_t launch_order(const gheap::HeapMemory<uint64_t>& h, const KnapsackView& v, uint32_t blocks,
                         uint32_t threads, cudaStream_t stream, const DeviceRecorderRef64* recorder,
                         const cuda_exec::WatchdogRef* watchdog) {
  const cuda_exec::WatchdogRef wd = watchdog ? *watchdog : cuda_exec::WatchdogRef{};
  // The recording kernels record the root's holds alone (cuda_context.cuh's
  // CountedHoldsOnly): a recorder set otherwise is refused.
  if (recorder && !gheap::root_only_recorder(*recorder)) return cudaErrorInvalidValue;
  return recorder ? launch_as<P, true, O>(h, v, blocks, threads, stream, *recorder, wd)
                  : launch_as<P, false, O>(h, v, blocks, threads, stream, {}, wd);
}

template <class P>
cudaError_t launch_policy(Order order, const gheap::HeapMemory<uint64_t>& h, const KnapsackView& v, uint32_t blocks,
                          uint32_t threads, cudaStream_t stream, const DeviceRecorderRef64* recorder,
                          const cuda_exec::WatchdogRef* watchdog) {
  return order == Order::Bound ? launch_order<P, Order::Bound>(h, v, blocks, threads, stream, recorder, watchdog)
                               : launch_order<P, Order::Profit>(h, v, blocks, threads, stream, recorder, watchdog);
}

}  // namespace

cudaError_t launch_knapsack(gheap::Flavor flavor, Order order, const gheap::HeapMemory<uint64_t>& h, const KnapsackView& v,
                            uint32_t blocks, uint32_t threads, cudaStream_t stream, const DeviceRecorderRef64* recorder,
                            const cuda_exec::WatchdogRef* watchdog) {
  using gheap::Flavor;
  using gheap::HeapPolicy;
  using gheap::Variant;
  if (flavor == Flavor::TopDown)
    return launch_policy<HeapPolicy<Flavor::TopDown, Variant::Fixed>>(order, h, v, blocks, threads, stream, recorder, watchdog);
  return launch_policy<HeapPolicy<Flavor::BottomUp, Variant::Fixed>>(order, h, v, blocks, threads, stream, recorder, watchdog);
}

}  // namespace gpulin::knapsack
