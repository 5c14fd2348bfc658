// What best-first branch and bound takes first: the node of largest Dantzig bound
// (the testbed's default: dominated nodes sink to the bottom) or of largest profit so
// far (the heap paper's key, §5.7.2: "their current benefits as the key values").
#pragma once

namespace gpulin::knapsack {

enum class Order { Profit, Bound };

}  // namespace gpulin::knapsack
