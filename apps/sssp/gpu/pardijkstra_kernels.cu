// PARDIJKSTRA on the GPU: the templates of apps/sssp/pardijkstra.h and
// structures/bucket_heap/ on the CUDA context, a persistent block per level
// (PardijkstraPolicy's bucket heap, unrecorded). Profiled (a template parameter: a
// plain run compiles no timing), thread 0 of each level block adds the GPU's nanosecond
// clock's steps to the profile's words: level 0 a round's parts (RoundPart), each
// level i > 0 its waits and its RESOLVEs.
#include <type_traits>

#include "apps/sssp/gpu/pardijkstra_launch.h"
#include "cuda/cuda_context.cuh"

namespace gpulin::sssp {

namespace {

using P = PardijkstraPolicy;
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
  __device__ void operator()(bucket_heap::ResolveMark m) const { c.mark(pardijkstra_profile_step(m.step)); }
};
// A level's RESOLVEs: around(true) ends its wait, around(false) its RESOLVE.
struct LevelClock {
  ClockMarks c;
  __device__ void operator()(bool before) const { c.mark(before ? 0 : 1); }
};

// MaxThreads: the block size the registers are budgeted for (a thread may use up to
// 65536 / MaxThreads of them): at 1024 the kernel spills to local memory, at 256 it
// does not (ptxas -v), so smaller level blocks run an instance of their own.
template <bool Profile, uint32_t MaxThreads>
__global__ void __launch_bounds__(MaxThreads) pardijkstra_kernel(bucket_heap::View h, GraphView g, uint32_t source,
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

namespace {

template <bool Profile, uint32_t MaxThreads>
cudaError_t launch(const bucket_heap::View& h, const GraphView& g, uint32_t source, uint32_t* dist, const RoundScratch& r,
                   uint32_t threads, cudaStream_t stream, const cuda_exec::WatchdogRef& w, unsigned long long* profile) {
  pardijkstra_kernel<Profile, MaxThreads><<<h.levels, threads, 0, stream>>>(h, g, source, dist, r, w, profile);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_pardijkstra(const bucket_heap::View& h, const GraphView& g, uint32_t source, uint32_t* dist,
                               const RoundScratch& r, uint32_t threads, cudaStream_t stream,
                               const cuda_exec::WatchdogRef* watchdog, unsigned long long* profile) {
  const cuda_exec::WatchdogRef w = watchdog ? *watchdog : cuda_exec::WatchdogRef{};
  auto go = [&](auto profiled, auto max_threads) {
    return launch<decltype(profiled)::value, decltype(max_threads)::value>(
        h, g, source, dist, r, threads, stream, w, profile);
  };
  using Yes = std::true_type;
  using No = std::false_type;
  using T256 = std::integral_constant<uint32_t, 256>;
  using T512 = std::integral_constant<uint32_t, 512>;
  using T1024 = std::integral_constant<uint32_t, 1024>;
  if (threads <= 256) return profile ? go(Yes{}, T256{}) : go(No{}, T256{});
  if (threads <= 512) return profile ? go(Yes{}, T512{}) : go(No{}, T512{});
  return profile ? go(Yes{}, T1024{}) : go(No{}, T1024{});
}

}  // namespace gpulin::sssp
