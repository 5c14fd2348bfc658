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
#include <cstdio>

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

// A barrier that never completes (a lost arrival, a copy of the wrong size) must
// not hang the GPU: past this many unsuccessful tests a wait traps with a message.
// try_wait suspends the thread for a while before it fails (sm_90), test_wait does
// not; 2^26 failures is seconds to minutes, far beyond a stage of a correct merge.
// (No watchdog here: these barriers are a block's own, with no lock and no history.)
inline constexpr uint64_t kBarrierWaitBound = uint64_t{1} << 26;
__device__ __forceinline__ void wait_bound_exceeded(uint64_t tries) {
  if (tries == kBarrierWaitBound) {
    printf("gpulin: block %u thread %u: an mbarrier wait that never completed\n", blockIdx.x, threadIdx.x);
    __trap();
  }
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
  for (uint64_t tries = 0;; wait_bound_exceeded(++tries)) {
    asm volatile(
        "{\n\t.reg .pred p;\n\t"
        "mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(smem_addr(bar)), "r"(parity)
        : "memory");
    if (done) return;
  }
}
#else
__device__ __forceinline__ void arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
}
__device__ __forceinline__ void wait(uint64_t* bar, uint32_t parity) {
  uint32_t done = 0;
  for (uint64_t tries = 0;; wait_bound_exceeded(++tries)) {
    asm volatile(
        "{\n\t.reg .pred p;\n\t"
        "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(smem_addr(bar)), "r"(parity)
        : "memory");
    if (done) return;
  }
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
