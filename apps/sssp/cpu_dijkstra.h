// The reference distances: Dijkstra's algorithm from the Boost Graph Library on the
// same graph (its compressed sparse row graph over our arrays' edges).
#pragma once

#include <cstdint>
#include <vector>

#include "apps/sssp/graph.h"

namespace gpulin::sssp {

// Distance from `source` to every vertex (kUnreached where none). `search_seconds`:
// the search's own time, without building BGL's graph (the GPU methods' times leave
// out the graph's upload).
std::vector<uint32_t> cpu_dijkstra(const Graph& g, uint32_t source, double* search_seconds = nullptr);

}  // namespace gpulin::sssp
