// Who the actor is on the GPU (structures/exec/context.h, "actors"): a thread block
// (the heap's operations), a warp (the merge's roles, the slab hash's work queue) or
// a tile of 16 or 8 lanes of a warp (the slab hash's operations on tiles). The
// execution context (cuda/cuda_context.cuh) is one template over the scope; the scope says which threads run actor-uniform code together, which of
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

// The actor is a group of G lanes of one warp: the warp itself (G = 32, WarpScope:
// all lanes active, as the paper's warp-cooperative work sharing requires, slab
// hash §IV-A) or a tile of 16 or 8 of its lanes (the slab hash's operations on
// tiles, structures/slab_hash/slab_lanes.h), each tile an actor of its own. Its
// lane 0 performs and __shfl_sync over the group's lanes broadcasts. No shared
// memory. The group's collectives name only its own lanes, so the tiles of a warp
// may diverge from one another.
template <uint32_t G>
class LaneGroupScope {
  static_assert(G == 32 || G == 16 || G == 8, "a warp, or a tile of 16 or 8 lanes");

 public:
  static constexpr uint32_t kLanes = G;
  // A tile reads its lane afresh where it needs it (volatile: not kept in a register
  // through the operation, where the 32-register kernels have none to spare).
  __device__ __forceinline__ static uint32_t warp_lane() {
    if constexpr (G == 32) {
      return threadIdx.x & 31;
    } else {
      uint32_t l;
      asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
      return l;
    }
  }
  __device__ __forceinline__ uint32_t rank() const { return warp_lane() & (G - 1); }
  __device__ __forceinline__ uint32_t size() const { return G; }
  // The group's lanes in its warp, and where they start.
  __device__ __forceinline__ uint32_t shift() const { return warp_lane() & ~(G - 1); }
  __device__ __forceinline__ uint32_t mask() const {
    if constexpr (G == 32) return 0xffffffffu;
    else return ((1u << G) - 1) << shift();
  }
  __device__ __forceinline__ void sync() const { __syncwarp(mask()); }
  // The grid-wide group index (the recording buffer, and the actor in histories).
  __device__ __forceinline__ uint32_t actor() const { return (blockIdx.x * blockDim.x + threadIdx.x) / G; }
  // The group's ballot, bit l for its lane l.
  __device__ __forceinline__ uint32_t ballot(bool p) const {
    if constexpr (G == 32) return __ballot_sync(mask(), p);
    else return (__ballot_sync(mask(), p) >> shift()) & ((1u << G) - 1);
  }
  template <class T>
  __device__ __forceinline__ T shfl(T v, uint32_t src) const {
    return __shfl_sync(mask(), v, static_cast<int>(src), G);
  }
  template <class T, class F>
  __device__ __forceinline__ T from_leader(F&& f) {
    T v{};
    if (rank() == 0) v = static_cast<T>(f());
    return shfl(v, 0);
  }
  template <class F, class H = Nothing>
  __device__ __forceinline__ exec::WordPair from_two_lanes(F&& f, H&& also = {}) {
    const uint32_t lane = rank();
    uint32_t v = 0;
    if (lane < 2) v = static_cast<uint32_t>(f(lane));
    also();
    sync();
    return {shfl(v, 0), shfl(v, 1)};
  }
};

using WarpScope = LaneGroupScope<32>;
template <uint32_t G>
using TileScope = LaneGroupScope<G>;

template <class Scope>
inline constexpr bool is_lane_group_scope_v = false;
template <uint32_t G>
inline constexpr bool is_lane_group_scope_v<LaneGroupScope<G>> = true;

}  // namespace gpulin::cuda_exec
