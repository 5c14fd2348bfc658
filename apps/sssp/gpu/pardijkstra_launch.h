// Host-side entry to PARDIJKSTRA's GPU kernel (pardijkstra_kernels.cu beside it): one
// persistent block per level of the bucket heap, block 0 running the rounds
// (apps/sssp/pardijkstra.h). Plain C++ for host code. It lives with the application,
// not in cuda/, so that cuda/ never includes apps/.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "apps/sssp/pardijkstra.h"
#include "cuda/watchdog.h"

namespace gpulin::sssp {

// With `watchdog`, a level that waits past its bound stops the run and every level
// drains (cuda/watchdog.h); without it such a wait traps.
cudaError_t launch_pardijkstra(const bucket_heap::View& h, const GraphView& g, uint32_t source, uint32_t* dist,
                               const RoundScratch& r, uint32_t threads, cudaStream_t stream,
                               const cuda_exec::WatchdogRef* watchdog = nullptr);

}  // namespace gpulin::sssp
