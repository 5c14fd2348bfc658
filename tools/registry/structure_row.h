// One structure's row in the registry (tools/registry/registry.h): its names,
// variants, mutants, model, linearization-point rules and parameters, and the
// functions every subcommand calls for it. `explore`, `replay`, `stress`, `survey`
// and `list` read rows and nothing else; a structure, built in or a user's own
// (docs/own-structure.md), becomes part of the testbed by adding one.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/memory/memory_mode.h"
#include "tools/explore/explore.h"

namespace gpulin::registry {

// One structure parameter of `explore` or `stress` (--NAME VALUE): an unsigned
// integer in [min, max], one of `choices`, or free text its structure parses (a
// workload, a mix).
struct Param {
  Param(std::string name, std::string help, std::string fallback, uint64_t min, uint64_t max)
      : name(std::move(name)), help(std::move(help)), fallback(std::move(fallback)), min(min), max(max) {}
  Param(std::string name, std::string help, std::string fallback, std::vector<std::string> choices)
      : name(std::move(name)), help(std::move(help)), fallback(std::move(fallback)), choices(std::move(choices)) {}
  // Free text: the structure's driver checks it (and says what is wrong).
  static Param text(std::string name, std::string help, std::string fallback) {
    Param p(std::move(name), std::move(help), std::move(fallback), 0, 0);
    p.free_text = true;
    return p;
  }

  std::string name;
  std::string help;
  std::string fallback;  // the default, as text
  uint64_t min = 0, max = UINT64_MAX;
  std::vector<std::string> choices;  // non-empty: a word, not a number
  bool free_text = false;
  bool numeric() const { return choices.empty() && !free_text; }
};

// What the user chose: a structure, one of its variants and mutants, a value for
// every one of its parameters (defaults filled in), and the memory model.
struct Selection {
  std::string structure;
  std::string variant;         // "" where the row has no variants
  std::string mutant = "none";
  std::map<std::string, std::string> params;
  // The simulator's memory: sc, or the PTX model (sim/memory/); its replay strings
  // name it (memory_config_field).
  sim::memory::MemorySetting memory;

  uint64_t num(const std::string& name) const;        // a numeric parameter (throws if absent)
  uint32_t u32(const std::string& name) const { return static_cast<uint32_t>(num(name)); }
  const std::string& text(const std::string& name) const;
};

// One row of `gpulin survey`: a selection, the schedules it runs by default and
// whether it is expected to pass (a paper variant with known findings is not).
struct SurveyEntry {
  std::string variant;
  std::map<std::string, std::string> params;  // over the row's defaults
  uint64_t schedules = 1000;
  bool must_pass = true;
};

// A replayed schedule's outcome, as `gpulin replay` prints it.
struct Replayed {
  std::optional<History> history;   // absent for structures without one (the merge)
  std::string output;               // printed instead of a history
  sim::RunResult run;
  explore::Judgement judgement;
};

// A replay's outcome from an execution that recorded a history (its run and
// history moved out) and its judgement.
template <class Execution>
Replayed replayed(Execution&& e, explore::Judgement judgement) {
  Replayed r;
  r.judgement = std::move(judgement);
  r.run = std::move(e.run);
  r.history = std::move(e.history);
  return r;
}

// `gpulin stress`'s choices (tools/registry/stress_args.h).
struct StressArgs;

struct StructureRow {
  std::string name;     // --structure NAME
  std::string summary;  // one line for `gpulin list`
  std::string source;   // the paper, or where the structure comes from
  std::vector<std::string> variants;     // the first is the default; empty: none
  std::vector<std::string> mutants;      // compile-time planted bugs, "none" not listed
  std::string model;                     // the sequential model its histories are checked on
  std::vector<std::string> lp_rules;     // linearization-point rules its histories carry
  std::vector<Param> params;             // explore's structure options
  bool histories = true;                 // false: runs are judged by their output (the merge)

  // explore: the whole run (or the parts in o.units) of the selection.
  std::function<explore::ExploreSummary(const explore::ExploreOptions& o, const Selection& s)> explore;
  // explore's title line: the structure, its variant and parameters.
  std::function<std::string(const Selection& s)> title;
  // replay: whether a replay string is this structure's, and its exact re-run
  // (throws std::exception on a string or pick list that does not fit).
  std::function<bool(const std::string& schedule)> owns_replay;
  std::function<Replayed(const std::string& schedule, uint64_t max_points)> replay;
  // survey: the rows this structure adds to the main job's table.
  std::vector<SurveyEntry> survey;
  // stress on the GPU: empty where the structure has no GPU driver. Its options
  // (a.selection.params) are stress_params, defaults filled in.
  std::function<int(const StressArgs& a)> stress;
  std::vector<Param> stress_params;
  bool multi_gpu = false;  // stress --gpus: several GPUs at once

  // The stepper of gpulin render's page (docs/architecture.md, "The stepper"): the
  // words of the regions the structure's runner declares shared
  // (Simulator::set_shared_regions, then set_named_regions), taken at every
  // scheduling point of a replay (tools/registry/replay_states.h), drawn by
  // `draw_js`, a JavaScript function (S) => SVG markup kept beside the row
  // (structures/NAME/draw.js, embedded at build time: gpulin_structure's DRAW). `state_layout` says what the words
  // are for a replay string: a JSON object with "regions" (their names, in order)
  // and whatever else the drawing needs (k, capacities). Empty: no stepper.
  std::string draw_js;
  std::function<std::string(const std::string& schedule)> state_layout;
};

}  // namespace gpulin::registry
