// PARDIJKSTRA's sizing and its GPU run: d is the graph's largest out-degree (the
// BULKUPDATE size, §4.1), the bucket heap gets the levels that hold every vertex and
// the DELETEs on their way, one persistent block each (never more than the SMs).
#pragma once

#include <cstdint>
#include <vector>

#include "apps/sssp/graph.h"

namespace gpulin::sssp {

struct PardijkstraStats {
  uint32_t d = 0, levels = 0;
  double seconds = 0;  // GPU time of the rounds (the graph's upload not counted)
};

uint32_t max_out_degree(const Graph& g);
uint32_t pardijkstra_levels(uint32_t n, uint32_t d);

// Distances from `source` (kUnreached where none). Throws std::runtime_error when the
// GPU cannot hold it or has fewer SMs than the heap has levels.
// `threads`: a level block's threads.
std::vector<uint32_t> pardijkstra_gpu(const Graph& g, uint32_t source, PardijkstraStats* stats, uint32_t threads = 256);

}  // namespace gpulin::sssp
