// gpulin explore: simulated schedules of a heap (every history checked) or of the
// global merge (every output checked against std::merge).
#include <unistd.h>

#include <fmt/core.h>

#include "tools/commands.h"
#include "tools/explore/explore.h"
#include "tools/explore/merge_explore.h"
#include "tools/explore/merge_run.h"

namespace gpulin::cli {

namespace {
struct ExploreArgs {
  std::string structure = "gheap-td", variant = "fixed", mutant = "none";
  explore::ExploreOptions o;
  explore::MergeConfig merge;
};

std::string strategy_text(const explore::ExploreOptions& o) {
  return fmt::format("strategy={}{} seed={}", o.strategy,
                     o.strategy == "pct"   ? fmt::format(" depth={}", o.depth)
                     : o.strategy == "dfs" ? fmt::format(" preemptions={}", o.preemptions)
                                           : "",
                     o.seed);
}

void print_counts(const explore::ExploreOptions& o, const explore::ExploreSummary& s, bool heap);

void print_summary(const explore::ExploreOptions& o, const explore::ExploreSummary& s) {
  fmt::print("{} {} k={} actors={} ops={} {}{}\n", explore::structure_name(o.config.flavor),
             explore::variant_name(o.config.variant), o.config.k, o.shape.actors, o.shape.ops, strategy_text(o),
             o.config.mutant == gheap::Mutant::None ? "" : " mutant=" + explore::mutant_name(o.config.mutant));
  print_counts(o, s, true);
}

void print_merge_summary(const explore::ExploreOptions& o, const explore::MergeConfig& m,
                         const explore::ExploreSummary& s) {
  fmt::print("merge blocks<={} len<={} {}{}\n", m.blocks, m.max_len, strategy_text(o),
             m.mutant == merge_path::MergeMutant::None ? "" : " mutant=" + explore::merge_mutant_name(m.mutant));
  print_counts(o, s, false);
}

// The merge has no history, lock invariant or proof points: it counts distinct
// outputs, and its wrong results as violations of its specification (std::merge).
void print_counts(const explore::ExploreOptions& o, const explore::ExploreSummary& s, bool heap) {
  const char* unit = heap ? "operations" : "input keys";
  fmt::print("  schedules            {}{}\n", s.schedules,
             o.strategy == "dfs" ? (s.exhaustive ? " (exhaustive within the bound)" : " (bound not exhausted)") : "");
  fmt::print("  scheduling points/s  {:.1f} M  ({} points in {:.2f} s of simulation; {:.2f} s in all)\n",
             s.points / std::max(s.sim_seconds, 1e-9) / 1e6, s.points, s.sim_seconds, s.total_seconds);
  fmt::print("  distinct {}   {}\n", heap ? "histories" : "outputs  ", s.distinct_histories);
  if (heap) fmt::print("  searched histories   {}\n", s.searched);
  auto n = [&s](explore::Failure f) { auto it = s.counts.find(f); return it == s.counts.end() ? 0 : it->second; };
  fmt::print("  violations           {}\n", n(explore::Failure::Violation));
  if (heap) fmt::print("  invariant failures   {}\n", n(explore::Failure::Invariant));
  fmt::print("  deadlocks            {}\n", n(explore::Failure::Deadlock));
  fmt::print("  livelocks            {}\n", n(explore::Failure::Livelock));
  fmt::print("  faults               {}\n", n(explore::Failure::Fault));
  if (heap) {
    fmt::print("  proof-point failures {}  (witness rule fails, search linearizes)\n", n(explore::Failure::WitnessOnly));
    fmt::print("  undecided            {}\n", n(explore::Failure::Undecided));
  }
  for (const auto& [kind, r] : s.first) {
    fmt::print("first {} (schedule {}), shrunk to {} {}:\n  {}\n  replay: gpulin replay --schedule '{}'\n",
               explore::to_string(kind), r.found_at, r.ops, unit, r.message, r.schedule);
    if (!r.history_path.empty()) fmt::print("  history: {}\n", r.history_path);
  }
}
}  // namespace

void add_explore(CLI::App& app, std::function<int()>& run) {
  auto args = std::make_shared<ExploreArgs>();
  auto& o = args->o;
  CLI::App* sub = app.add_subcommand("explore", "run simulated schedules of a heap and check every history");
  sub->add_option("--structure", args->structure, "gheap-td, gheap-bu or merge")
      ->check(CLI::IsMember({"gheap-td", "gheap-bu", "merge"}));
  sub->add_option("--blocks", args->merge.blocks, "merge: blocks (3 warps each)")
      ->check(CLI::Range(1u, explore::kMergeMaxBlocks));
  sub->add_option("--len", args->merge.max_len, "merge: inputs of 0 to N keys each")->check(CLI::Range(0, 4096));
  sub->add_option("--variant", args->variant, "paper or fixed")->check(CLI::IsMember({"paper", "fixed"}));
  sub->add_option("--actors", o.shape.actors, "actors (thread blocks), 1-64")->check(CLI::Range(1, 64));
  sub->add_option("--ops", o.shape.ops, "operations per actor")->check(CLI::Range(0, 100000));
  sub->add_option("--k", o.config.k, "node capacity")->check(CLI::Range(1, 1024));
  sub->add_option("--strategy", o.strategy, "random, pct or dfs")->check(CLI::IsMember({"random", "pct", "dfs"}));
  sub->add_option("--depth", o.depth, "PCT bug depth d")->check(CLI::Range(1, 64));
  sub->add_option("--preemptions", o.preemptions, "dfs preemption bound")->check(CLI::Range(0, 64));
  sub->add_option("--schedules", o.schedules, "schedules to run");
  sub->add_option("--seed", o.seed, "seed of workloads and strategy");
  sub->add_option("--mutant", args->mutant, "bug injection (none, early-root-release, start-at-parent, skip-partial-merge, "
                                            "unlock-before-lock, bitrev-off-by-one, fixed-big-child; merge: merge-window-overrun)");
  sub->add_option("--out", o.out_dir, "folder for minimal failing histories and schedules");
  sub->add_option("--partial", o.shape.partial_percent, "percent of inserts that are partial batches")->check(CLI::Range(0, 100));
  sub->add_option("--inserts", o.shape.insert_percent, "percent of operations that are inserts")->check(CLI::Range(0, 100));
  sub->add_option("--keys", o.shape.key_range, "keys are drawn from [0, N)")->check(CLI::Range(1u, 0xfffffffeu));
  sub->add_option("--threads", o.config.threads, "lanes per simulated block (merge-path split)")->check(CLI::Range(1, 1024));
  sub->add_option("--program-every", o.program_every, "random/pct: a new program every N schedules (0: one program)");
  sub->add_option("--max-points", o.max_points, "scheduling points per run before a livelock is reported");
  sub->add_option("--search-max-ops", o.judge.search_max_ops, "run the general search on histories up to this many ops");
  sub->add_flag("--no-shrink", [&o](int64_t) { o.shrink = false; }, "report failures without shrinking them");
  sub->callback([args, &run] {
    run = [args]() {
      auto& o = args->o;
      o.progress = isatty(STDERR_FILENO);
      if (args->structure == "merge") {
        const auto m = explore::parse_merge_mutant(args->mutant);
        if (!m) {
          fmt::print(stderr, "gpulin explore: unknown merge mutant '{}'\n", args->mutant);
          return int(kBadInput);
        }
        args->merge.mutant = *m;
        const auto summary = explore::run_merge_explore(o, args->merge);
        print_merge_summary(o, args->merge, summary);
        return summary.found_bug() ? int(kViolation) : int(kPass);
      }
      o.config.flavor = *explore::parse_structure(args->structure);
      o.config.variant = *explore::parse_variant(args->variant);
      auto m = explore::parse_mutant(args->mutant);
      if (!m) {
        fmt::print(stderr, "gpulin explore: unknown mutant '{}'\n", args->mutant);
        return int(kBadInput);
      }
      o.config.mutant = *m;
      const auto summary = explore::run_explore(o);
      print_summary(o, summary);
      return summary.found_bug() ? int(kViolation) : int(kPass);
    };
  });
}

}  // namespace gpulin::cli
