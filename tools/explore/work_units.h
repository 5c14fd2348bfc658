// The parts an exploration splits into, so that shards (explore --shard i/N) and MPI
// ranks (explore --mpi) each run disjoint parts whose union is exactly the
// unsharded run: random and PCT schedule i depends on i alone (its own seed), and a
// DFS search splits into the subtrees below a frontier of pick prefixes.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/strategy.h"

namespace gpulin::explore {

// One part: random/pct schedules [first, last), or the dfs subtree below `prefix`.
struct WorkUnit {
  uint64_t first = 0, last = 0;
  std::vector<uint32_t> prefix;
};

// Hands out the index of the next part to explore, given how many parts there are;
// nullopt when this process has no more. Indices come in increasing order.
using UnitSource = std::function<std::optional<uint64_t>(uint64_t units)>;

// Shard `index` of `count` (1-based, as the user writes "2/4").
struct Shard {
  uint32_t index = 1, count = 1;
};
// "i/N" with 1 <= i <= N; nullopt otherwise.
std::optional<Shard> parse_shard(const std::string& text);
// Parts index-1, index-1+count, ... : round robin, so that every shard gets parts
// from the whole run (the heavy dfs subtrees are spread).
UnitSource shard_units(Shard shard);

// random/pct: the schedules in parts of at most `chunk` (the last may be shorter).
std::vector<WorkUnit> schedule_parts(uint64_t schedules, uint64_t chunk);
// How many schedules a random/pct part holds: small enough for load balance, large
// enough that handing parts out costs nothing next to running them.
uint64_t schedule_chunk(uint64_t schedules);

// The seed of random/pct schedule `index` of a run seeded `seed`.
uint64_t schedule_seed(uint64_t seed, uint64_t index);
// The seed of the program a run seeded `seed` starts at schedule `index`: `seed`
// itself for the first (index 0: dfs's program, and the one a --program-every 0 run
// keeps), then a mix of the pair on a stream of its own, so that the programs of
// runs seeded s and s + 1 have nothing in common (under seed + index, index + 1 of
// one would be index of the other) and a shard builds the programs of the whole.
uint64_t program_seed(uint64_t seed, uint64_t index);

// A bound no search reaches: dpor's frontier splits the search of every schedule.
constexpr uint32_t kNoPreemptionBound = 1u << 30;

// dfs: a frontier of disjoint subtrees that together hold every schedule within
// `bound` preemptions, in the order the unsharded search meets them. `run_once`
// runs the program once under the strategy it is given (begin_run included). The
// split is deterministic: every shard computes the same frontier. The subtree most
// likely to be the largest (estimated from its depth, the remaining preemptions and
// the run's length) is split into its children until there are `target` subtrees or
// none is worth splitting.
std::vector<WorkUnit> dfs_frontier(uint32_t bound, const std::function<void(sim::Strategy&)>& run_once,
                                   size_t target = 512);

}  // namespace gpulin::explore
