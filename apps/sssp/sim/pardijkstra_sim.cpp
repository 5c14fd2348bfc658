#include "apps/sssp/sim/pardijkstra_sim.h"

#include "apps/sssp/pardijkstra.h"
#include "sim/sim_context.h"
#include "structures/bucket_heap/host_bucket_heap.h"

namespace gpulin::explore {

std::vector<uint32_t> pardijkstra_sim(const sssp::Graph& g, uint32_t source, sim::Strategy& strategy,
                                      uint64_t max_points, sim::RunResult* run) {
  using namespace bucket_heap;
  using P = sssp::PardijkstraPolicy;
  using X = sim::SimContext;
  const uint32_t d = sssp::max_out_degree(g), levels = sssp::pardijkstra_levels(g.n, d);
  HostBucketHeap heap(d, levels);
  const View& h = heap.view;
  std::vector<uint32_t> dist(g.n, sssp::kUnreached), words(2 * uint64_t{d});
  std::vector<Element> updates(d);
  std::vector<uint64_t> keys(next_pow2(d));
  const sssp::RoundScratch r{updates.data(), keys.data(), {words.data(), words.data() + d}};
  const sssp::GraphView gv{g.n, g.offsets.data(), g.targets.data(), g.weights.data(),
                           sssp::rows_sorted(g.n, g.offsets.data(), g.targets.data())};
  sim::Simulator sim;
  strategy.begin_run(levels);
  *run = sim.run(
      levels,
      [&](uint32_t a) {
        X x(sim, a, nullptr, 1u);
        if (a == 0) {
          sssp::pardijkstra_rounds<X, P>(x, h, gv, source, dist.data(), r);
          return;
        }
        run_level<X, P>(x, h, a, sssp::pardijkstra_ops(g.n), NoChecks{});
      },
      strategy, max_points);
  return dist;
}

}  // namespace gpulin::explore
