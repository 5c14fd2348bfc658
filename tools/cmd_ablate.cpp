// gpulin ablate: which orderings a structure needs under the PTX memory model
// (tools/ablate/ablation.h): every ordering site its runs meet, weakened alone one
// way at a time and explored under ptx; a table of site, weakening and verdict.
#include <algorithm>
#include <map>
#include <thread>

#include <fmt/core.h>

#include "tools/ablate/ablation.h"
#include "tools/commands.h"
#include "tools/explore_text.h"
#include "tools/param_options.h"
#include "tools/registry/registry.h"
#include "tools/schedule_options.h"

namespace gpulin::cli {

namespace {

struct AblateArgs {
  std::string structure, variant;
  std::map<std::string, std::string> given;
  explore::ExploreOptions o;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
};

int bad_input(const std::string& message) {
  fmt::print(stderr, "gpulin ablate: {}\n", message);
  return int(kBadInput);
}

std::string accesses_text(const ablate::Ablation& a) {
  std::string out;
  for (const std::string& s : a.accesses) out += (out.empty() ? "" : ", ") + s;
  return out;
}

void print_result(const ablate::AblationResult& r) {
  const sim::memory::Weakening& w = r.ablation.weakening;
  fmt::print("{:<44} {:<10} {:<17} {}\n", fmt::format("{}:{}", w.file, w.line), sim::memory::to_string(w.what),
             ablate::to_string(r.verdict), accesses_text(r.ablation));
  if (r.kind != explore::Failure::None)
    fmt::print("    {} ({} ops): {}\n    replay: gpulin replay --schedule '{}'\n", explore::to_string(r.kind), r.ops,
               r.message, r.schedule);
}

int run_ablate(AblateArgs& a) {
  const registry::StructureRow* row = registry::structures().find(a.structure);
  if (!row)
    return bad_input(fmt::format("unknown structure '{}' ({})", a.structure, registry::joined(registry::structures().names())));
  registry::Selection s;
  try {
    s = registry::chosen_selection(*row, a.variant, "none", a.given);
  } catch (const std::invalid_argument& e) {
    return bad_input(e.what());
  }
  fmt::print("gpulin ablate: {} under ptx, each ordering weakened alone; {} {} schedules each ({})\n", row->title(s),
             a.o.schedules, a.o.strategy, strategy_text(a.o));
  const ablate::Inventory inv = ablate::inventory(*row, s, a.o);
  const bool clean = !inv.as_written.found_bug();
  fmt::print("as written: {} schedules, {}; {} ablations of the ordering sites its runs met\n", inv.as_written.schedules,
             clean ? "no failure" : "FAILS: nothing to ablate until it passes", inv.ablations.size());
  for (const auto& [kind, f] : inv.as_written.first)
    fmt::print("    {} ({} ops): {}\n    replay: gpulin replay --schedule '{}'\n", explore::to_string(kind), f.ops,
               f.message, f.schedule);
  if (!clean) return int(kViolation);
  const std::vector<ablate::AblationResult> results = ablate::run_ablations(*row, s, a.o, inv.ablations, a.jobs);
  fmt::print("{:<44} {:<10} {:<17} {}\n", "site", "weakening", "verdict", "accesses at the line, as written");
  std::map<ablate::Verdict, size_t> count;
  for (const ablate::AblationResult& r : results) {
    print_result(r);
    ++count[r.verdict];
  }
  fmt::print("needed {}, not shown needed {} (within {} schedules each), fails without it too {}, not reproduced {}\n",
             count[ablate::Verdict::Needed], count[ablate::Verdict::NotShownNeeded], a.o.schedules,
             count[ablate::Verdict::FailsUnderSc], count[ablate::Verdict::NotReproduced]);
  return int(kPass);
}

}  // namespace

void add_ablate(CLI::App& app, std::function<int()>& run) {
  auto args = std::make_shared<AblateArgs>();
  explore::ExploreOptions& o = args->o;
  const registry::Registry& reg = registry::structures();
  CLI::App* sub = app.add_subcommand(
      "ablate", "weaken each ordering of a structure alone (an acquire, a release, a fence, a .gpu scope, a strong "
                "access) and explore it under the PTX memory model: which orderings it needs");
  sub->add_option("--structure", args->structure, registry::joined(reg.names()))->required()->check(CLI::IsMember(reg.names()));
  sub->add_option("--variant", args->variant, "the structure's variant (default: its first)");
  add_param_options(
      sub, [](const registry::StructureRow& row) -> const std::vector<registry::Param>& { return row.params; },
      args->given);
  // PCT by default, not the explorer's portfolio: the results in bench/results/ablate/
  // were measured so, and a weakening's verdict is a comparison of runs of one strategy.
  o.strategy = "pct";
  add_schedule_options(sub, o, "schedules per weakening (and for the code as written)");
  sub->add_option("--jobs", args->jobs, "weakenings explored at once (default: the cores)")->check(CLI::Range(1u, 1024u));
  sub->callback([args, &run] { run = [args]() { return run_ablate(*args); }; });
}

}  // namespace gpulin::cli
