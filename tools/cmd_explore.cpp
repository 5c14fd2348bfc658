// gpulin explore: simulated schedules of a registered structure (tools/registry/),
// every run checked: histories against the structure's model, the merge's outputs
// against std::merge.
#include <unistd.h>

#include <algorithm>
#include <map>

#include <fmt/core.h>

#include "sim/memory/memory_mode.h"
#include "tools/commands.h"
#include "tools/explore_text.h"
#include "tools/mpi_explore.h"
#include "tools/param_options.h"
#include "tools/explore/report_json.h"
#include "tools/registry/registry.h"
#include "tools/render_page.h"
#include "tools/schedule_options.h"

namespace gpulin::cli {

namespace {
struct ExploreArgs {
  std::string structure, variant, mutant = "none";  // structure: the registry's first row by default
  std::string memory = "sc";
  explore::ExploreOptions o;
  std::map<std::string, std::string> given;  // structure options given on the command line
  std::string render;  // the first failure's timeline page goes here
  std::string shard;   // "i/N"
  bool json = false;
  bool mpi = false;
  // Set once the options are checked:
  const registry::StructureRow* row = nullptr;
  registry::Selection selection;
};

// The options that define the run, as JSON values: reports merge only when these
// are equal. The structure's own parameters follow the schedule options.
std::vector<std::pair<std::string, std::string>> run_fields(const ExploreArgs& a) {
  const explore::ExploreOptions& o = a.o;
  auto text = [](const std::string& s) { return fmt::format("\"{}\"", s); };
  auto num = [](uint64_t v) { return std::to_string(v); };
  // Seconds, as JSON writes a number (and a merge compares the fields as text).
  auto num_real = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return std::string(buf);
  };
  const registry::Selection& s = a.selection;
  std::vector<std::pair<std::string, std::string>> fields = {
      {"structure", text(s.structure)}, {"variant", text(s.variant)}, {"mutant", text(s.mutant)},
      {"memory", text(sim::memory::to_string(s.memory))},
      {"strategy", text(o.strategy)}, {"depth", num(o.depth)}, {"preemptions", num(o.preemptions)},
      {"schedules", num(o.schedules)}, {"time_limit", num_real(o.time_limit)}, {"seed", num(o.seed)}, {"program_every", num(o.program_every)},
      {"max_points", num(o.max_points)}, {"search_max_ops", num(o.judge.search_max_ops)},
      {"shrink", o.shrink ? "true" : "false"}};
  for (const registry::Param& p : a.row->params)
    fields.emplace_back(p.name, p.numeric() ? s.params.at(p.name) : text(s.params.at(p.name)));
  return fields;
}

void print_summary(const ExploreArgs& a, const explore::ExploreSummary& s) {
  fmt::print("{} {}{}{}\n", a.row->title(a.selection), strategy_text(a.o),
             a.selection.mutant == "none" ? "" : " mutant=" + a.selection.mutant,
             a.selection.memory == sim::memory::MemoryMode::Sc ? "" : std::string(" memory=") + to_string(a.selection.memory));
  print_counts(a.o.strategy, s, a.row->histories);
}

int bad_input(const std::string& message) {
  fmt::print(stderr, "gpulin explore: {}\n", message);
  return int(kBadInput);
}

int exit_code(const explore::ExploreSummary& s) { return s.found_bug() ? int(kViolation) : int(kPass); }

// With --render: the timeline page of the first failure found (the earliest
// schedule) that has a history; then the exit code.
int finish(const ExploreArgs& a, const explore::ExploreSummary& s) {
  if (!a.render.empty()) {
    const explore::FailureReport* first = nullptr;
    for (const auto& [kind, r] : s.first)
      if (r.history && (!first || r.found_at < first->found_at)) first = &r;
    std::FILE* out = a.json ? stderr : stdout;  // --json keeps stdout one JSON object
    if (!first) {
      fmt::print(out, "  page: none (no failure with a history)\n");
    } else {
      try {
        fmt::print(out, "  page: {}\n", write_timeline_page(*first->history, a.render,
                                                       fmt::format("first {} (schedule {}): {}", explore::to_string(first->kind),
                                                                   first->found_at, first->schedule),
                                                       {}, {}, 20, std::string(explore::to_string(first->kind)) + ": " + first->message,
                                                       page_marks(first->marks)));
      } catch (const std::exception& e) {
        fmt::print(stderr, "gpulin explore: no page: {}\n", e.what());
      }
    }
  }
  return exit_code(s);
}

// The registered structure and its selection (variant, mutant, every parameter);
// false after printing what is wrong.
bool select(ExploreArgs& a) {
  if (a.structure.empty()) a.structure = registry::structures().rows().front().name;
  a.row = registry::structures().find(a.structure);
  if (!a.row)
    return bad_input(fmt::format("unknown structure '{}' ({})", a.structure, registry::joined(registry::structures().names()))),
           false;
  try {
    a.selection = registry::chosen_selection(*a.row, a.variant, a.mutant, a.given);
    a.selection.memory = *sim::memory::parse_memory_mode(a.memory);
  } catch (const std::invalid_argument& e) {
    return bad_input(e.what()), false;
  }
  return true;
}

explore::ExploreSummary run_row(const ExploreArgs& a, const explore::ExploreOptions& o) {
  return a.row->explore(o, a.selection);
}

explore::ExploreReport report_of(const ExploreArgs& a, explore::ExploreSummary s, std::string split) {
  return {run_fields(a), std::move(split), std::move(s), a.row->histories};
}

// explore --mpi: every rank explores the parts rank 0 hands it; rank 0 merges the
// ranks' reports and prints the whole.
int explore_mpi(ExploreArgs& a) {
  a.o.progress = false;
  const auto reports = mpi_explore([&](const explore::UnitSource& parts, int rank) {
    explore::ExploreOptions o = a.o;
    o.units = parts;
    if (!o.out_dir.empty()) o.out_dir += fmt::format("/rank-{}", rank);  // ranks find different firsts
    return explore::report_json(report_of(a, run_row(a, o), "mpi rank"));
  });
  if (!reports) return int(kPass);  // not rank 0: rank 0 reports
  std::vector<explore::ExploreReport> parsed;
  std::vector<std::string> sources;
  for (size_t r = 0; r < reports->size(); ++r) {
    sources.push_back(fmt::format("rank {}", r));
    parsed.push_back(explore::parse_report_json((*reports)[r], sources.back()));
  }
  explore::ExploreReport merged = explore::merge_reports(parsed, sources);
  merged.split = fmt::format("mpi {} ranks", reports->size());
  if (a.json)
    fmt::print("{}\n", explore::report_json(merged));
  else
    print_summary(a, merged.summary);
  return exit_code(merged.summary);
}

int run_exploration(ExploreArgs& a) {
  a.o.progress = isatty(STDERR_FILENO) && !a.json;
  if (!select(a)) return int(kBadInput);
  if (a.mpi && !a.shard.empty()) return bad_input("--shard and --mpi: choose one (MPI splits the run itself)");
  if (a.mpi) {
    if (!mpi_available()) return bad_input("--mpi: this gpulin was built without MPI (scripts/setup.sh installs it)");
    return explore_mpi(a);
  }
  std::string split = "all";
  if (!a.shard.empty()) {
    const auto shard = explore::parse_shard(a.shard);
    if (!shard) return bad_input(fmt::format("--shard '{}': want i/N with 1 <= i <= N", a.shard));
    a.o.units = explore::shard_units(*shard);
    split = "shard " + a.shard;
    // Shards may share a folder (a cluster's file system); each finds its own firsts.
    if (!a.o.out_dir.empty()) a.o.out_dir += fmt::format("/shard-{}", shard->index);
  }
  const explore::ExploreSummary summary = run_row(a, a.o);
  if (a.json)
    fmt::print("{}\n", explore::report_json(report_of(a, summary, split)));
  else
    print_summary(a, summary);
  return finish(a, summary);
}

}  // namespace

void add_explore(CLI::App& app, std::function<int()>& run) {
  auto args = std::make_shared<ExploreArgs>();
  auto& o = args->o;
  const registry::Registry& reg = registry::structures();
  CLI::App* sub = app.add_subcommand("explore", "run simulated schedules of a registered structure and check every run "
                                                 "(gpulin list shows them)");
  sub->add_option("--structure", args->structure, registry::joined(reg.names()) + " (default: the first)")->check(CLI::IsMember(reg.names()));
  sub->add_option("--variant", args->variant, "the structure's variant (paper or fixed where it has them; default: "
                                              "its first)");
  std::string mutants;
  for (const registry::StructureRow& row : reg.rows())
    if (!row.mutants.empty()) mutants += fmt::format("{}{}: {}", mutants.empty() ? "" : "; ", row.name, registry::joined(row.mutants));
  sub->add_option("--mutant", args->mutant, "a planted bug, none by default (" + mutants + ")");
  add_param_options(
      sub, [](const registry::StructureRow& row) -> const std::vector<registry::Param>& { return row.params; },
      args->given);
  sub->add_option("--memory", args->memory,
                  "sc: every load reads the newest store; ptx: the PTX memory model, where a load may read an older "
                  "one and a data race ends the run; ptx-racy: the same, races let be (docs/memory-model.md)")
      ->check(CLI::IsMember(sim::memory::memory_mode_names()));
  add_schedule_options(sub, o, "schedules to run");
  sub->add_option("--time-limit", o.time_limit,
                  "seconds after which no further schedule starts (the report says the run stopped there; a search "
                  "so cut is not complete)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--out", o.out_dir, "folder for minimal failing histories and schedules");
  sub->add_option("--render", args->render, "write the first failure's timeline page here (gpulin render)");
  sub->add_option("--program-every", o.program_every, "random/pct: a new program every N schedules (0: one program)");
  sub->add_option("--search-max-ops", o.judge.search_max_ops, "run the general search on histories up to this many ops");
  sub->add_flag("--no-shrink", [&o](int64_t) { o.shrink = false; }, "report failures without shrinking them");
  sub->add_option("--shard", args->shard,
                  "explore part i of N (1-based): disjoint random/pct schedules or dfs subtrees; "
                  "merge-reports joins the N --json reports into the whole run's");
  sub->add_flag("--mpi", args->mpi,
                "under mpirun: the ranks share the run, rank 0 handing out schedule ranges or dfs subtrees as "
                "ranks ask, and rank 0 prints the merged report");
  sub->add_flag("--json", args->json,
                "print the report as one JSON object (counts, first failures with replay strings, the "
                "fingerprints of the distinct histories)");
  sub->callback([args, &run] { run = [args]() { return run_exploration(*args); }; });
}

}  // namespace gpulin::cli
