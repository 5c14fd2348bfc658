#include "apps/knapsack/instance.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <random>
#include <stdexcept>

namespace gpulin::knapsack {

namespace {

uint64_t number(const std::string& spec, const std::string& part, const char* what) {
  uint64_t v = 0;
  const auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
  if (ec != std::errc() || p != part.data() + part.size() || part.empty())
    throw std::invalid_argument("knapsack instance '" + spec + "': " + what + " '" + part + "' is not a number");
  return v;
}

}  // namespace

Instance make_instance(const std::string& spec, uint64_t seed) {
  std::vector<std::string> parts;
  for (size_t at = 0;;) {
    const size_t colon = spec.find(':', at);
    parts.push_back(spec.substr(at, colon == std::string::npos ? std::string::npos : colon - at));
    if (colon == std::string::npos) break;
    at = colon + 1;
  }
  if (parts.size() < 2 || parts.size() > 4)
    throw std::invalid_argument("knapsack instance '" + spec +
                                "': want TYPE:N[:R[:PCT]] (strongly, almost, evenodd, subset)");
  const std::string& type = parts[0];
  if (type != "strongly" && type != "almost" && type != "evenodd" && type != "subset")
    throw std::invalid_argument("knapsack instance '" + spec + "': type '" + type +
                                "' is not strongly, almost, evenodd or subset");
  const uint64_t n = number(spec, parts[1], "N");
  const uint64_t r = parts.size() >= 3 ? number(spec, parts[2], "R") : 1000;
  const uint64_t pct = parts.size() == 4 ? number(spec, parts[3], "PCT") : 50;
  if (pct < 1 || pct > 99) throw std::invalid_argument("knapsack instance '" + spec + "': PCT is 1 to 99");
  if (n < 1 || n > 100000) throw std::invalid_argument("knapsack instance '" + spec + "': N is 1 to 100000");
  if (r < 10 || r > 1000000) throw std::invalid_argument("knapsack instance '" + spec + "': R is 10 to 10^6");

  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<uint32_t> w_of(1, static_cast<uint32_t>(r));
  struct Item {
    uint32_t p, w;
  };
  std::vector<Item> items(n);
  for (Item& it : items) {
    it.w = w_of(rng);
    if (type == "evenodd") it.w = std::max<uint32_t>(2, it.w & ~1u);
    const uint32_t spread = static_cast<uint32_t>(r / 500);
    if (type == "subset")
      it.p = it.w;
    else if (type == "almost")
      it.p = it.w + static_cast<uint32_t>(r / 10) - spread +
             std::uniform_int_distribution<uint32_t>(0, 2 * spread)(rng);
    else
      it.p = it.w + static_cast<uint32_t>(r / 10);  // strongly, evenodd (both even when R/10 is)
  }
  const uint64_t total = std::accumulate(items.begin(), items.end(), uint64_t{0},
                                         [](uint64_t s, const Item& it) { return s + it.w; });
  uint64_t c = total * pct / 100;
  if (type == "evenodd") c = 2 * (c / 2) + 1;  // odd: no even-weight load reaches it
  if (c > 0xffffffffull) throw std::invalid_argument("knapsack instance '" + spec + "': capacity past 2^32");
  // Best ratio first: p_a / w_a > p_b / w_b, compared exactly.
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    const uint64_t l = uint64_t{a.p} * b.w, rr = uint64_t{b.p} * a.w;
    return l != rr ? l > rr : a.w > b.w;
  });
  Instance in;
  in.name = spec;
  in.capacity = static_cast<uint32_t>(c);
  for (const Item& it : items) {
    in.profit.push_back(it.p);
    in.weight.push_back(it.w);
  }
  return in;
}

uint64_t optimum_by_dp(const Instance& in) {
  std::vector<uint64_t> best(uint64_t{in.capacity} + 1, 0);
  for (uint32_t i = 0; i < in.size(); ++i) {
    const uint32_t w = in.weight[i];
    const uint64_t p = in.profit[i];
    for (uint64_t c = in.capacity; c >= w && c != 0; --c) best[c] = std::max(best[c], best[c - w] + p);
  }
  return best[in.capacity];
}

uint64_t dantzig_bound(const Instance& in, uint32_t level, uint64_t profit, uint64_t weight) {
  if (weight > in.capacity) return 0;
  uint64_t room = in.capacity - weight, bound = profit;
  for (uint32_t i = level; i < in.size(); ++i) {
    if (in.weight[i] <= room) {
      room -= in.weight[i];
      bound += in.profit[i];
    } else {
      bound += room * in.profit[i] / in.weight[i];
      break;
    }
  }
  return bound;
}

}  // namespace gpulin::knapsack
