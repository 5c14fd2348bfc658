// 0/1 knapsack instances of the types Martello, Pisinger and Toth test with (the
// heap paper's §5.7.2, Table 4), generated here, and the exact optimum by dynamic
// programming that every run's answer is checked against.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpulin::knapsack {

// Items sorted by profit/weight, best first (ties: heavier first), as best-first
// branch and bound bounds them (Dantzig's bound over the sorted items).
struct Instance {
  std::string name;             // the spec it came from, "strongly:200:7000"
  std::vector<uint32_t> profit;
  std::vector<uint32_t> weight;
  uint32_t capacity = 0;
  uint32_t size() const { return static_cast<uint32_t>(profit.size()); }
};

// "TYPE:N[:R[:PCT]]": TYPE strongly (p = w + R/10), almost (p = w + R/10 +- R/500),
// evenodd (even weights, p = w + R/10, an odd capacity), subset (p = w); N items
// with weights uniform in [1, R] (R default 1000; the paper's sizes: N 100-1300,
// R 6 000-18 000); capacity PCT % of the total weight (default 50; odd for evenodd;
// Pisinger's series use h/(H+1), and the paper does not say which). Seeded.
// Throws std::invalid_argument naming the part of the spec at fault.
Instance make_instance(const std::string& spec, uint64_t seed);

// The optimum, by dynamic programming over capacities (O(N * capacity) time,
// O(capacity) memory).
uint64_t optimum_by_dp(const Instance& in);

// Dantzig's upper bound of a node that decided items [0, level) with `profit` and
// `weight` so far: the remaining items greedily by ratio, the first that does not fit
// taken fractionally (rounded down). The host's copy of what the device computes.
uint64_t dantzig_bound(const Instance& in, uint32_t level, uint64_t profit, uint64_t weight);

}  // namespace gpulin::knapsack
