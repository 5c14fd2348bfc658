#include "apps/knapsack/sequential.h"

#include <queue>
#include <vector>

namespace gpulin::knapsack {

SequentialResult best_first_sequential(const Instance& in, Order order) {
  struct Node {
    uint64_t bound, profit, weight;
    uint32_t level;
  };
  // A max-heap by the order's key.
  const auto less = [order](const Node& a, const Node& b) {
    return order == Order::Profit ? a.profit < b.profit : a.bound < b.bound;
  };
  SequentialResult r;
  std::priority_queue<Node, std::vector<Node>, decltype(less)> queue(less);
  queue.push({dantzig_bound(in, 0, 0, 0), 0, 0, 0});
  while (!queue.empty()) {
    const Node nd = queue.top();
    queue.pop();
    if (nd.bound <= r.best) continue;  // dominated since it was queued
    ++r.explored;
    const uint32_t i = nd.level;
    const bool fits = nd.weight + in.weight[i] <= in.capacity;
    const uint64_t tp = nd.profit + (fits ? in.profit[i] : 0), tw = nd.weight + (fits ? in.weight[i] : 0);
    if (fits && tp > r.best) r.best = tp;
    if (i + 1 == in.size()) continue;
    if (fits) {
      const uint64_t b = dantzig_bound(in, i + 1, tp, tw);
      if (b > r.best) queue.push({b, tp, tw, i + 1});
    }
    const uint64_t b = dantzig_bound(in, i + 1, nd.profit, nd.weight);
    if (b > r.best) queue.push({b, nd.profit, nd.weight, i + 1});
  }
  return r;
}

}  // namespace gpulin::knapsack
