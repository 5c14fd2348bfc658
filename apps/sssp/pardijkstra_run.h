// PARDIJKSTRA's GPU run: the bucket heap sized by pardijkstra.h, one persistent block
// a level (never more than the SMs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "apps/sssp/graph.h"

namespace gpulin::sssp {

struct PardijkstraStats {
  uint32_t d = 0, levels = 0;
  double seconds = 0;  // GPU time of the rounds (the graph's upload not counted)
  // Not empty: the GPU watchdog stopped the run (a level waited past its bound), and
  // says who waited on what; the distances returned are then partial.
  std::string stopped;
};

// Distances from `source` (kUnreached where none). Throws std::runtime_error when the
// GPU cannot hold it or has fewer SMs than the heap has levels.
// `threads`: a level block's threads (1024 by default: faster than 256 from d of a few
// hundred on, bench/results/sssp-h100.txt).
std::vector<uint32_t> pardijkstra_gpu(const Graph& g, uint32_t source, PardijkstraStats* stats, uint32_t threads = 1024);

}  // namespace gpulin::sssp
