#include "tools/explore/work_units.h"

#include <algorithm>
#include <cmath>
#include <charconv>

#include "common/seed_mix.h"

#include "sim/strategies/dfs_strategy.h"

namespace gpulin::explore {

std::optional<Shard> parse_shard(const std::string& text) {
  const char* const end = text.data() + text.size();
  uint32_t index = 0, count = 0;
  const auto [slash, e1] = std::from_chars(text.data(), end, index);  // digits only: no sign, no space
  if (e1 != std::errc() || slash == end || *slash != '/') return std::nullopt;
  const auto [tail, e2] = std::from_chars(slash + 1, end, count);
  if (e2 != std::errc() || tail != end) return std::nullopt;
  if (index < 1 || count < 1 || index > count) return std::nullopt;
  return Shard{index, count};
}

UnitSource shard_units(Shard shard) {
  uint64_t next = shard.index - 1;
  return [next, step = uint64_t(shard.count)](uint64_t units) mutable -> std::optional<uint64_t> {
    if (next >= units) return std::nullopt;
    const uint64_t u = next;
    next += step;
    return u;
  };
}

std::vector<WorkUnit> schedule_parts(uint64_t schedules, uint64_t chunk) {
  std::vector<WorkUnit> parts;
  for (uint64_t first = 0; first < schedules; first += chunk)
    parts.push_back({first, std::min(schedules, first + chunk), {}});
  return parts;
}

uint64_t schedule_chunk(uint64_t schedules) { return std::max<uint64_t>(1, schedules / 4096); }

uint64_t schedule_seed(uint64_t seed, uint64_t index) { return derived_seed(seed, index); }

uint64_t program_seed(uint64_t seed, uint64_t index) {
  // A stream of their own, so a program's seed is never a schedule's seed of the run.
  return index == 0 ? seed : derived_seed(seed, index, kProgramStream);
}

namespace {
struct Subtree {
  std::vector<uint32_t> prefix;
  double weight = 0;  // estimated schedules below
};

// About how many schedules lie below a decision `depth` of a run `length` decisions
// long with `left` preemptions to spend: choose where they go.
double estimate(uint64_t length, uint64_t depth, uint32_t left) {
  const double rest = length > depth ? double(length - depth) : 1.0;
  return std::pow(rest, left) / std::tgamma(left + 1.0);
}
}  // namespace

std::vector<WorkUnit> dfs_frontier(uint32_t bound, const std::function<void(sim::Strategy&)>& run_once,
                                   size_t target) {
  std::vector<Subtree> frontier{{{}, INFINITY}};
  while (frontier.size() < target) {
    auto heaviest = std::max_element(frontier.begin(), frontier.end(),
                                     [](const Subtree& a, const Subtree& b) { return a.weight < b.weight; });
    if (heaviest->weight <= 1.0) break;  // nothing left worth a probe run
    sim::DfsStrategy probe(bound, heaviest->prefix);
    run_once(probe);
    const uint64_t depth = heaviest->prefix.size();
    const auto branches = probe.branches_at(depth);
    if (branches.empty()) {  // the run ended first: the subtree is one schedule
      heaviest->weight = 0;
      continue;
    }
    std::vector<Subtree> children;
    for (const auto& b : branches) {
      Subtree c{heaviest->prefix, estimate(probe.decisions(), depth + 1, bound - b.preemptions)};
      c.prefix.push_back(b.pick);
      children.push_back(std::move(c));
    }
    const auto at = frontier.erase(heaviest);
    frontier.insert(at, children.begin(), children.end());
  }
  std::vector<WorkUnit> units;
  for (Subtree& s : frontier) units.push_back({0, 0, std::move(s.prefix)});
  return units;
}

}  // namespace gpulin::explore
