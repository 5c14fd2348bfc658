// gpulin survey: the main job. Both heaps, both variants, one table: how many
// schedules ran and what the checkers found in each.
#include <fmt/core.h>

#include "tools/commands.h"
#include "tools/explore/explore.h"
#include "tools/explore/survey_table.h"

namespace gpulin::cli {

void add_survey(CLI::App& app, std::function<int()>& run) {
  auto o = std::make_shared<explore::ExploreOptions>();
  o->schedules = 10000;
  CLI::App* sub = app.add_subcommand("survey", "explore both heaps in both variants and print one table");
  sub->add_option("--schedules", o->schedules, "PCT schedules per heap and variant");
  sub->add_option("--actors", o->shape.actors, "actors")->check(CLI::Range(1, 64));
  sub->add_option("--ops", o->shape.ops, "operations per actor");
  sub->add_option("--k", o->config.k, "node capacity")->check(CLI::Range(1, 1024));
  sub->add_option("--seed", o->seed, "seed");
  sub->add_option("--out", o->out_dir, "folder for the minimal failing histories");
  sub->callback([o, &run] {
    run = [o] {
      fmt::print("{}", explore::survey_header());
      bool fixed_bug = false, fixed_undecided = false;
      for (auto flavor : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp}) {
        for (auto variant : {gheap::Variant::Fixed, gheap::Variant::Paper}) {
          explore::ExploreOptions one = *o;
          one.config.flavor = flavor;
          one.config.variant = variant;
          one.strategy = "pct";
          const auto s = explore::run_explore(one);
          fmt::print("{}", explore::survey_row(explore::structure_name(flavor), explore::variant_name(variant), s));
          if (variant == gheap::Variant::Fixed) {
            fixed_bug = fixed_bug || s.found_bug();
            fixed_undecided = fixed_undecided || !explore::survey_clean(s);
          }
        }
      }
      fmt::print("{}", explore::survey_legend());
      // A fixed heap with a bug: 1; else with an undecided history: 3 (not clean).
      if (fixed_bug) return int(kViolation);
      return fixed_undecided ? int(kUndecided) : int(kPass);
    };
  });
}

}  // namespace gpulin::cli
