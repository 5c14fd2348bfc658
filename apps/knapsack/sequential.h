// The sequential best-first branch and bound the paper measures the GPU against
// (§5.7.2, Table 5's "CPU w/ priority queue"): a std::priority_queue of nodes, ordered
// by their profit so far (the paper's key: "current benefits as the key values") or
// by their bound; nodes whose bound cannot beat the best found are dropped either way.
#pragma once

#include <cstdint>

#include "apps/knapsack/instance.h"
#include "apps/knapsack/order.h"

namespace gpulin::knapsack {

struct SequentialResult {
  uint64_t best = 0;
  uint64_t explored = 0;  // nodes expanded
};

// Bound by default, as the parallel search (branch_and_bound.h) orders its keys.
SequentialResult best_first_sequential(const Instance& in, Order order = Order::Bound);

}  // namespace gpulin::knapsack
