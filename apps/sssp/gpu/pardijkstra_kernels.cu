// PARDIJKSTRA on the GPU: the templates of apps/sssp/pardijkstra.h and
// structures/bucket_heap/ on the CUDA context, a persistent block per level (the
// fixed bucket heap, unrecorded).
#include "apps/sssp/gpu/pardijkstra_launch.h"
#include "cuda/cuda_context.cuh"

namespace gpulin::sssp {

namespace {

using P = bucket_heap::Policy<bucket_heap::Variant::Fixed>;
using X = cuda_exec::CudaContext<cuda_exec::BlockScope, false>;

__global__ void __launch_bounds__(1024) pardijkstra_kernel(bucket_heap::View h, GraphView g, uint32_t source,
                                                           uint32_t* dist, RoundScratch r, cuda_exec::WatchdogRef watchdog) {
  __shared__ unsigned long long broadcast[2];
  X x{cuda_exec::BlockScope(broadcast), {}, watchdog};
  const uint32_t level = blockIdx.x;
  if (level == 0) {
    pardijkstra_rounds<X, P>(x, h, g, source, dist, r);
    return;
  }
  bucket_heap::run_level<X, P>(x, h, level, pardijkstra_ops(g.n), bucket_heap::NoChecks{});
}

}  // namespace

cudaError_t launch_pardijkstra(const bucket_heap::View& h, const GraphView& g, uint32_t source, uint32_t* dist,
                               const RoundScratch& r, uint32_t threads, cudaStream_t stream,
                               const cuda_exec::WatchdogRef* watchdog) {
  pardijkstra_kernel<<<h.levels, threads, 0, stream>>>(h, g, source, dist, r,
                                                       watchdog ? *watchdog : cuda_exec::WatchdogRef{});
  return cudaGetLastError();
}

}  // namespace gpulin::sssp
