// gpulin explore: simulated schedules of a heap or of the slab hash (every history
// checked) or of the global merge (every output checked against std::merge).
#include <unistd.h>

#include <fmt/core.h>

#include "tools/commands.h"
#include "tools/render_page.h"
#include "tools/explore/bucket_explore.h"
#include "tools/explore/explore.h"
#include "tools/explore/merge_explore.h"
#include "tools/explore/merge_run.h"
#include "tools/explore/psync_explore.h"
#include "tools/explore/slab_explore.h"

namespace gpulin::cli {

namespace {
struct ExploreArgs {
  std::string structure = "gheap-td", variant = "fixed", mutant = "none";
  explore::ExploreOptions o;
  explore::MergeConfig merge;
  explore::SlabConfig slab;
  explore::PsyncConfig psync;
  explore::BucketConfig bucket;
  std::string alloc = "light";
  std::string render;  // the first failure's timeline page goes here
};

std::string strategy_text(const explore::ExploreOptions& o) {
  return fmt::format("strategy={}{} seed={}", o.strategy,
                     o.strategy == "pct"   ? fmt::format(" depth={}", o.depth)
                     : o.strategy == "dfs" ? fmt::format(" preemptions={}", o.preemptions)
                                           : "",
                     o.seed);
}

void print_counts(const explore::ExploreOptions& o, const explore::ExploreSummary& s, bool histories);

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

void print_slab_summary(const explore::ExploreOptions& o, const explore::SlabConfig& c,
                        const explore::ExploreSummary& s) {
  fmt::print("slab-{} buckets={} keys<{} alloc={} warps={} ops={} {}{}\n", explore::slab_mode_name(c.mode), c.buckets,
             c.keys, c.light ? "light" : "regular", c.warps, c.ops, strategy_text(o),
             c.mutant == slab_hash::Mutant::None ? "" : " mutant=" + explore::slab_mutant_name(c.mutant));
  print_counts(o, s, true);
}

void print_psync_summary(const explore::ExploreOptions& o, const explore::PsyncConfig& c,
                         const explore::ExploreSummary& s) {
  fmt::print("psync r={} cycles={} keys<{} {}{}\n", c.r, c.cycles, c.keys, strategy_text(o),
             c.mutant == psync::Mutant::None ? "" : " mutant=" + explore::psync_mutant_name(c.mutant));
  print_counts(o, s, true);
}

void print_bucket_summary(const explore::ExploreOptions& o, const explore::BucketConfig& c,
                          const explore::ExploreSummary& s) {
  fmt::print("bucket-heap {} d={} ops={} {}{}\n", explore::bucket_variant_name(c.variant), c.d, c.ops, strategy_text(o),
             c.mutant == bucket_heap::Mutant::None ? "" : " mutant=" + explore::bucket_mutant_name(c.mutant));
  print_counts(o, s, true);
}

// Heaps and the slab hash count every kind of failure of their histories. The merge
// has no history, lock invariant or proof points: it counts distinct outputs, and
// its wrong results as violations of its specification (std::merge).
void print_counts(const explore::ExploreOptions& o, const explore::ExploreSummary& s, bool histories) {
  const char* unit = histories ? "operations" : "input keys";
  fmt::print("  schedules            {}{}\n", s.schedules,
             o.strategy == "dfs" ? (s.exhaustive ? " (exhaustive within the bound)" : " (bound not exhausted)") : "");
  fmt::print("  scheduling points/s  {:.1f} M  ({} points in {:.2f} s of simulation; {:.2f} s in all)\n",
             s.points / std::max(s.sim_seconds, 1e-9) / 1e6, s.points, s.sim_seconds, s.total_seconds);
  fmt::print("  distinct {}   {}\n", histories ? "histories" : "outputs  ", s.distinct_histories);
  if (histories) fmt::print("  searched histories   {}\n", s.searched);
  auto n = [&s](explore::Failure f) { auto it = s.counts.find(f); return it == s.counts.end() ? 0 : it->second; };
  fmt::print("  violations           {}\n", n(explore::Failure::Violation));
  if (histories) fmt::print("  invariant failures   {}\n", n(explore::Failure::Invariant));
  fmt::print("  deadlocks            {}\n", n(explore::Failure::Deadlock));
  fmt::print("  livelocks            {}\n", n(explore::Failure::Livelock));
  fmt::print("  faults               {}\n", n(explore::Failure::Fault));
  if (histories) {
    fmt::print("  proof-point failures {}  (witness rule fails, search linearizes)\n", n(explore::Failure::WitnessOnly));
    fmt::print("  undecided            {}\n", n(explore::Failure::Undecided));
  }
  for (const auto& [kind, r] : s.first) {
    fmt::print("first {} (schedule {}), shrunk to {} {}:\n  {}\n  replay: gpulin replay --schedule '{}'\n",
               explore::to_string(kind), r.found_at, r.ops, unit, r.message, r.schedule);
    if (!r.history_path.empty()) fmt::print("  history: {}\n", r.history_path);
  }
}

std::string names_text(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}
std::string slab_mutants_text() { return names_text(explore::slab_mutant_names()); }

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
    if (!first) {
      fmt::print("  page: none (no failure with a history)\n");
    } else {
      try {
        fmt::print("  page: {}\n", write_timeline_page(*first->history, a.render,
                                                       fmt::format("first {} (schedule {}): {}", explore::to_string(first->kind),
                                                                   first->found_at, first->schedule),
                                                       {}, {}, 20, std::string(explore::to_string(first->kind)) + ": " + first->message));
      } catch (const std::exception& e) {
        fmt::print(stderr, "gpulin explore: no page: {}\n", e.what());
      }
    }
  }
  return exit_code(s);
}

int explore_slab(ExploreArgs& a, slab_hash::Mode mode) {
  explore::SlabConfig& c = a.slab;
  c.mode = mode;
  c.light = a.alloc == "light";
  const auto m = explore::parse_slab_mutant(a.mutant);
  if (!m) return bad_input(fmt::format("unknown slab mutant '{}' (none, {})", a.mutant, slab_mutants_text()));
  c.mutant = *m;
  if (c.ops > 32) return bad_input(fmt::format("--ops {}: a warp has at most 32 operations (one per lane)", c.ops));
  const auto summary = explore::run_slab_explore(a.o, c);
  print_slab_summary(a.o, c, summary);
  return finish(a, summary);
}

int explore_bucket(ExploreArgs& a) {
  explore::BucketConfig& c = a.bucket;
  const auto m = explore::parse_bucket_mutant(a.mutant);
  if (!m)
    return bad_input(
        fmt::format("unknown bucket-heap mutant '{}' (none, {})", a.mutant, names_text(explore::bucket_mutant_names())));
  c.mutant = *m;
  c.variant = a.variant == "paper" ? bucket_heap::Variant::Paper : bucket_heap::Variant::Fixed;
  const auto summary = explore::run_bucket_explore(a.o, c);
  print_bucket_summary(a.o, c, summary);
  return finish(a, summary);
}

int explore_psync(ExploreArgs& a) {
  explore::PsyncConfig& c = a.psync;
  const auto m = explore::parse_psync_mutant(a.mutant);
  if (!m)
    return bad_input(fmt::format("unknown psync mutant '{}' (none, {})", a.mutant, names_text(explore::psync_mutant_names())));
  c.mutant = *m;
  const auto summary = explore::run_psync_explore(a.o, c);
  print_psync_summary(a.o, c, summary);
  return finish(a, summary);
}
}  // namespace

void add_explore(CLI::App& app, std::function<int()>& run) {
  auto args = std::make_shared<ExploreArgs>();
  auto& o = args->o;
  CLI::App* sub = app.add_subcommand("explore", "run simulated schedules of a heap, the slab hash or the merge and check "
                                                 "every run");
  sub->add_option("--structure", args->structure, "gheap-td, gheap-bu, merge, slab-map, slab-set, slab-multimap, psync or "
                  "bucket-heap")
      ->check(CLI::IsMember({"gheap-td", "gheap-bu", "merge", "slab-map", "slab-set", "slab-multimap", "psync",
                             "bucket-heap"}));
  sub->add_option("--d", args->bucket.d, "bucket-heap: d, the most updates one BULKUPDATE takes")->check(CLI::Range(1, 64));
  sub->add_option("--r", args->psync.r, "psync: node capacity r")->check(CLI::Range(1, 64));
  sub->add_option("--cycles", args->psync.cycles, "psync: delete-insert cycles a program runs")->check(CLI::Range(1, 4096));
  sub->add_option("--blocks", args->merge.blocks, "merge: blocks (3 warps each)")
      ->check(CLI::Range(1u, explore::kMergeMaxBlocks));
  sub->add_option("--len", args->merge.max_len, "merge: inputs of 0 to N keys each")->check(CLI::Range(0, 4096));
  sub->add_option("--warps", args->slab.warps, "slab: warps (actors), 1-64")->check(CLI::Range(1u, sim::kMaxActors));
  sub->add_option("--buckets", args->slab.buckets, "slab: buckets (base slabs)")->check(CLI::Range(1, 4096));
  sub->add_option("--alloc", args->alloc, "slab: SlabAlloc-light or the regular SlabAlloc")
      ->check(CLI::IsMember({"light", "regular"}));  sub->add_option("--variant", args->variant, "paper or fixed")->check(CLI::IsMember({"paper", "fixed"}));
  sub->add_option("--actors", o.shape.actors, "actors (thread blocks), 1-64")->check(CLI::Range(1, 64));
  sub->add_option("--ops", o.shape.ops, "operations per actor (slab: per warp, at most 32; default 16)")
      ->check(CLI::Range(0, 100000));
  sub->add_option("--k", o.config.k, "node capacity")->check(CLI::Range(1, 1024));
  sub->add_option("--strategy", o.strategy, "random, pct or dfs")->check(CLI::IsMember({"random", "pct", "dfs"}));
  sub->add_option("--depth", o.depth, "PCT bug depth d")->check(CLI::Range(1, 64));
  sub->add_option("--preemptions", o.preemptions, "dfs preemption bound")->check(CLI::Range(0, 64));
  sub->add_option("--schedules", o.schedules, "schedules to run");
  sub->add_option("--seed", o.seed, "seed of workloads and strategy");
  sub->add_option("--mutant", args->mutant, "bug injection (none, early-root-release, start-at-parent, skip-partial-merge, "
                                            "unlock-before-lock, bitrev-off-by-one, fixed-big-child, lost-root-release; merge: "
                                            "merge-window-overrun; slab: " + slab_mutants_text() + "; psync: " +
                                            names_text(explore::psync_mutant_names()) + "; bucket-heap: " +
                                            names_text(explore::bucket_mutant_names()) + ")");
  sub->add_option("--out", o.out_dir, "folder for minimal failing histories and schedules");
  sub->add_option("--render", args->render, "write the first failure's timeline page here (gpulin render)");
  sub->add_option("--partial", o.shape.partial_percent, "percent of inserts that are partial batches")->check(CLI::Range(0, 100));
  sub->add_option("--inserts", o.shape.insert_percent, "percent of operations that are inserts")->check(CLI::Range(0, 100));
  sub->add_option("--keys", o.shape.key_range, "keys are drawn from [0, N) (slab default: 40)")
      ->check(CLI::Range(1u, 0xfffffffeu));
  sub->add_option("--threads", o.config.threads, "lanes per simulated block (merge-path split)")->check(CLI::Range(1, 1024));
  sub->add_option("--program-every", o.program_every, "random/pct: a new program every N schedules (0: one program)");
  sub->add_option("--max-points", o.max_points, "scheduling points per run before a livelock is reported");
  sub->add_option("--search-max-ops", o.judge.search_max_ops, "run the general search on histories up to this many ops");
  sub->add_flag("--no-shrink", [&o](int64_t) { o.shrink = false; }, "report failures without shrinking them");
  sub->callback([args, sub, &run] {
    // The heap's workload options also shape slab programs where given.
    if (sub->count("--ops")) args->slab.ops = args->bucket.ops = args->o.shape.ops;
    if (sub->count("--keys")) args->slab.keys = args->psync.keys = args->o.shape.key_range;
    run = [args]() {
      auto& o = args->o;
      o.progress = isatty(STDERR_FILENO);
      if (const auto mode = explore::parse_slab_structure(args->structure)) return explore_slab(*args, *mode);
      if (args->structure == "psync") return explore_psync(*args);
      if (args->structure == "bucket-heap") return explore_bucket(*args);
      if (args->structure == "merge") {
        const auto m = explore::parse_merge_mutant(args->mutant);
        if (!m) return bad_input(fmt::format("unknown merge mutant '{}'", args->mutant));
        args->merge.mutant = *m;
        const auto summary = explore::run_merge_explore(o, args->merge);
        print_merge_summary(o, args->merge, summary);
        return finish(*args, summary);
      }
      o.config.flavor = *explore::parse_structure(args->structure);
      o.config.variant = *explore::parse_variant(args->variant);
      auto m = explore::parse_mutant(args->mutant);
      if (!m) return bad_input(fmt::format("unknown mutant '{}'", args->mutant));
      o.config.mutant = *m;
      const auto summary = explore::run_explore(o);
      print_summary(o, summary);
      return finish(*args, summary);
    };
  });
}

}  // namespace gpulin::cli
