// The sequential best-first branch and bound the paper measures the GPU against
// (§5.7.2, Table 5's "CPU w/ priority queue"): std::priority_queue of nodes by bound.
#pragma once

#include <cstdint>

#include "apps/knapsack/instance.h"

namespace gpulin::knapsack {

struct SequentialResult {
  uint64_t best = 0;
  uint64_t explored = 0;  // nodes expanded
};

SequentialResult best_first_sequential(const Instance& in);

}  // namespace gpulin::knapsack
