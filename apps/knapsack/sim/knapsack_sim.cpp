#include "apps/knapsack/sim/knapsack_sim.h"

#include <array>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "apps/knapsack/branch_and_bound.h"
#include "apps/knapsack/history_header.h"
#include "histories/recorder.h"
#include "sim/sim_context.h"
#include "structures/gheap/host_heap.h"
#include "structures/gheap/sim/heap_config.h"

namespace gpulin::explore {

KnapsackSimResult knapsack_sim(const knapsack::Instance& in, const KnapsackSimOptions& o, sim::Strategy& strategy) {
  using namespace knapsack;
  const uint64_t total_profit = std::accumulate(in.profit.begin(), in.profit.end(), uint64_t{0});
  if (total_profit >= kKeyTop) throw std::invalid_argument("knapsack: total profit must be below 2^31");
  if (o.actors < 1 || o.actors > 64 || o.k < 1 || o.pool < 1) throw std::invalid_argument("knapsack sim: bad options");
  std::vector<uint64_t> prefix_profit(in.size() + 1), prefix_weight(in.size() + 1);
  for (uint32_t i = 0; i < in.size(); ++i) {
    prefix_profit[i + 1] = prefix_profit[i] + in.profit[i];
    prefix_weight[i + 1] = prefix_weight[i] + in.weight[i];
  }
  std::vector<uint32_t> level(o.pool), profit(o.pool), weight(o.pool), bound(o.pool), stash(size_t{o.actors} * 4 * o.k);
  std::array<uint32_t, kKnapsackWords> words = start_words(o.gc_threshold);  // node 0, the root, is all zeros
  std::vector<uint64_t> gc_keys(o.gc_threshold ? o.pool : 0);
  KnapsackView v;
  v.n = in.size();
  v.capacity = in.capacity;
  v.profit = in.profit.data();
  v.weight = in.weight.data();
  v.prefix_profit = prefix_profit.data();
  v.prefix_weight = prefix_weight.data();
  v.node_level = level.data();
  v.node_profit = profit.data();
  v.node_weight = weight.data();
  v.node_bound = bound.data();
  v.pool = o.pool;
  v.stash = stash.data();
  v.stash_cap = 4 * o.k;
  lay_out_words(v, words.data());
  v.gc_threshold = o.gc_threshold;
  v.gc_keys = gc_keys.data();

  gheap::HostHeap<uint64_t> heap(o.k, o.pool / o.k + 2);
  HostRecorder recorder({"ins", "del"});
  sim::Simulator sim;
  KnapsackSimResult r;
  strategy.begin_run(o.actors);
  auto search = [&](auto policy) {
    const auto h = heap.view<decltype(policy)>();
    r.run = sim.run(
        o.actors,
        [&](uint32_t a) {
          std::vector<uint64_t> keys(2 * o.k);
          std::vector<uint32_t> words(scratch_words(o.k));
          const KnapsackScratch c = make_knapsack_scratch(keys.data(), words.data(), o.k);
          sim::SimContext x(sim, a, o.record ? &recorder : nullptr, o.threads);
          const auto s = gheap::make_scratch(x.private_array<uint64_t>(gheap::kScratchKeysPerK * o.k), o.k);
          if (o.order == Order::Bound)
            branch_and_bound<Order::Bound>(x, h, s, c, v, a, int64_t{a} << 32, [] { return false; });
          else
            branch_and_bound<Order::Profit>(x, h, s, c, v, a, int64_t{a} << 32, [] { return false; });
        },
        strategy, o.max_points);
  };
  if (o.flavor == gheap::Flavor::TopDown)
    search(gheap::HeapPolicy<gheap::Flavor::TopDown, gheap::Variant::Fixed>{});
  else
    search(gheap::HeapPolicy<gheap::Flavor::BottomUp, gheap::Variant::Fixed>{});
  r.best = *v.best;
  r.explored = *v.explored;
  r.created = *v.created;
  r.collected = *v.collected;
  r.sweeps = *v.sweeps;
  if (o.record)
    r.history = recorder.to_history(history_header(in, o.k, lp_rule_for(o.flavor, gheap::Variant::Fixed)),
                                    "<simulated knapsack>");
  return r;
}

}  // namespace gpulin::explore
