// Shared-memory transaction barriers (mbarrier) and the bulk copy engine on the
// GPU: the instructions behind the context's barrier operations
// (structures/exec/context.h, "transaction barriers"), as the merge kernel issued
// them before the context existed, so instantiating an algorithm on the context
// costs the kernel nothing.
//
// Hopper (sm_90): cp.async.bulk completes on an mbarrier; older architectures
// (sm_80+) compile a plain fallback for the copies (correct, not tuned).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gpulin::cuda_exec::barrier {

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void copy16(void* dst, const void* src) {
  *static_cast<uint4*>(dst) = *static_cast<const uint4*>(src);
}

// The barriers' initialisation, visible to the bulk copy engine (async proxy)
// before any copy completes on them.
__device__ __forceinline__ void publish_init() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

__device__ __forceinline__ void init(uint64_t* bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
__device__ __forceinline__ void arrive(uint64_t* bar) {
  uint64_t state;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(smem_addr(bar)) : "memory");
}
__device__ __forceinline__ void wait(uint64_t* bar, uint32_t parity) {
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
__device__ __forceinline__ void arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
}
__device__ __forceinline__ void wait(uint64_t* bar, uint32_t parity) {
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
__device__ __forceinline__ void expect_bytes(uint64_t* bar, uint32_t n) {
  // The stage about to be overwritten by the copy engine (async proxy) was last
  // read by ordinary loads (generic proxy), ordered before by the empty barrier.
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(n) : "memory");
}
__device__ __forceinline__ void bulk_load(void* dst, const void* src, uint32_t n, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(smem_addr(dst)),
      "l"(src), "r"(n), "r"(smem_addr(bar))
      : "memory");
}
#else
// Before Hopper (no bulk copy engine): the copy thread copies synchronously; the
// full barrier's arrival still orders the data for the consumers.
__device__ __forceinline__ void expect_bytes(uint64_t*, uint32_t) {}
__device__ __forceinline__ void bulk_load(void* dst, const void* src, uint32_t n, uint64_t*) {
  for (uint32_t i = 0; i < n; i += 16) copy16(static_cast<char*>(dst) + i, static_cast<const char*>(src) + i);
}
#endif

}  // namespace gpulin::cuda_exec::barrier
