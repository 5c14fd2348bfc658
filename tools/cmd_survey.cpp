// gpulin survey: the main job. Every registered structure in each of its survey
// variants (tools/registry/), explored under the strategy portfolio (or the one
// --strategy names), one table: how many schedules ran and what the checkers found
// in each.
#include <algorithm>
#include <atomic>
#include <thread>

#include <fmt/core.h>

#include "sim/memory/memory_mode.h"
#include "tools/commands.h"
#include "tools/explore/survey_table.h"
#include "tools/registry/registry.h"

namespace gpulin::cli {

namespace {

struct SurveyArgs {
  explore::ExploreOptions o;
  uint64_t schedules = 0;  // 0: each row's own count
  std::vector<std::string> only;
  std::string memory = "sc";
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
};

struct SurveyRun {
  const registry::StructureRow* row = nullptr;
  registry::SurveyEntry entry;
  explore::ExploreSummary summary;
  std::string error;
};

int survey(const SurveyArgs& a) {
  std::vector<SurveyRun> runs;
  for (const registry::StructureRow& row : registry::structures().rows()) {
    if (!a.only.empty() && std::find(a.only.begin(), a.only.end(), row.name) == a.only.end()) continue;
    for (const registry::SurveyEntry& e : row.survey) runs.push_back({&row, e, {}, {}});
  }
  // The rows run side by side, a thread each at a time; the table is printed in
  // registry order.
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next++) < runs.size();) {
      SurveyRun& r = runs[i];
      try {
        registry::Selection s = registry::default_selection(*r.row);
        s.memory = *sim::memory::parse_memory_mode(a.memory);
        if (!r.entry.variant.empty()) s.variant = r.entry.variant;
        for (const auto& [name, value] : r.entry.params) registry::set_param(*r.row, s, name, value);
        explore::ExploreOptions o = a.o;
        o.schedules = a.schedules ? a.schedules : r.entry.schedules;
        o.coverage = false;  // the table has no column for it: the logs would only cost
        r.summary = r.row->explore(o, s);
      } catch (const std::exception& e) {
        r.error = e.what();
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::min<size_t>(a.jobs, runs.size()); ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();

  if (a.memory != "sc")
    fmt::print("memory: {} (the PTX memory model: a load may read an older store{})\n", a.memory,
               a.memory == "ptx" ? "; a data race ends the run" : "; data races not checked");
  fmt::print("{}", explore::survey_header());
  bool bug = false, undecided = false, broken = false;
  for (const SurveyRun& r : runs) {
    const std::string variant = r.entry.variant.empty() ? "-" : r.entry.variant;
    if (!r.error.empty()) {
      fmt::print("{:<14} {:<7} error: {}\n", r.row->name, variant, r.error);
      broken = true;
      continue;
    }
    fmt::print("{}", explore::survey_row(r.row->name, variant, r.summary));
    if (r.entry.must_pass) {
      bug = bug || r.summary.found_bug();
      undecided = undecided || !explore::survey_clean(r.summary);
    }
  }
  fmt::print("{}", explore::survey_legend());
  // A variant that should pass with a bug: 1; else with an undecided history: 3
  // (not clean); a row that could not run: 2.
  if (broken) return int(kBadInput);
  if (bug) return int(kViolation);
  return undecided ? int(kUndecided) : int(kPass);
}

}  // namespace

void add_survey(CLI::App& app, std::function<int()>& run) {
  auto a = std::make_shared<SurveyArgs>();
  CLI::App* sub = app.add_subcommand("survey", "explore every registered structure in its variants and print one table");
  sub->add_option("--schedules", a->schedules, "schedules per row (default: each structure's own)");
  sub->add_option("--strategy", a->o.strategy,
                  "portfolio (default: " + explore::portfolio_text() + " in turns), random, pct or pos")
      ->check(CLI::IsMember({"portfolio", "random", "pct", "pos"}));
  sub->add_option("--only", a->only, "survey only these structures (gpulin list)")
      ->check(CLI::IsMember(registry::structures().names()));
  sub->add_option("--jobs", a->jobs, "rows explored at once (default: the cores)")->check(CLI::Range(1u, 1024u));
  sub->add_option("--seed", a->o.seed, "seed");
  sub->add_option("--out", a->o.out_dir, "folder for the minimal failing histories");
  sub->add_option("--memory", a->memory, "sc (default), ptx: the PTX memory model, a data race ends a run, or ptx-racy: races let be (docs/memory-model.md)")
      ->check(CLI::IsMember(sim::memory::memory_mode_names()));
  sub->callback([a, &run] { run = [a] { return survey(*a); }; });
}

}  // namespace gpulin::cli
