// The reference distances: Dijkstra's algorithm from the Boost Graph Library on the
// same graph (its compressed sparse row graph over our arrays' edges).
#pragma once

#include <cstdint>
#include <vector>

#include "apps/sssp/graph.h"

namespace gpulin::sssp {

// Distance from `source` to every vertex (kUnreached where none).
std::vector<uint32_t> cpu_dijkstra(const Graph& g, uint32_t source);

}  // namespace gpulin::sssp
