// PARDIJKSTRA's GPU run: the bucket heap sized by pardijkstra.h, one persistent block
// a level (never more than the SMs).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "apps/sssp/graph.h"

namespace gpulin::sssp {

struct PardijkstraStats {
  uint32_t d = 0, levels = 0, threads = 0;  // threads: a level block's
  double seconds = 0;  // GPU time of the rounds (the graph's upload not counted)
  // Not empty: the GPU watchdog stopped the run (a level waited past its bound), and
  // says who waited on what; the distances returned are then partial.
  std::string stopped;
  // Profiled runs only: level 0's seconds in each part of its rounds (RoundPart,
  // kRoundPartNames: pardijkstra.h), and each level i > 0's seconds waiting for its
  // turn and resolving, at i - 1. The GPU's clock as thread 0 of each block reads it.
  std::vector<double> round_parts;
  std::vector<double> resolve_steps;  // level 0's RESOLVE(0)s, each ResolveStep's seconds (in round_parts' kResolve)
  std::vector<std::pair<double, double>> level_wait_resolve;
};

// Distances from `source` (kUnreached where none). Throws std::runtime_error when the
// GPU cannot hold it or has fewer SMs than the heap has levels.
// A level block's threads for a graph of largest out-degree d: 512 up to d = 8192,
// 1024 past it, the faster of the two on each side (bench/results/sssp-h200.txt).
// Each block size runs a kernel instance whose registers are budgeted for it
// (gpu/pardijkstra_kernels.cu).
constexpr uint32_t pardijkstra_threads(uint32_t d) { return d <= 8192 ? 512 : 1024; }

// `threads`: a level block's threads, or 0 for pardijkstra_threads(d).
std::vector<uint32_t> pardijkstra_gpu(const Graph& g, uint32_t source, PardijkstraStats* stats, uint32_t threads = 0,
                                      bool profile = false);

}  // namespace gpulin::sssp
