#include "tools/schedule_options.h"

namespace gpulin::cli {

void add_schedule_options(CLI::App* sub, explore::ExploreOptions& o, const std::string& schedules_help) {
  sub->add_option("--strategy", o.strategy, "random, pct or dfs")->check(CLI::IsMember({"random", "pct", "dfs"}));
  sub->add_option("--depth", o.depth, "PCT bug depth d")->check(CLI::Range(1, 64));
  sub->add_option("--preemptions", o.preemptions, "dfs preemption bound")->check(CLI::Range(0, 64));
  sub->add_option("--schedules", o.schedules, schedules_help);
  sub->add_option("--seed", o.seed, "seed of workloads and strategy");
  sub->add_option("--max-points", o.max_points, "scheduling points per run before a livelock is reported");
}

}  // namespace gpulin::cli
