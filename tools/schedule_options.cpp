#include "tools/schedule_options.h"

namespace gpulin::cli {

void add_schedule_options(CLI::App* sub, explore::ExploreOptions& o, const std::string& schedules_help) {
  sub->add_option("--strategy", o.strategy,
                  "portfolio (" + explore::portfolio_text() +
                      " in turns), random, pct, pos (partial order sampling), dfs (bounded preemptions) or dpor "
                      "(every trace, no bound)")
      ->check(CLI::IsMember({"portfolio", "random", "pct", "pos", "dfs", "dpor"}));
  sub->add_flag("!--no-coverage", o.coverage, "do not count distinct traces (each run's steps unlogged: faster)");
  sub->add_flag("!--no-symmetry", o.symmetry, "dpor: explore every actor of an orbit, not one representative");
  sub->add_option("--depth", o.depth, "PCT bug depth d")->check(CLI::Range(1, 64));
  sub->add_option("--preemptions", o.preemptions, "dfs preemption bound")->check(CLI::Range(0, 64));
  sub->add_option("--schedules", o.schedules, schedules_help);
  sub->add_option("--seed", o.seed, "seed of workloads and strategy");
  sub->add_option("--max-points", o.max_points, "scheduling points per run before a livelock is reported");
}

}  // namespace gpulin::cli
