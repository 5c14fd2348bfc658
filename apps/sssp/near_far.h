// The GPU Delta-stepping baseline of the bucket heap paper's experiments, in the
// near-far form of Davidson et al. (IPDPS 2014) that Gunrock implements: vertices
// whose tentative distance is below the current threshold are relaxed in rounds
// (the near frontier, a warp per vertex over its edges, atomicMin on distances);
// improvements at or past the threshold wait in the far pile, which is split at
// the next threshold, Delta further, when the near frontier runs dry. Written here
// (plain CUDA: the baseline, not a structure of the testbed).
#pragma once

#include <cstdint>
#include <vector>

#include "apps/sssp/graph.h"

namespace gpulin::sssp {

struct NearFarStats {
  uint32_t delta = 0;
  uint64_t rounds = 0, phases = 0;
  double seconds = 0;  // GPU time of the solve (the graph's upload not counted)
};

// Distances from `source` (kUnreached where none). delta 0: Davidson et al.'s choice,
// the average weight times the warp width over the average degree. Throws
// std::runtime_error when the GPU cannot hold the graph and its queues.
std::vector<uint32_t> near_far_sssp(const Graph& g, uint32_t source, uint32_t delta, NearFarStats* stats);

}  // namespace gpulin::sssp
