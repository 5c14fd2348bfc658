// A random sparse graph for SSSP tests: n vertices of 0 to max_degree - 1 edges to
// random targets, weights below max_weight, so that some vertices reach nothing and
// some are never reached.
#pragma once

#include <random>

#include "apps/sssp/graph.h"

namespace gpulin::sssp::test {

inline Graph sparse_graph(uint32_t n, uint32_t max_degree, uint32_t max_weight, std::mt19937_64& rng) {
  Graph g;
  g.n = n;
  g.offsets.assign(n + 1, 0);
  for (uint32_t u = 0; u < n; ++u) {
    const uint32_t deg = rng() % max_degree;
    for (uint32_t i = 0; i < deg; ++i) g.targets.push_back(rng() % n), g.weights.push_back(rng() % max_weight);
    g.offsets[u + 1] = g.targets.size();
  }
  return g;
}

}  // namespace gpulin::sssp::test
