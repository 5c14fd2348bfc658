// PARDIJKSTRA in the simulator (apps/sssp/pardijkstra.h on sim/sim_context.h): the
// rounds on actor 0, each level of the bucket heap an actor, one schedule of the
// strategy - `gpulin sssp --method pardijkstra --backend sim` on small graphs.
#pragma once

#include <cstdint>
#include <vector>

#include "apps/sssp/graph.h"
#include "sim/simulator.h"
#include "sim/strategy.h"

namespace gpulin::explore {

// Distances from `source` (sssp::kUnreached where none); the run's outcome in *run.
std::vector<uint32_t> pardijkstra_sim(const sssp::Graph& g, uint32_t source, sim::Strategy& strategy,
                                      uint64_t max_points, sim::RunResult* run);

}  // namespace gpulin::explore
