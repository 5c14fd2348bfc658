#include "apps/sssp/graph.h"

#include "apps/sssp/paper_graphs.h"

#include <algorithm>
#include <random>
#include <stdexcept>

namespace gpulin::sssp {

namespace {

uint64_t parse_count(const std::string& s, const std::string& spec) {
  if (s.empty() || s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument("graph '" + spec + "': '" + s + "' is not a number");
  return std::stoull(s);
}

}  // namespace

uint32_t default_source(const Graph& g) {
  if (g.n == 0 || g.offsets[1] > g.offsets[0]) return 0;
  uint32_t hub = 0;
  for (uint32_t u = 1; u < g.n; ++u)
    if (g.offsets[u + 1] - g.offsets[u] > g.offsets[hub + 1] - g.offsets[hub]) hub = u;
  return hub;
}

Graph random_dag(uint32_t n, uint64_t m, uint64_t seed) {
  if (n < 2) throw std::invalid_argument("dag: at least 2 vertices");
  const uint64_t most = uint64_t{n} * (n - 1) / 2;
  if (m < n - 1 || m > most)
    throw std::invalid_argument("dag: " + std::to_string(n) + " vertices take " + std::to_string(n - 1) + " to " +
                                std::to_string(most) + " edges, not " + std::to_string(m));
  std::mt19937_64 rng(seed);
  // How many random edges each vertex gets: each edge to a vertex drawn uniformly
  // among those not yet full (vertex u has room for n - u - 2 besides the chain).
  std::vector<uint32_t> extra(n, 0), open;
  for (uint32_t u = 0; u + 2 < n; ++u) open.push_back(u);
  for (uint64_t e = 0; e < m - (n - 1); ++e) {
    const size_t at = rng() % open.size();
    const uint32_t u = open[at];
    if (++extra[u] == n - u - 2) {
      open[at] = open.back();
      open.pop_back();
    }
  }
  Graph g;
  g.n = n;
  g.offsets.assign(n + 1, 0);
  for (uint32_t u = 0; u < n; ++u) g.offsets[u + 1] = g.offsets[u] + (u + 1 < n ? 1 : 0) + extra[u];
  g.targets.resize(m);
  g.weights.resize(m);
  std::vector<uint32_t> picked;
  std::vector<uint32_t> mark(n, 0);  // mark[v] == u + 1: v drawn for vertex u
  for (uint32_t u = 0; u < n; ++u) {
    uint64_t at = g.offsets[u];
    if (u + 1 < n) g.targets[at] = u + 1, g.weights[at] = 1, ++at;
    // extra[u] distinct targets among u + 2 .. n - 1: drawn when few, the
    // complement drawn when most are taken.
    const uint32_t range = u + 2 < n ? n - u - 2 : 0, k = extra[u];
    const bool few = 2 * uint64_t{k} <= range;
    const uint32_t draws = few ? k : range - k;
    picked.clear();
    while (picked.size() < draws) {
      const uint32_t v = u + 2 + static_cast<uint32_t>(rng() % range);
      if (mark[v] != u + 1) mark[v] = u + 1, picked.push_back(v);
    }
    if (few) {
      std::sort(picked.begin(), picked.end());
    } else {  // the targets are the ones not drawn
      picked.clear();
      for (uint32_t v = u + 2; v < n; ++v)
        if (mark[v] != u + 1) picked.push_back(v);
    }
    for (uint32_t v : picked) g.targets[at] = v, g.weights[at] = 2 * (v - u), ++at;
  }
  return g;
}

Graph make_graph(const std::string& spec, uint64_t seed) {
  const size_t a = spec.find(':'), b = a == std::string::npos ? a : spec.find(':', a + 1);
  for (const auto& [name, make] : {std::pair<const char*, Graph (*)(uint32_t, uint64_t)>{"rgg", random_geometric_graph},
                                   {"kron", kronecker_graph},
                                   {"delaunay", delaunay_graph}})
    if (spec.rfind(std::string(name) + ":", 0) == 0) {
      if (b != std::string::npos) throw std::invalid_argument("graph '" + spec + "': want " + name + ":LOGN");
      const uint64_t logn = parse_count(spec.substr(a + 1), spec);
      if (logn > 26) throw std::invalid_argument("graph '" + spec + "': log n is at most 26");
      return make(static_cast<uint32_t>(logn), seed);
    }
  if (spec.rfind("dag:", 0) != 0 || b == std::string::npos)
    throw std::invalid_argument("graph '" + spec + "': want dag:N:M, rgg:LOGN, kron:LOGN or delaunay:LOGN");
  const uint64_t n = parse_count(spec.substr(a + 1, b - a - 1), spec), m = parse_count(spec.substr(b + 1), spec);
  if (n > (uint64_t{1} << 31)) throw std::invalid_argument("graph '" + spec + "': at most 2^31 vertices");
  return random_dag(static_cast<uint32_t>(n), m, seed);
}

}  // namespace gpulin::sssp
