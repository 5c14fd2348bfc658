// gpulin survey: the main job. Both heaps, both variants, one table: how many
// schedules ran and what the checkers found in each.
#include <fmt/core.h>

#include "tools/commands.h"
#include "tools/explore/explore.h"

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
      fmt::print("{:<9} {:<6} {:>9} {:>9} {:>10} {:>9} {:>9} {:>9} {:>7}  {}\n", "heap", "variant", "schedules",
                 "Mpoints/s", "histories", "violation", "invariant", "deadlock", "proof", "first failure (replay with gpulin replay)");
      bool fixed_clean = true;
      for (auto flavor : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp}) {
        for (auto variant : {gheap::Variant::Fixed, gheap::Variant::Paper}) {
          explore::ExploreOptions one = *o;
          one.config.flavor = flavor;
          one.config.variant = variant;
          one.strategy = "pct";
          const auto s = explore::run_explore(one);
          auto n = [&s](explore::Failure f) { auto it = s.counts.find(f); return it == s.counts.end() ? 0 : it->second; };
          std::string first;
          for (const auto& [kind, r] : s.first)
            if (explore::is_bug(kind)) { first = fmt::format("{} ({} ops): {}", explore::to_string(kind), r.ops, r.schedule); break; }
          fmt::print("{:<9} {:<6} {:>9} {:>9.1f} {:>10} {:>9} {:>9} {:>9} {:>7}  {}\n", explore::structure_name(flavor),
                     explore::variant_name(variant), s.schedules, s.points / std::max(s.sim_seconds, 1e-9) / 1e6,
                     s.distinct_histories, n(explore::Failure::Violation), n(explore::Failure::Invariant),
                     n(explore::Failure::Deadlock) + n(explore::Failure::Livelock), n(explore::Failure::WitnessOnly),
                     first.empty() ? "-" : first);
          if (variant == gheap::Variant::Fixed && s.found_bug()) fixed_clean = false;
        }
      }
      fmt::print("columns: violation = no linearization exists (search); invariant = heap properties 1-3 or a lock\n"
                 "held at a quiescent point; deadlock = every live actor blocked (or livelock); proof = the paper's\n"
                 "linearization points (root-release / last-lock) fail although the history is linearizable.\n");
      return fixed_clean ? int(kPass) : int(kViolation);
    };
  });
}

}  // namespace gpulin::cli
