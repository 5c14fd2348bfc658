#include "apps/sssp/paper_graphs.h"

#include <boost/polygon/voronoi.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

namespace gpulin::sssp {

namespace {

void check_logn(uint32_t logn, uint32_t most, const char* what) {
  if (logn < 1 || logn > most)
    throw std::invalid_argument(std::string(what) + ": log n is 1 to " + std::to_string(most));
}

}  // namespace

Graph undirected_graph(uint32_t n, std::vector<std::pair<uint32_t, uint32_t>> edges, uint64_t seed) {
  for (auto& [u, v] : edges)
    if (u > v) std::swap(u, v);
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  edges.erase(std::remove_if(edges.begin(), edges.end(), [](const auto& e) { return e.first == e.second; }),
              edges.end());
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  std::uniform_int_distribution<uint32_t> weight_of(1, 64);
  std::vector<uint32_t> weight(edges.size());
  for (uint32_t& w : weight) w = weight_of(rng);
  Graph g;
  g.n = n;
  g.offsets.assign(uint64_t{n} + 1, 0);
  for (const auto& [u, v] : edges) ++g.offsets[u + 1], ++g.offsets[v + 1];
  std::partial_sum(g.offsets.begin(), g.offsets.end(), g.offsets.begin());
  g.targets.resize(2 * edges.size());
  g.weights.resize(2 * edges.size());
  std::vector<uint64_t> at(g.offsets.begin(), g.offsets.end() - 1);
  for (size_t i = 0; i < edges.size(); ++i) {
    const auto [u, v] = edges[i];
    g.targets[at[u]] = v, g.weights[at[u]++] = weight[i];
    g.targets[at[v]] = u, g.weights[at[v]++] = weight[i];
  }
  return g;
}

Graph random_geometric_graph(uint32_t logn, uint64_t seed) {
  check_logn(logn, 26, "rgg");
  const uint32_t n = 1u << logn;
  const double r = 0.55 * std::sqrt(std::log(double(n)) / n);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> coord(0.0, 1.0);
  std::vector<double> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = coord(rng), y[i] = coord(rng);
  // Cells of side >= r: a point's neighbours are in its cell and the 8 around it.
  const uint32_t side = std::max<uint32_t>(1, static_cast<uint32_t>(1.0 / r));
  auto cell_of = [&](uint32_t i) {
    const uint32_t cx = std::min(side - 1, static_cast<uint32_t>(x[i] * side));
    const uint32_t cy = std::min(side - 1, static_cast<uint32_t>(y[i] * side));
    return uint64_t{cy} * side + cx;
  };
  std::vector<uint64_t> start(uint64_t{side} * side + 1, 0);
  for (uint32_t i = 0; i < n; ++i) ++start[cell_of(i) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<uint32_t> in_cell(n);
  std::vector<uint64_t> fill(start.begin(), start.end() - 1);
  for (uint32_t i = 0; i < n; ++i) in_cell[fill[cell_of(i)]++] = i;
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  for (uint32_t i = 0; i < n; ++i) {
    const int64_t cx = cell_of(i) % side, cy = cell_of(i) / side;
    for (int64_t dy = -1; dy <= 1; ++dy)
      for (int64_t dx = -1; dx <= 1; ++dx) {
        const int64_t ox = cx + dx, oy = cy + dy;
        if (ox < 0 || oy < 0 || ox >= side || oy >= side) continue;
        const uint64_t c = uint64_t(oy) * side + uint64_t(ox);
        for (uint64_t k = start[c]; k < start[c + 1]; ++k) {
          const uint32_t j = in_cell[k];
          const double ddx = x[i] - x[j], ddy = y[i] - y[j];
          if (i < j && ddx * ddx + ddy * ddy < r * r) edges.emplace_back(i, j);
        }
      }
  }
  return undirected_graph(n, std::move(edges), seed);
}

Graph kronecker_graph(uint32_t logn, uint64_t seed) {
  check_logn(logn, 26, "kron");
  const uint32_t n = 1u << logn;
  const uint64_t m = 16ull * n;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  constexpr double a = 0.57, b = 0.19, c = 0.19;
  std::vector<uint32_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0u);
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  edges.reserve(m);
  for (uint64_t e = 0; e < m; ++e) {
    uint32_t u = 0, v = 0;
    for (uint32_t bit = 0; bit < logn; ++bit) {
      const double p = unit(rng);
      const uint32_t down = p >= a + b, right = (p >= a && p < a + b) || p >= a + b + c;
      u = u << 1 | down, v = v << 1 | right;
    }
    edges.emplace_back(perm[u], perm[v]);
  }
  return undirected_graph(n, std::move(edges), seed);
}

Graph delaunay_graph(uint32_t logn, uint64_t seed) {
  check_logn(logn, 24, "delaunay");
  const uint32_t n = 1u << logn;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int32_t> coord(0, (1 << 24) - 1);
  // Distinct points (Voronoi cells need distinct sites): draw, drop repeats, draw
  // again for what is missing. Packed as x << 32 | y, so sorted by x.
  std::vector<uint64_t> packed;
  while (packed.size() < n) {
    while (packed.size() < n) packed.push_back(uint64_t(coord(rng)) << 32 | uint32_t(coord(rng)));
    std::sort(packed.begin(), packed.end());
    packed.erase(std::unique(packed.begin(), packed.end()), packed.end());
  }
  std::vector<boost::polygon::point_data<int32_t>> points;
  points.reserve(n);
  for (uint64_t p : packed) points.emplace_back(int32_t(p >> 32), int32_t(uint32_t(p)));
  boost::polygon::voronoi_diagram<double> vd;
  boost::polygon::construct_voronoi(points.begin(), points.end(), &vd);
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  edges.reserve(3ull * n);
  for (const auto& e : vd.edges()) {
    if (!e.is_primary()) continue;
    const auto u = static_cast<uint32_t>(e.cell()->source_index());
    const auto v = static_cast<uint32_t>(e.twin()->cell()->source_index());
    if (u < v) edges.emplace_back(u, v);  // each Voronoi edge and its twin: one Delaunay edge
  }
  return undirected_graph(n, std::move(edges), seed);
}

}  // namespace gpulin::sssp
