// What `gpulin explore --structure slab-map|slab-set|slab-multimap` runs: the
// configuration (mode, variant, allocator, buckets, the compile-time mutant chosen
// by name) and the program (each warp's operations, one per lane, processed by the
// warp's work queue in lane order). Generated from a seed, shrunk when it fails, and
// written into replay strings explicitly:
//   slab-MODE:buckets=B[:variant=fixed][:alloc=regular][:mutant=NAME]|OPS;OPS;...|PICKS
// (`variant=fixed`: the multimap's fixed variant, slab_hash_view.h; absent, the
// paper's, so strings written before the variant existed mean what they meant)
// where a warp's OPS are comma-separated `i5=7` (insert or replace key 5 with value
// 7; set: `i5`), `d5` (delete), `s5` (search / contains), `a5` (searchall), `x5`
// (deleteall).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/memory/memory_mode.h"
#include "histories/history.h"
#include "histories/result_shapes.h"
#include "structures/slab_hash/slab_hash_view.h"

namespace gpulin::explore {

struct SlabConfig {
  slab_hash::Mode mode = slab_hash::Mode::Map;
  slab_hash::Variant variant = slab_hash::Variant::Paper;  // Fixed: the multimap only
  slab_hash::Mutant mutant = slab_hash::Mutant::None;
  bool light = true;      // SlabAlloc-light, or the regular SlabAlloc
  // The lanes an operation runs on (slab_lanes.h): 32, a warp an actor; 16 or 8, a
  // tile of a warp an actor (map and multimap), as the GPU's bulk builds of pairs run.
  uint32_t lanes = 32;
  uint32_t buckets = 1;   // few buckets: lists grow past their base slab, warps race to extend them
  sim::memory::MemorySetting memory;  // the simulator's memory (replay strings name it)
  // Generation only:
  uint32_t warps = 4;
  uint32_t ops = 16;      // per actor, at most `lanes` (one per lane)
  uint32_t keys = 40;     // keys drawn from [0, keys)
  uint32_t insert_percent = 60, delete_percent = 15;  // the rest searches (multimap: some searchall/deleteall)
};

struct SlabTask {
  uint32_t fn = 0;  // slab_hash::Fn
  uint32_t key = 0;
  uint32_t value = 0;
};

struct SlabProgram {
  std::vector<std::vector<SlabTask>> warps;
  size_t size() const;
};

std::string slab_mode_name(slab_hash::Mode m);  // map, set, multimap (the model's name)

// What a recorded slab hash history is, for the simulator's and the GPU's
// recordings alike: the header (the mode's model, the `explicit` rule, `source`),
// the recorder's operation names by code, and the results' JSON shapes (search:
// value or null; contains: true/false).
Header slab_header(slab_hash::Mode m, const std::string& source);
std::vector<std::string> slab_fn_names(slab_hash::Mode m);
const ResultShapes& slab_result_shapes();
std::optional<slab_hash::Mode> parse_slab_structure(const std::string& s);  // slab-map, ...
std::string slab_variant_name(slab_hash::Variant v);  // paper, fixed
std::optional<slab_hash::Variant> parse_slab_variant(const std::string& s);
std::string slab_mutant_name(slab_hash::Mutant m);
std::optional<slab_hash::Mutant> parse_slab_mutant(const std::string& s);
const std::vector<std::string>& slab_mutant_names();  // every mutant but none

// Why the config's lanes cannot run (empty when they can): 32, 16 or 8, tiles for
// pairs only (the set runs on 32), at most `lanes` operations an actor.
std::string slab_lanes_problem(const SlabConfig& c);

// Values are unique per program (a result names the insert it came from).
SlabProgram generate_slab_program(const SlabConfig& c, uint64_t seed);

bool is_slab_replay(const std::string& replay);  // starts with "slab-"
std::string slab_replay_string(const SlabConfig& c, const SlabProgram& p, const std::vector<uint32_t>& picks);
struct SlabReplayInput {
  SlabConfig config;
  SlabProgram program;
  std::vector<uint32_t> picks;
};
SlabReplayInput parse_slab_replay_string(const std::string& s);  // throws std::invalid_argument

}  // namespace gpulin::explore
