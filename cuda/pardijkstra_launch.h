// Host-side entry to PARDIJKSTRA's GPU kernel (cuda/pardijkstra_kernels.cu): one
// persistent block per level of the bucket heap, block 0 running the rounds
// (apps/sssp/pardijkstra.h). Plain C++ for host code.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "apps/sssp/pardijkstra.h"

namespace gpulin::sssp {

cudaError_t launch_pardijkstra(const bucket_heap::View& h, const GraphView& g, uint32_t source, uint32_t* dist,
                               const RoundScratch& r, uint32_t threads, cudaStream_t stream);

}  // namespace gpulin::sssp
