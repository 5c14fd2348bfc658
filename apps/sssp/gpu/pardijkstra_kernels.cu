// PARDIJKSTRA on the GPU: the templates of apps/sssp/pardijkstra.h and
// structures/bucket_heap/ on the CUDA context, a persistent block per level (the
// fixed bucket heap, unrecorded). Profiled (a template parameter: a plain run
// compiles no timing), thread 0 of each level block adds the GPU's nanosecond
// clock's steps to the profile's words: level 0 a round's parts (RoundPart), each
// level i > 0 its waits and its RESOLVEs.
#include "apps/sssp/gpu/pardijkstra_launch.h"
#include "cuda/cuda_context.cuh"

namespace gpulin::sssp {

namespace {

using P = bucket_heap::Policy<bucket_heap::Variant::Fixed>;
using X = cuda_exec::CudaContext<cuda_exec::BlockScope, false>;

__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// words[part] += the time since the last mark (words[last] holds it).
struct ClockMarks {
  unsigned long long* words;
  uint32_t last;
  __device__ void mark(uint32_t part) const {
    if (threadIdx.x != 0) return;
    const unsigned long long t = now_ns();
    words[part] += t - words[last];
    words[last] = t;
  }
};
struct RoundClock {
  ClockMarks c;
  __device__ void operator()(RoundPart part) const { c.mark(part); }
};
// A level's RESOLVEs: around(true) ends its wait, around(false) its RESOLVE.
struct LevelClock {
  ClockMarks c;
  __device__ void operator()(bool before) const { c.mark(before ? 0 : 1); }
};

template <bool Profile>
__global__ void __launch_bounds__(1024) pardijkstra_kernel(bucket_heap::View h, GraphView g, uint32_t source,
                                                           uint32_t* dist, RoundScratch r, cuda_exec::WatchdogRef watchdog,
                                                           unsigned long long* profile) {
  __shared__ unsigned long long broadcast[2];
  X x{cuda_exec::BlockScope(broadcast), {}, watchdog};
  const uint32_t level = blockIdx.x;
  if constexpr (Profile) {
    if (threadIdx.x == 0) profile[pardijkstra_profile_last(level)] = now_ns();
  }
  if (level == 0) {
    if constexpr (Profile)
      pardijkstra_rounds<X, P>(x, h, g, source, dist, r, RoundClock{{profile, pardijkstra_profile_last(0)}});
    else
      pardijkstra_rounds<X, P>(x, h, g, source, dist, r);
    return;
  }
  if constexpr (Profile) {
    unsigned long long* words = profile + pardijkstra_profile_level(level);
    bucket_heap::run_level<X, P>(x, h, level, pardijkstra_ops(g.n),
                                 LevelClock{{words, pardijkstra_profile_last(level) - pardijkstra_profile_level(level)}});
  } else {
    bucket_heap::run_level<X, P>(x, h, level, pardijkstra_ops(g.n), bucket_heap::NoChecks{});
  }
}

}  // namespace

cudaError_t launch_pardijkstra(const bucket_heap::View& h, const GraphView& g, uint32_t source, uint32_t* dist,
                               const RoundScratch& r, uint32_t threads, cudaStream_t stream,
                               const cuda_exec::WatchdogRef* watchdog, unsigned long long* profile) {
  const cuda_exec::WatchdogRef w = watchdog ? *watchdog : cuda_exec::WatchdogRef{};
  if (profile) pardijkstra_kernel<true><<<h.levels, threads, 0, stream>>>(h, g, source, dist, r, w, profile);
  else pardijkstra_kernel<false><<<h.levels, threads, 0, stream>>>(h, g, source, dist, r, w, nullptr);
  return cudaGetLastError();
}

}  // namespace gpulin::sssp
