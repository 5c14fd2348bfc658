// The kinds of graph the heap paper's SSSP experiment runs on (§5.7.1, Table 2),
// generated here at any size: a random geometric graph like rgg_n_2_20_s0, a
// Graph500 Kronecker graph like kron_g500_logn20, and the Delaunay triangulation of
// random points like delaunay_n22 (the DIMACS10 set). All undirected (each edge both
// ways, one weight), no self-loops or parallel edges, weights uniform in [1, 64]
// (the DIMACS graphs carry none). Deterministic in `seed`.
#pragma once

#include <cstdint>

#include "apps/sssp/graph.h"

namespace gpulin::sssp {

// 2^logn points uniform in the unit square, joined when closer than
// 0.55 sqrt(ln n / n) (the DIMACS10 rgg_n_2_k radius).
Graph random_geometric_graph(uint32_t logn, uint64_t seed);

// Graph500's generator: 16 * 2^logn edge draws (its edge factor), each recursing
// logn times into the adjacency matrix's quadrants with probabilities A 0.57, B 0.19,
// C 0.19, D 0.05, the vertices then relabelled by a random permutation. At logn 20
// that leaves 15.7 M distinct edges; the DIMACS10 kron_g500-logn20 the paper used has
// 44.6 M (made with a larger edge factor): fewer edges here, the same skew.
// (rgg:20 gives 13.79 M directed edges against rgg_n_2_20_s0's 13.78 M; delaunay has
// 6 a vertex, as delaunay_n22.)
Graph kronecker_graph(uint32_t logn, uint64_t seed);

// The Delaunay triangulation of 2^logn distinct random points (integer coordinates
// below 2^24), from Boost.Polygon's Voronoi diagram (its dual).
Graph delaunay_graph(uint32_t logn, uint64_t seed);

// The undirected graph of `edges` (pairs of vertices below n) in CSR: both
// directions, self-loops and repeats dropped, each edge one weight in [1, 64].
Graph undirected_graph(uint32_t n, std::vector<std::pair<uint32_t, uint32_t>> edges, uint64_t seed);

}  // namespace gpulin::sssp
