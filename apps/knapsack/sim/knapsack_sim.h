// 0/1 knapsack by branch and bound over the generalized heap in the simulator
// (apps/knapsack/branch_and_bound.h on sim/sim_context.h): each actor a block of the
// GPU run, one schedule of the strategy, the heap's operations recorded -
// `gpulin knapsack --backend sim` and the CPU tests.
#pragma once

#include <cstdint>
#include <optional>

#include "apps/knapsack/instance.h"
#include "apps/knapsack/order.h"
#include "histories/history.h"
#include "sim/simulator.h"
#include "sim/strategy.h"
#include "structures/gheap/config.h"

namespace gpulin::explore {

struct KnapsackSimOptions {
  gheap::Flavor flavor = gheap::Flavor::TopDown;  // the fixed heaps
  knapsack::Order order = knapsack::Order::Bound;  // the heap's key: the bound, or the profit (the paper's)
  uint32_t actors = 4;
  uint32_t k = 8;
  uint32_t threads = 2;      // lanes per simulated block
  uint32_t pool = 1 << 20;   // nodes the search may create
  uint64_t max_points = 50'000'000;
  uint32_t gc_threshold = 0;  // garbage collection past this many nodes pending (0: none)
  bool record = true;
};

struct KnapsackSimResult {
  sim::RunResult run;
  uint64_t best = 0;       // the best profit found (the optimum when the run completed)
  uint64_t explored = 0;   // nodes expanded
  uint64_t created = 0;    // nodes created (the root included)
  uint64_t collected = 0, sweeps = 0;  // garbage collection: dominated nodes dropped, sweeps
  std::optional<History> history;  // the heap's operations (with `record`)
};

// Throws std::invalid_argument when the instance's bounds do not fit a key
// (total profit 2^31 or more) or the options are out of range.
KnapsackSimResult knapsack_sim(const knapsack::Instance& in, const KnapsackSimOptions& o, sim::Strategy& strategy);

}  // namespace gpulin::explore
