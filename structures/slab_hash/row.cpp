// The slab hash with SlabAlloc (Ashkiani et al.): map, set and multimap, a warp an
// actor (sim/ and gpu/ beside this file). The multimap has two variants: paper (the
// default, Fig. 2 as written; it fails the paper's multimap model, docs/findings.md
// S1 and S3) and fixed (no spot reused, a version word a bucket: bucket_version.h).
#include <fmt/core.h>

#include "structures/slab_hash/sim/slab_explore.h"
#include "structures/slab_hash/sim/slab_run.h"
#include "tools/registry/registry.h"
#include "structures/slab_hash/gpu/slab_stress_command.h"
#include "tools/registry/stress_args.h"

namespace gpulin::drawings {
extern const char slab_hash_draw_js[];  // draw.js (structures/CMakeLists.txt, gpulin_embed_drawing)
}

namespace gpulin::registry {

namespace {

explore::SlabConfig slab_config(const Selection& s) {
  explore::SlabConfig c;
  c.memory = s.memory;
  c.mode = *explore::parse_slab_structure(s.structure);
  if (!s.variant.empty()) c.variant = *explore::parse_slab_variant(s.variant);
  c.mutant = *explore::parse_slab_mutant(s.mutant);
  c.light = s.text("alloc") == "light";
  c.lanes = static_cast<uint32_t>(std::stoul(s.text("lanes")));
  c.buckets = s.u32("buckets");
  c.warps = s.u32("warps");
  c.ops = s.u32("ops");
  c.keys = s.u32("keys");
  return c;
}

Replayed replay_slab_row(const std::string& schedule, uint64_t max_points) {
  explore::SlabExecution e = explore::replay_slab(explore::parse_slab_replay_string(schedule), max_points);
  explore::set_schedule_field(e.history, schedule);  // the page's stepper replays it (gpulin render)
  const explore::Judgement j = explore::judge_slab(e, explore::JudgeOptions{});
  return replayed(std::move(e), j);
}

StructureRow slab_row(slab_hash::Mode mode) {
  StructureRow row;
  row.name = "slab-" + explore::slab_mode_name(mode);
  row.summary = mode == slab_hash::Mode::Multimap
                    ? std::string("slab hash, multimap mode: slab lists, warp-cooperative, SlabAlloc (paper: lock-free; "
                                  "fixed: a version word a bucket)")
                    : fmt::format("slab hash, {} mode: lock-free slab lists, warp-cooperative, SlabAlloc",
                                  explore::slab_mode_name(mode));
  row.source = "Ashkiani, Farach-Colton, Owens, the slab hash (shared/papers), Sections III-IV";
  // paper first: the default, so that replay strings and commands written before
  // the fixed variant existed keep their meaning.
  if (mode == slab_hash::Mode::Multimap) row.variants = {"paper", "fixed"};
  row.mutants = explore::slab_mutant_names();
  row.model = explore::slab_mode_name(mode);
  row.lp_rules = {"explicit"};
  row.params = {{"warps", "warps (actors)", "4", 1, sim::kMaxActors},
                // A set's slab holds 30 keys: 24 operations a warp grow a bucket's
                // list past its base slab, so that a search must follow it and warps
                // race to append a slab (the mutants search-first-slab, lost-next-cas).
                {"ops", "operations per warp, one a lane", mode == slab_hash::Mode::Set ? "24" : "16", 0, 32},
                {"keys", "keys are drawn from [0, N)", "40", 1, 0xfffffffeu},
                {"buckets", "buckets (base slabs)", "1", 1, 4096},
                {"alloc", "SlabAlloc-light or the regular SlabAlloc", "light", std::vector<std::string>{"light", "regular"}},
                // The GPU's unrecorded bulk builds of pairs run on tiles
                // (structures/slab_hash/slab_lanes.h); the simulator explores them.
                {"lanes", "lanes an operation: a warp (32) or a tile of one (16, 8; map and multimap)", "32",
                 std::vector<std::string>{"32", "16", "8"}}};
  row.explore = [](const explore::ExploreOptions& o, const Selection& s) {
    return explore::run_slab_explore(o, slab_config(s));
  };
  row.title = [](const Selection& s) {
    return fmt::format("{}{} buckets={} keys<{} alloc={} warps={} ops={}{}", s.structure,
                       s.variant.empty() ? "" : " " + s.variant, s.num("buckets"), s.num("keys"), s.text("alloc"),
                       s.num("warps"), s.num("ops"), s.text("lanes") == "32" ? "" : " lanes=" + s.text("lanes"));
  };
  const std::string prefix = row.name + ":";
  row.owns_replay = [prefix](const std::string& schedule) { return schedule.rfind(prefix, 0) == 0; };
  row.replay = replay_slab_row;
  // The stepper: the table's shared regions (HostSlabHash::shared_bytes) and its shape.
  row.draw_js = drawings::slab_hash_draw_js;
  row.state_layout = [](const std::string& schedule) {
    const explore::SlabConfig c = explore::parse_slab_replay_string(schedule).config;
    const slab_hash::SlabHashShape shape = explore::sim_shape(c);
    return fmt::format(R"({{"regions":["base","pool","bitmaps","versions"],"mode":"{}","buckets":{},"blocks_per_super":{}}})",
                       c.mode == slab_hash::Mode::Set ? "set" : c.mode == slab_hash::Mode::Map ? "map" : "multimap",
                       shape.buckets, shape.blocks_per_super);
  };
  // The paper multimap fails its model (findings S1, S3): expected to fail; the
  // fixed one must pass.
  if (mode == slab_hash::Mode::Multimap)
    row.survey = {{"paper", {}, 10000, false}, {"fixed", {}, 10000, true}};
  else
    row.survey = {{"", {}, 10000, true}};
  row.stress = cli::stress_slab;
  row.stress_params = cli::slab_stress_params();
  row.multi_gpu = true;  // one table partitioned by key over the GPUs
  return row;
}

}  // namespace

void add_slab_rows(Registry& r) {
  for (auto mode : {slab_hash::Mode::Map, slab_hash::Mode::Set, slab_hash::Mode::Multimap}) r.add(slab_row(mode));
}

}  // namespace gpulin::registry
