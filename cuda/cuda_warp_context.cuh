// The warp-role execution context on the GPU (structures/exec/context.h, "warp-role
// contexts"), used by the global merge (structures/merge_path/global_merge.h): every
// operation is the hardware instruction the merge kernel issued before the context
// existed (mbarriers, cp.async.bulk on sm_90, __syncwarp, 16-byte vector copies), so
// instantiating the algorithm on it costs the kernel nothing.
//
// Hopper (sm_90): a window's A and B sub-arrays arrive in shared memory by the bulk
// copy engine (cp.async.bulk, completing on an mbarrier); older architectures
// (sm_80+) compile a plain fallback for the copies (correct, not tuned).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gpulin::cuda_exec {

class CudaWarpContext {
 public:
  // Ids (structures/exec/context.h, warp-role contexts): the hardware's.
  __device__ __forceinline__ uint32_t warp() const { return threadIdx.x / 32; }
  __device__ __forceinline__ uint64_t block() const { return blockIdx.x; }
  __device__ __forceinline__ uint64_t blocks() const { return gridDim.x; }
  __device__ __forceinline__ bool first_thread() const { return threadIdx.x == 0; }
  __device__ __forceinline__ bool leader() const { return (threadIdx.x & 31) == 0; }
  __device__ __forceinline__ void block_sync() const { __syncthreads(); }
  // The barriers' initialisation, visible to the bulk copy engine (async proxy)
  // before any copy completes on them.
  __device__ __forceinline__ void publish_barrier_init() const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
  }

  // Per-thread values across warp steps: the calling thread's registers (indexed
  // with constants only, in fully unrolled loops).
  template <class T, uint32_t N>
  struct Regs {
    T v[N];
    __device__ __forceinline__ T* of(uint32_t) { return v; }
  };
  template <class F>
  __device__ __forceinline__ void for_each_lane(F&& f) const {
    f(static_cast<uint32_t>(threadIdx.x & 31));
  }
  __device__ __forceinline__ void warp_sync() const { __syncwarp(); }
  // Lane collectives over the full warp: each lane evaluates the function for its
  // own lane, the hardware combines.
  template <class F>
  __device__ __forceinline__ uint32_t ballot(F&& pred) const {
    return __ballot_sync(0xffffffffu, pred(static_cast<uint32_t>(threadIdx.x & 31)));
  }
  template <class F>
  __device__ __forceinline__ auto shuffle(F&& value_of, uint32_t src_lane) const {
    return __shfl_sync(0xffffffffu, value_of(static_cast<uint32_t>(threadIdx.x & 31)), static_cast<int>(src_lane));
  }
  __device__ __forceinline__ void copy16(void* dst, const void* src) const {
    *static_cast<uint4*>(dst) = *static_cast<const uint4*>(src);
  }
  static __device__ __forceinline__ uint32_t smem_addr(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
  }
  __device__ __forceinline__ void init_barrier(uint64_t* bar, uint32_t count) const {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
  }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __device__ __forceinline__ void arrive(uint64_t* bar) const {
    uint64_t state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(smem_addr(bar)) : "memory");
  }
  __device__ __forceinline__ void wait(uint64_t* bar, uint32_t parity) const {
    uint32_t done = 0;
    do {
      asm volatile(
          "{\n\t.reg .pred p;\n\t"
          "mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n\t"
          "selp.u32 %0, 1, 0, p;\n\t}"
          : "=r"(done)
          : "r"(smem_addr(bar)), "r"(parity)
          : "memory");
    } while (!done);
  }
#else
  __device__ __forceinline__ void arrive(uint64_t* bar) const {
    asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
  }
  __device__ __forceinline__ void wait(uint64_t* bar, uint32_t parity) const {
    uint32_t done = 0;
    do {
      asm volatile(
          "{\n\t.reg .pred p;\n\t"
          "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2;\n\t"
          "selp.u32 %0, 1, 0, p;\n\t}"
          : "=r"(done)
          : "r"(smem_addr(bar)), "r"(parity)
          : "memory");
    } while (!done);
  }
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __device__ __forceinline__ void expect_bytes(uint64_t* bar, uint32_t n) const {
    // The stage about to be overwritten by the copy engine (async proxy) was last
    // read by ordinary loads (generic proxy), ordered before by the empty barrier.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(n)
                 : "memory");
  }
  __device__ __forceinline__ void bulk_load(void* dst, const void* src, uint32_t n, uint64_t* bar) const {
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
            smem_addr(dst)),
        "l"(src), "r"(n), "r"(smem_addr(bar))
        : "memory");
  }
#else
  // Before Hopper (no bulk copy engine): the copy thread copies synchronously; the
  // full barrier's arrival still orders the data for the consumers.
  __device__ __forceinline__ void expect_bytes(uint64_t*, uint32_t) const {}
  __device__ __forceinline__ void bulk_load(void* dst, const void* src, uint32_t n, uint64_t*) const {
    for (uint32_t i = 0; i < n; i += 16) copy16(static_cast<char*>(dst) + i, static_cast<const char*>(src) + i);
  }
#endif
};

}  // namespace gpulin::cuda_exec
