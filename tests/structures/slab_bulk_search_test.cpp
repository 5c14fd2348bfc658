// The slab hash's bulk search in the simulator (warp_search_pairs: a warp's
// searches taken two at a time, both first-slab reads issued before either is
// resolved): on tables built by the ordinary work queue - lists several slabs long,
// keys present and absent, an odd number of searches in a warp - every answer is
// the one the ordinary search gives and the one a host map holds, under random
// schedules of several warps. No recorder: a bulk search is unrecorded by design.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "sim/sim_context.h"
#include "sim/strategies/random_strategy.h"
#include "structures/slab_hash/host_slab_hash.h"
#include "structures/slab_hash/work_queue.h"

namespace gpulin::slab_hash {
namespace {

using X = sim::SimContext;
using Task = X::Regs<uint32_t, kTaskWords>;
using P = SlabPolicy<Mode::Map>;

// Runs `per_warp[w]` (up to 32 (fn, key, value) tasks each) on warps w in the
// simulator; `pairs` runs them through warp_search_pairs (all searches). Returns
// each task's answer: the value found, or kEmptyKey.
std::vector<std::vector<uint32_t>> run(HostSlabHash& table, const std::vector<std::vector<std::array<uint32_t, 3>>>& per_warp,
                                       bool pairs, uint64_t seed) {
  sim::Simulator sim;
  sim::RandomStrategy strategy(seed);
  const auto warps = static_cast<uint32_t>(per_warp.size());
  strategy.begin_run(warps);
  const SlabHashView<P> view = table.view<P>();
  std::vector<std::vector<uint32_t>> answers(warps);
  const sim::RunResult r = sim.run(
      warps,
      [&](uint32_t a) {
        X x(sim, a, nullptr, sim::WarpPlace{a, warps, 0, nullptr});
        WarpAllocator<X> wa;
        wa.group = a;
        Task task;
        const auto& ops = per_warp[a];
        answers[a].assign(ops.size(), 0xABCDABCDu);
        for (uint32_t l = 0; l < ops.size(); ++l) {
          uint32_t* t = task.of(l);
          t[kTaskFn] = ops[l][0], t[kTaskKey] = ops[l][1], t[kTaskValue] = ops[l][2], t[kTaskActive] = 1;
        }
        auto done = [&](uint32_t lane, const TaskResult& res) {
          answers[a][lane] = res.status == TaskResult::kFound ? res.value : kEmptyKey;
        };
        if (pairs)
          warp_search_pairs(x, view, task, done);
        else
          warp_work_queue(x, view, wa, task, int64_t{a} << 20, done);
      },
      strategy, 10'000'000);
  EXPECT_EQ(r.outcome, sim::Outcome::Completed) << r.message;
  return answers;
}

TEST(SlabBulkSearch, AnswersAsTheOrdinarySearchAndTheHostMap) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    // Few buckets: lists of several slabs, so searches follow chains.
    HostSlabHash table(SlabHashShape{3, 2, 1, 8, seed});
    std::mt19937 rng(static_cast<uint32_t>(seed));
    std::map<uint32_t, uint32_t> host;
    std::vector<std::vector<std::array<uint32_t, 3>>> build(4);
    for (auto& w : build)
      for (uint32_t l = 0; l < 32; ++l) {
        uint32_t k;
        do k = rng() % 100000; while (host.count(k));
        host[k] = rng() % 1000000;
        w.push_back({kFnInsert, k, host[k]});
      }
    run(table, build, false, seed);
    ASSERT_EQ(table.failures(), 0u);
    std::vector<uint32_t> keys;
    for (const auto& [k, v] : host) keys.push_back(k);
    // Searches: present and absent keys; the last warp has an odd count (31).
    std::vector<std::vector<std::array<uint32_t, 3>>> searches(5);
    for (uint32_t w = 0; w < searches.size(); ++w)
      for (uint32_t l = 0; l < (w == 4 ? 31u : 32u); ++l)
        searches[w].push_back({kFnSearch, static_cast<uint32_t>(rng() % 3 ? keys[rng() % keys.size()] : 200000 + rng() % 1000), 0});
    const auto two = run(table, searches, true, seed * 7);
    const auto one = run(table, searches, false, seed * 7);
    for (uint32_t w = 0; w < searches.size(); ++w)
      for (uint32_t l = 0; l < searches[w].size(); ++l) {
        const uint32_t k = searches[w][l][1];
        const uint32_t want = host.count(k) ? host[k] : kEmptyKey;
        ASSERT_EQ(two[w][l], want) << "bulk search, seed " << seed << " warp " << w << " lane " << l << " key " << k;
        ASSERT_EQ(one[w][l], want) << "search, seed " << seed << " warp " << w << " lane " << l << " key " << k;
      }
  }
}

}  // namespace
}  // namespace gpulin::slab_hash
