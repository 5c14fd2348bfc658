#include "apps/sssp/frontier_run.h"

#include <stdexcept>

namespace gpulin::sssp {

void check_frontier_graph(const Graph& g, uint32_t source) {
  if (source >= g.n) throw std::invalid_argument("sssp frontier: the source is not a vertex");
  uint64_t heaviest = 0;
  for (uint32_t w : g.weights) heaviest = w > heaviest ? w : heaviest;
  // A shortest path has at most n - 1 edges.
  if (heaviest * (g.n > 0 ? g.n - 1 : 0) >= (uint64_t{1} << 31))
    throw std::invalid_argument("sssp frontier: distances could reach 2^31 (n - 1 times the heaviest edge), past a key's "
                                "upper half");
}

}  // namespace gpulin::sssp
