// Who the actor is on the GPU (structures/exec/context.h, "actors"): a thread block
// (the heap's operations) or a warp (the merge's roles, the slab hash's work
// queue). The execution context (cuda/cuda_context.cuh) is one template over the
// scope; the scope says which threads run actor-uniform code together, which of
// them performs a shared-word access, how its result reaches the others, and which
// recording buffer is the actor's.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "structures/exec/word_pair.h"

namespace gpulin::cuda_exec {

// The default "also" of from_two_lanes: nothing more in flight.
struct Nothing {
  __device__ __forceinline__ void operator()() const {}
};

// The actor is the thread block: every thread of the block runs actor-uniform code;
// thread 0 performs, and its result is broadcast through two words of shared memory
// owned by the scope. Broadcasts alternate between them, so a thread still reading
// one value never races the next write: that write comes after at least one more
// barrier.
class BlockScope {
 public:
  __device__ explicit BlockScope(unsigned long long* broadcast) : bcast_(broadcast) {}
  __device__ __forceinline__ uint32_t rank() const { return threadIdx.x; }
  __device__ __forceinline__ uint32_t size() const { return blockDim.x; }
  __device__ __forceinline__ void sync() const { __syncthreads(); }
  // The recording buffer and the actor id in histories: the block's index.
  __device__ __forceinline__ uint32_t actor() const { return blockIdx.x; }
  // f() run by thread 0, its value returned to every thread of the block.
  template <class T, class F>
  __device__ __forceinline__ T from_leader(F&& f) {
    static_assert(sizeof(T) <= sizeof(unsigned long long), "broadcast words are 64-bit");
    unsigned long long* b = next_slot();
    if (threadIdx.x == 0) *b = static_cast<unsigned long long>(f());
    __syncthreads();
    return static_cast<T>(*b);
  }
  // f(0) run by thread 0 and f(1) by thread 1 - one instruction of the first warp,
  // so two accesses in flight together - both values returned to every thread.
  // `also()`, run by every thread after f is issued, puts more in flight before the
  // one barrier (a batch's loads beside the two words).
  template <class F, class G = Nothing>
  __device__ __forceinline__ exec::WordPair from_two_lanes(F&& f, G&& also = {}) {
    unsigned long long* b = next_slot();
    uint32_t v = 0;
    if (threadIdx.x < 2) v = static_cast<uint32_t>(f(threadIdx.x));
    also();
    if (threadIdx.x < 2) reinterpret_cast<uint32_t*>(b)[threadIdx.x] = v;
    __syncthreads();
    const uint32_t* w = reinterpret_cast<const uint32_t*>(b);
    return {w[0], w[1]};
  }

 private:
  __device__ __forceinline__ unsigned long long* next_slot() {
    slot_ ^= 1u;
    return bcast_ + slot_;
  }
  unsigned long long* bcast_;
  uint32_t slot_ = 0;
};

// The actor is a warp: its 32 lanes run actor-uniform code (all lanes active, as
// the paper's warp-cooperative work sharing requires, slab hash §IV-A); lane 0
// performs and __shfl_sync broadcasts. No shared memory.
class WarpScope {
 public:
  static constexpr uint32_t kFullMask = 0xffffffffu;
  __device__ __forceinline__ uint32_t rank() const { return threadIdx.x & 31; }
  __device__ __forceinline__ uint32_t size() const { return 32; }
  __device__ __forceinline__ void sync() const { __syncwarp(); }
  // The grid-wide warp index (the recording buffer, and the actor in histories).
  __device__ __forceinline__ uint32_t actor() const { return blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; }
  template <class T, class F>
  __device__ __forceinline__ T from_leader(F&& f) {
    T v{};
    if ((threadIdx.x & 31) == 0) v = static_cast<T>(f());
    return __shfl_sync(kFullMask, v, 0);
  }
  template <class F, class G = Nothing>
  __device__ __forceinline__ exec::WordPair from_two_lanes(F&& f, G&& also = {}) {
    const uint32_t lane = threadIdx.x & 31;
    uint32_t v = 0;
    if (lane < 2) v = static_cast<uint32_t>(f(lane));
    also();
    __syncwarp();
    return {__shfl_sync(kFullMask, v, 0), __shfl_sync(kFullMask, v, 1)};
  }
};

}  // namespace gpulin::cuda_exec
