// gpulin stress: a registered structure on the GPU under a generated workload,
// checked (each row's `stress`, tools/registry/).
#include <fmt/core.h>

#include <map>
#include <string>
#include <vector>

#include "tools/commands.h"
#include "tools/registry/registry.h"
#include "tools/registry/stress_args.h"
#include "tools/param_options.h"

namespace gpulin::cli {

namespace {

// The rows whose stress spreads over several GPUs (--gpus).
std::vector<std::string> multi_gpu_names() {
  std::vector<std::string> names;
  for (const registry::StructureRow& r : registry::structures().rows())
    if (r.multi_gpu) names.push_back(r.name);
  return names;
}

struct StressCommand {
  std::string structure, variant, mutant = "none";
  std::map<std::string, std::string> given;  // the structure's options given
  registry::StressArgs args;
};

// The row, its selection (defaults, then what was given, each checked by the row)
// and the run; exit 2 with the reason on a bad choice.
int run_stress(StressCommand& c) {
  const registry::Registry& reg = registry::structures();
  const std::string name = c.structure.empty() ? reg.stress_names().front() : c.structure;
  const registry::StructureRow& row = *reg.find(name);
  if (!c.args.gpus.empty() && !row.multi_gpu) {
    fmt::print(stderr, "gpulin stress: --gpus runs {}; not {}\n", registry::joined(multi_gpu_names()), name);
    return int(kBadInput);
  }
  try {
    registry::Selection& s = c.args.selection;
    s = registry::default_stress_selection(row);
    if (!c.variant.empty()) s.variant = c.variant;
    s.mutant = c.mutant;
    registry::check_choice(row, s);
    for (const auto& [option, value] : c.given) registry::set_stress_param(row, s, option, value);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "gpulin stress: {}\n", e.what());
    return int(kBadInput);
  }
  return row.stress(c.args);
}

}  // namespace

void add_stress(CLI::App& app, std::function<int()>& run) {
  auto c = std::make_shared<StressCommand>();
  const std::vector<std::string> names = registry::structures().stress_names();
  CLI::App* sub = app.add_subcommand("stress", "run a structure on the GPU under a workload and check it");
  sub->add_option("--structure", c->structure, registry::joined(names) + " (default: the first)")
      ->check(CLI::IsMember(names));
  sub->add_option("--variant", c->variant, "the structure's variant (default: its first, gpulin list)");
  sub->add_option("--mutant", c->mutant, "a planted bug built into the structure's GPU kernels, none by default");
  sub->add_option("--seed", c->args.seed, "seed of the workload");
  sub->add_flag("--record", c->args.record, "record the history and check it");
  sub->add_option("--out", c->args.out_dir, "with --record: write the history as JSON Lines to this folder (a download)");
  sub->add_option("--gpus", c->args.gpus,
                  "on these GPUs at once (all, or device numbers: 0,1), each run checked (" + registry::joined(multi_gpu_names()) +
                      "); with --out a folder gpu-D each");
  add_param_options(
      sub, [](const registry::StructureRow& row) -> const std::vector<registry::Param>& { return row.stress_params; },
      c->given);
  sub->callback([c, &run] { run = [c] { return run_stress(*c); }; });
}

}  // namespace gpulin::cli
