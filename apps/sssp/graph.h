// A weighted directed graph in compressed sparse rows (vertex u's edges at
// [offsets[u], offsets[u + 1]) of targets and weights), and the graphs the SSSP
// experiments run on. Vertices are 0-based here; the bucket heap paper's 1-based
// vertex i is vertex i - 1.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpulin::sssp {

inline constexpr uint32_t kUnreached = 0xffffffffu;

struct Graph {
  uint32_t n = 0;
  std::vector<uint64_t> offsets;  // n + 1
  std::vector<uint32_t> targets, weights;
  uint64_t edges() const { return targets.size(); }
};

// The random DAGs of the bucket heap paper (§4.2): n vertices, m >= n - 1 edges. The
// chain (i, i + 1) of weight 1 makes every shortest path and the diameter n - 1; the
// other m - n + 1 edges (u, v), u < v, are spread uniformly over the vertices that
// still have room (vertex u has at most n - u - 1 targets besides the chain's: no
// edge twice), each of weight 2 (v - u), so no shortcut exists. Deterministic in
// `seed`. Throws std::invalid_argument when m is out of range.
Graph random_dag(uint32_t n, uint64_t m, uint64_t seed);

// The source a run takes when none is named: vertex 0 when it has an out-edge,
// else the vertex of most out-edges (the Graph500 Kronecker graphs leave many
// vertices isolated, vertex 0 among them: a search from it ends at once).
uint32_t default_source(const Graph& g);

// "dag:N:M" (N vertices, M edges), "rgg:LOGN", "kron:LOGN", "delaunay:LOGN"
// (apps/sssp/paper_graphs.h) -> the graph; throws std::invalid_argument naming the
// problem.
Graph make_graph(const std::string& spec, uint64_t seed);

}  // namespace gpulin::sssp
