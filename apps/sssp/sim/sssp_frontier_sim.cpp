#include "apps/sssp/sim/sssp_frontier_sim.h"

#include <chrono>
#include <stdexcept>
#include <vector>

#include "apps/sssp/frontier.h"
#include "histories/recorder.h"
#include "sim/sim_context.h"
#include "structures/gheap/host_heap.h"
#include "structures/gheap/sim/heap_config.h"

namespace gpulin::explore {

FrontierSimResult frontier_sim(const sssp::Graph& g, const std::string& graph_name, uint32_t source,
                               const sssp::FrontierOptions& o, sim::Strategy& strategy) {
  using namespace sssp;
  check_frontier_graph(g, source);
  if (o.actors < 1 || o.actors > 64 || o.lanes < 1 || o.k < 1 || o.k > 1024 || o.threshold < 1)
    throw std::invalid_argument("sssp frontier sim: 1-64 actors, lanes >= 1, k 1 to 1024, threshold >= 1");
  const uint64_t queue_cap = frontier_queue_words(o, g.n);
  std::vector<uint32_t> dist(g.n, kUnreached), mark(g.n, 0), queues(2 * queue_cap, 0),
      words(kFrontierWords, 0);
  dist[source] = 0;
  queues[0] = source;
  FrontierView v = lay_out_frontier(GraphView{g.n, g.offsets.data(), g.targets.data(), g.weights.data(), false},
                                    dist.data(), mark.data(), queues.data(), static_cast<uint32_t>(queue_cap),
                                    words.data(), o.actors);
  v.threshold = o.threshold;
  v.with_heap = o.with_heap;
  const uint64_t heap_keys = frontier_heap_keys(o, g.n);
  v.heap_capacity = heap_keys;
  gheap::HostHeap<uint64_t> heap(o.k, (heap_keys + o.k - 1) / o.k + 1);
  HostRecorder recorder({"ins", "del"});
  sim::Simulator sim;
  FrontierSimResult out;
  FrontierRounds rounds;
  strategy.begin_run(o.actors);
  const auto t0 = std::chrono::steady_clock::now();
  auto search = [&](auto policy) {
    const auto h = heap.view<decltype(policy)>();
    out.run = sim.run(
        o.actors,
        [&](uint32_t a) {
          std::vector<uint64_t> keys(o.k);
          sim::SimContext x(sim, a, o.record ? &recorder : nullptr, o.lanes);
          const auto s = gheap::make_scratch(x.private_array<uint64_t>(gheap::kScratchKeysPerK * o.k), o.k);
          const FrontierRounds r = frontier_sssp(x, h, s, keys.data(), v, a,
                                                 o.actors, int64_t{a} << 32, [] { return false; },
                                                 [] { return uint64_t{0}; });
          if (a == 0) rounds = r;
        },
        strategy, o.max_points);
  };
  if (o.flavor == gheap::Flavor::TopDown)
    search(gheap::HeapPolicy<gheap::Flavor::TopDown, gheap::Variant::Fixed>{});
  else
    search(gheap::HeapPolicy<gheap::Flavor::BottomUp, gheap::Variant::Fixed>{});
  FrontierResult& r = out.result;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.outcome = out.run.outcome == sim::Outcome::Completed ? "completed"
                                                        : std::string(sim::to_string(out.run.outcome)) + ": " + out.run.message;
  r.rounds = rounds.rounds;
  r.heap_rounds = rounds.heap_rounds;
  r.visited = *v.visited;
  r.dist = std::move(dist);
  if (o.record)
    r.history = recorder.to_history(frontier_history_header(graph_name, o.k, lp_rule_for(o.flavor, gheap::Variant::Fixed)),
                                    "<simulated sssp frontier>");
  return out;
}

}  // namespace gpulin::explore
