// The heap's GPU kernels: instantiations of the same templates the simulator runs
// (structures/gheap/operation.h), with the CUDA execution context. No second copy
// of the algorithm. Mutants run in the simulator; the one exception is
// lost-root-release on the fixed TD heap with 32-bit keys, a deadlock built for the
// watchdog's test (cuda/watchdog.h).
#include "cuda/cuda_context.cuh"
#include "structures/gheap/gpu/gheap_launch.h"
#include "structures/gheap/operation.h"

namespace gpulin::gheap {

namespace {

// The dynamic shared memory as an array of the heap's keys, the operation's
// scratch. Extern shared arrays all start at one address; one name must keep one
// type, so each key type declares its own.
template <class Key>
__device__ __forceinline__ Key* shared_keys() {
  static_assert(sizeof(Key) == 4 || sizeof(Key) == 8, "the GPU heap's keys are uint32_t or uint64_t");
  if constexpr (sizeof(Key) == 4) {
    extern __shared__ uint32_t smem[];
    return smem;
  } else {
    extern __shared__ uint64_t smem64[];
    return smem64;
  }
}

// Launchable with up to MaxThreads threads a block (the paper sweeps up to 1024,
// Fig. 14): the bound keeps registers within 64 a thread at 1024. The recording
// context needs more (its counts and the holds it is numbering), and under that
// bound its kernels spill, so launches of at most 512 threads get their own
// instantiation, bound 512. The bound also names one block a multiprocessor: with
// the thread count alone ptxas still holds the 32-bit recorded kernels to 64
// registers and spills; with it they have the registers they need and spill
// nothing (ptxas -v shows both; what the spill cost the recording:
// bench/results/architecture-notes.md, 1.5).
// RootOnly: the recording of the root's holds alone (cuda_context.cuh's
// CountedHoldsOnly), for a recorder set so (gheap_launch.h, root_only_recorder).
template <class Key, class P, bool Record, uint32_t MaxThreads, bool RootOnly = false>
__global__ void __launch_bounds__(MaxThreads, 1)
    heap_batch_kernel(HeapView<Key, P> h, GpuOpBatch<Key> ops, BasicDeviceRecorderRef<Key> rec, int64_t op_id_base,
                      cuda_exec::WatchdogRef watchdog) {
  static_assert(P::mutant == Mutant::None || P::mutant == Mutant::LostRootRelease,
                "the GPU kernels build only the watchdog's deadlocking mutant");
  __shared__ unsigned long long broadcast[2];
  const uint32_t k = h.k;
  const Scratch<Key> s = make_scratch(shared_keys<Key>(), k);
  cuda_exec::CudaContext<cuda_exec::BlockScope, Record, Key, RootOnly> x(cuda_exec::BlockScope(broadcast), rec, watchdog);
  for (uint64_t i = blockIdx.x; i < ops.count; i += gridDim.x) {
    if (x.stopped()) return;  // the watchdog stopped the run: drain
    x.begin_op(op_id_base + static_cast<int64_t>(i));
    const uint32_t m = run_operation(x, h, s, ops.fn[i], ops.keys + i * k, ops.n[i]);
    if (ops.fn[i] == kFnDel) {
      for (uint32_t j = threadIdx.x; j < m; j += blockDim.x) ops.out[i * k + j] = s.items[j];
      if (threadIdx.x == 0) ops.out_n[i] = m;
    }
    x.end_op();
  }
}

template <class Key, class P, bool Record, uint32_t MaxThreads, bool RootOnly = false>
cudaError_t launch_bounded(const HeapMemory<Key>& h, const GpuOpBatch<Key>& ops, uint32_t blocks, uint32_t threads,
                           cudaStream_t stream, BasicDeviceRecorderRef<Key> rec, int64_t op_id_base,
                           const cuda_exec::WatchdogRef& watchdog) {
  const size_t shared = kScratchKeysPerK * static_cast<size_t>(h.k) * sizeof(Key);
  // Above 48 KiB a block's shared memory must be asked for; the kernel's static
  // broadcast words count too (k = 1024 with 64-bit keys is exactly 48 KiB dynamic).
  if (shared + 2 * sizeof(unsigned long long) > 48 * 1024) {
    cudaError_t e = cudaFuncSetAttribute(heap_batch_kernel<Key, P, Record, MaxThreads, RootOnly>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared));
    if (e != cudaSuccess) return e;
  }
  heap_batch_kernel<Key, P, Record, MaxThreads, RootOnly>
      <<<blocks, threads, shared, stream>>>(view_as<P>(h), ops, rec, op_id_base, watchdog);
  return cudaGetLastError();
}

// A recording launch bounded by MaxThreads: the root-only kernel for a recorder
// set to the root's holds alone (gheap_launch.h, root_only_recorder), built for
// the fixed heaps only (judged by the root-release rule); any other heap so
// recorded runs the general recording kernel, which records the same, more slowly.
template <class Key, class P, uint32_t MaxThreads>
cudaError_t launch_recorded(const HeapMemory<Key>& h, const GpuOpBatch<Key>& ops, uint32_t blocks, uint32_t threads,
                            cudaStream_t stream, BasicDeviceRecorderRef<Key> rec, int64_t op_id_base,
                            const cuda_exec::WatchdogRef& watchdog) {
  if constexpr (P::variant == Variant::Fixed && P::mutant == Mutant::None)
    if (root_only_recorder(rec))
      return launch_bounded<Key, P, true, MaxThreads, true>(h, ops, blocks, threads, stream, rec, op_id_base, watchdog);
  return launch_bounded<Key, P, true, MaxThreads>(h, ops, blocks, threads, stream, rec, op_id_base, watchdog);
}

template <class Key, class P, bool Record>
cudaError_t launch(const HeapMemory<Key>& h, const GpuOpBatch<Key>& ops, uint32_t blocks, uint32_t threads,
                   cudaStream_t stream, BasicDeviceRecorderRef<Key> rec, int64_t op_id_base,
                   const cuda_exec::WatchdogRef& watchdog) {
  if constexpr (Record)
    return threads <= 512 ? launch_recorded<Key, P, 512>(h, ops, blocks, threads, stream, rec, op_id_base, watchdog)
                          : launch_recorded<Key, P, 1024>(h, ops, blocks, threads, stream, rec, op_id_base, watchdog);
  else
    return launch_bounded<Key, P, false, 1024>(h, ops, blocks, threads, stream, rec, op_id_base, watchdog);
}

template <class P, class Key>
cudaError_t launch_policy(const HeapMemory<Key>& h, const GpuOpBatch<Key>& ops, uint32_t blocks, uint32_t threads,
                          cudaStream_t stream, const BasicDeviceRecorderRef<Key>* recorder, int64_t op_id_base,
                          const cuda_exec::WatchdogRef* watchdog) {
  const cuda_exec::WatchdogRef wd = watchdog ? *watchdog : cuda_exec::WatchdogRef{};
  return recorder ? launch<Key, P, true>(h, ops, blocks, threads, stream, *recorder, op_id_base, wd)
                  : launch<Key, P, false>(h, ops, blocks, threads, stream, {}, op_id_base, wd);
}

}  // namespace

template <class Key>
cudaError_t launch_heap_batch(Flavor flavor, Variant variant, const HeapMemory<Key>& h, const GpuOpBatch<Key>& ops,
                              uint32_t blocks, uint32_t threads, cudaStream_t stream,
                              const BasicDeviceRecorderRef<std::type_identity_t<Key>>* recorder, int64_t op_id_base,
                              const cuda_exec::WatchdogRef* watchdog, Mutant mutant) {
  const bool fixed = variant == Variant::Fixed;
  const auto go = [&](auto policy) {
    return launch_policy<decltype(policy)>(h, ops, blocks, threads, stream, recorder, op_id_base, watchdog);
  };
  if (mutant == Mutant::LostRootRelease) {
    if constexpr (sizeof(Key) == 4)
      if (flavor == Flavor::TopDown && fixed) return go(HeapPolicy<Flavor::TopDown, Variant::Fixed, Mutant::LostRootRelease>{});
    return cudaErrorInvalidValue;
  }
  if (mutant != Mutant::None) return cudaErrorInvalidValue;
  if (flavor == Flavor::TopDown)
    return fixed ? go(HeapPolicy<Flavor::TopDown, Variant::Fixed>{}) : go(HeapPolicy<Flavor::TopDown, Variant::Paper>{});
  return fixed ? go(HeapPolicy<Flavor::BottomUp, Variant::Fixed>{}) : go(HeapPolicy<Flavor::BottomUp, Variant::Paper>{});
}

// The two key types of the GPU heap: the kernels above, each instantiated twice.
template cudaError_t launch_heap_batch(Flavor, Variant, const HeapMemory<uint32_t>&, const GpuOpBatch<uint32_t>&,
                                       uint32_t, uint32_t, cudaStream_t, const DeviceRecorderRef*, int64_t,
                                       const cuda_exec::WatchdogRef*, Mutant);
template cudaError_t launch_heap_batch(Flavor, Variant, const HeapMemory<uint64_t>&, const GpuOpBatch<uint64_t>&,
                                       uint32_t, uint32_t, cudaStream_t, const DeviceRecorderRef64*, int64_t,
                                       const cuda_exec::WatchdogRef*, Mutant);

}  // namespace gpulin::gheap
