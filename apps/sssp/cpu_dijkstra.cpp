#include "apps/sssp/cpu_dijkstra.h"

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>

#include <chrono>
#include <limits>
#include <utility>

namespace gpulin::sssp {

std::vector<uint32_t> cpu_dijkstra(const Graph& g, uint32_t source, double* search_seconds) {
  using Csr = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, uint32_t>;
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  edges.reserve(g.edges());
  for (uint32_t u = 0; u < g.n; ++u)
    for (uint64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) edges.emplace_back(u, g.targets[e]);
  // The edges are already sorted by source: the CSR graph takes them as they are.
  Csr csr(boost::edges_are_sorted, edges.begin(), edges.end(), g.weights.begin(), g.n);
  std::vector<uint64_t> dist(g.n);
  const auto t0 = std::chrono::steady_clock::now();
  boost::dijkstra_shortest_paths(
      csr, source,
      boost::weight_map(boost::get(boost::edge_bundle, csr))
          .distance_map(boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, csr)))
          .distance_inf(std::numeric_limits<uint64_t>::max()));
  if (search_seconds) *search_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<uint32_t> out(g.n);
  for (uint32_t v = 0; v < g.n; ++v)
    out[v] = dist[v] == std::numeric_limits<uint64_t>::max() ? kUnreached : static_cast<uint32_t>(dist[v]);
  return out;
}

}  // namespace gpulin::sssp
