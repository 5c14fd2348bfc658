// The SSSP frontier loop (apps/sssp/frontier.h) in the simulator: each actor a block
// of the GPU run, one schedule of the strategy, the heap's operations recorded -
// `gpulin sssp --method frontier --backend sim` and the CPU tests.
#pragma once

#include <string>

#include "apps/sssp/frontier_run.h"
#include "apps/sssp/graph.h"
#include "sim/simulator.h"
#include "sim/strategy.h"

namespace gpulin::explore {

struct FrontierSimResult {
  sssp::FrontierResult result;  // outcome "completed" or the simulator's message
  sim::RunResult run;
};

// Uses o.actors, o.lanes, o.k, o.threshold, o.with_heap, o.flavor, o.record,
// o.max_points, o.heap_keys. Throws std::invalid_argument for options out of range.
FrontierSimResult frontier_sim(const sssp::Graph& g, const std::string& graph_name, uint32_t source,
                               const sssp::FrontierOptions& o, sim::Strategy& strategy);

}  // namespace gpulin::explore
