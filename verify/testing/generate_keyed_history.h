// A valid explicit-rule history of a keyed model (map, set, multimap) of any size,
// shaped like a recorded slab-hash run, for scale tests and benchmarks of the
// checkers: many actors (warps) whose operations overlap, each with an inv, an lp
// strictly inside it and a ret, and every result what the sequential model gives
// in the order of the lp events. Built straight into the lean KeyHistory (a
// 10^7-operation history is about 2 GB there, several times that as Values).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "histories/key_history.h"

namespace gpulin {

struct KeyedHistoryOptions {
  std::string model = "map";  // map, set or multimap
  size_t ops = 1000;
  int actors = 256;           // actors with an operation open at once, at most
  uint64_t keys = 1 << 16;    // keys are drawn from [0, keys)
  uint64_t seed = 1;
  // The operation distribution Γ = (a, b, c, d) of the slab hash paper (§VI-C), in
  // percent: a updates (map replace, set/multimap insert), b deletes of a present
  // key, c searches of a present key, d searches of any key (mostly absent when
  // `keys` is large). Γ1 = (20, 20, 30, 30) by default. multimap: a quarter of
  // the searches are searchall, and a tenth of the updates reuse a present key.
  int update = 20, remove = 20, search_present = 30, search_any = 30;
};

// Events: t = 1, 2, 3, ... in order, three per operation (inv, lp, ret); ops in
// inv order with ids 0, 1, 2, ...; the header has lp_rule explicit. An actor is
// picked at random for each event, so with many actors each operation spans
// thousands of others' events, as on a GPU. The same options give the same history.
KeyHistory generate_keyed_history(const KeyedHistoryOptions& options);

// A planted fault: the op changed, its key, and the other op involved (or -1).
struct PlantedFault {
  int64_t op = -1;
  int64_t key = 0;
  int64_t other = -1;
};

// Adds one to the value that a completed search (map or multimap) returned: the
// first such op at or after h.ops[from]. The generator's values are random
// 32-bit words, so unless an update of that key happened to write value + 1 (the
// tests check it did not), the history is no longer linearizable.
std::optional<PlantedFault> plant_wrong_search(KeyHistory& h, size_t from = 0);

// Swaps the lp events of an update (map replace, set insert) and a search
// (search, contains) that saw its effect, the update being the key's last before
// the search in lp order, when the two overlap so that each lp still lies inside
// its op: the first such pair whose search is at or after h.ops[from]. The lp
// order then fails at the search, but the history stays linearizable (the old
// order is still a linearization).
std::optional<PlantedFault> plant_early_lp(KeyHistory& h, size_t from = 0);

}  // namespace gpulin
