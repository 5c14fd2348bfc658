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

// The profile's words (device memory, zeroed, pardijkstra_profile_words(levels)):
// level 0's time in each RoundPart at 0 .. kRoundParts - 1 (RESOLVE(0)'s steps at
// pardijkstra_profile_step, apart from its part); level i > 0's waits and
// RESOLVEs at pardijkstra_profile_level(i) and the word after; each level's last
// clock reading at pardijkstra_profile_last(i). Nanoseconds of the GPU's clock.
constexpr uint32_t pardijkstra_profile_level(uint32_t level) { return kRoundParts + 2 * (level - 1); }
// RESOLVE(0)'s steps (bucket_heap::ResolveStep), whose time the RESOLVE(0) part leaves out.
constexpr uint32_t pardijkstra_profile_step(uint32_t step) { return 512 + step; }
constexpr uint32_t pardijkstra_profile_last(uint32_t level) { return 1024 + level; }
constexpr uint32_t pardijkstra_profile_words(uint32_t levels) { return 1024 + levels; }

// With `watchdog`, a level that waits past its bound stops the run and every level
// drains (cuda/watchdog.h); without it such a wait traps. With `profile` (the
// words above), each level block's thread 0 times its parts.
cudaError_t launch_pardijkstra(const bucket_heap::View& h, const GraphView& g, uint32_t source, uint32_t* dist,
                               const RoundScratch& r, uint32_t threads, cudaStream_t stream,
                               const cuda_exec::WatchdogRef* watchdog = nullptr, unsigned long long* profile = nullptr);

}  // namespace gpulin::sssp
