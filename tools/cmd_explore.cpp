// gpulin explore: simulated schedules of a heap or of the slab hash (every history
// checked) or of the global merge (every output checked against std::merge).
#include <unistd.h>

#include <fmt/core.h>

#include "tools/commands.h"
#include "tools/explore_text.h"
#include "tools/mpi_explore.h"
#include "tools/explore/report_json.h"
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
  std::string shard;   // "i/N"
  bool json = false;
  bool mpi = false;
};

// The options that define the run, as JSON values: reports merge only when these
// are equal. Every structure's options are listed, so that none is forgotten.
std::vector<std::pair<std::string, std::string>> run_fields(const ExploreArgs& a) {
  const explore::ExploreOptions& o = a.o;
  auto text = [](const std::string& s) { return fmt::format("\"{}\"", s); };
  auto num = [](uint64_t v) { return std::to_string(v); };
  return {{"structure", text(a.structure)}, {"variant", text(a.variant)}, {"mutant", text(a.mutant)},
          {"strategy", text(o.strategy)}, {"depth", num(o.depth)}, {"preemptions", num(o.preemptions)},
          {"schedules", num(o.schedules)}, {"seed", num(o.seed)}, {"program_every", num(o.program_every)},
          {"max_points", num(o.max_points)}, {"search_max_ops", num(o.judge.search_max_ops)},
          {"shrink", o.shrink ? "true" : "false"}, {"actors", num(o.shape.actors)}, {"ops", num(o.shape.ops)},
          {"k", num(o.config.k)}, {"partial", num(o.shape.partial_percent)}, {"inserts", num(o.shape.insert_percent)},
          {"keys", num(o.shape.key_range)}, {"threads", num(o.config.threads)}, {"blocks", num(a.merge.blocks)},
          {"len", num(a.merge.max_len)}, {"warps", num(a.slab.warps)}, {"buckets", num(a.slab.buckets)},
          {"alloc", text(a.alloc)}, {"slab_ops", num(a.slab.ops)}, {"slab_keys", num(a.slab.keys)},
          {"r", num(a.psync.r)}, {"cycles", num(a.psync.cycles)}, {"psync_keys", num(a.psync.keys)},
          {"d", num(a.bucket.d)}, {"bucket_ops", num(a.bucket.ops)}};
}

void print_summary(const explore::ExploreOptions& o, const explore::ExploreSummary& s) {
  fmt::print("{} {} k={} actors={} ops={} {}{}\n", explore::structure_name(o.config.flavor),
             explore::variant_name(o.config.variant), o.config.k, o.shape.actors, o.shape.ops, strategy_text(o),
             o.config.mutant == gheap::Mutant::None ? "" : " mutant=" + explore::mutant_name(o.config.mutant));
  print_counts(o.strategy, s, true);
}

void print_merge_summary(const explore::ExploreOptions& o, const explore::MergeConfig& m,
                         const explore::ExploreSummary& s) {
  fmt::print("merge blocks<={} len<={} {}{}\n", m.blocks, m.max_len, strategy_text(o),
             m.mutant == merge_path::MergeMutant::None ? "" : " mutant=" + explore::merge_mutant_name(m.mutant));
  print_counts(o.strategy, s, false);
}

void print_slab_summary(const explore::ExploreOptions& o, const explore::SlabConfig& c,
                        const explore::ExploreSummary& s) {
  fmt::print("slab-{} buckets={} keys<{} alloc={} warps={} ops={} {}{}\n", explore::slab_mode_name(c.mode), c.buckets,
             c.keys, c.light ? "light" : "regular", c.warps, c.ops, strategy_text(o),
             c.mutant == slab_hash::Mutant::None ? "" : " mutant=" + explore::slab_mutant_name(c.mutant));
  print_counts(o.strategy, s, true);
}

void print_psync_summary(const explore::ExploreOptions& o, const explore::PsyncConfig& c,
                         const explore::ExploreSummary& s) {
  fmt::print("psync r={} cycles={} keys<{} {}{}\n", c.r, c.cycles, c.keys, strategy_text(o),
             c.mutant == psync::Mutant::None ? "" : " mutant=" + explore::psync_mutant_name(c.mutant));
  print_counts(o.strategy, s, true);
}

void print_bucket_summary(const explore::ExploreOptions& o, const explore::BucketConfig& c,
                          const explore::ExploreSummary& s) {
  fmt::print("bucket-heap {} d={} ops={} {}{}\n", explore::bucket_variant_name(c.variant), c.d, c.ops, strategy_text(o),
             c.mutant == bucket_heap::Mutant::None ? "" : " mutant=" + explore::bucket_mutant_name(c.mutant));
  print_counts(o.strategy, s, true);
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
    std::FILE* out = a.json ? stderr : stdout;  // --json keeps stdout one JSON object
    if (!first) {
      fmt::print(out, "  page: none (no failure with a history)\n");
    } else {
      try {
        fmt::print(out, "  page: {}\n", write_timeline_page(*first->history, a.render,
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

// One structure's exploration, once its options are checked: the run (of the whole,
// a shard or an MPI rank's parts) and its text summary.
struct Exploration {
  std::function<explore::ExploreSummary(const explore::ExploreOptions&)> run;
  std::function<void(const explore::ExploreSummary&)> print;
  bool histories = true;  // the merge has outputs, not histories
};

std::optional<Exploration> slab_exploration(ExploreArgs& a, slab_hash::Mode mode) {
  explore::SlabConfig& c = a.slab;
  c.mode = mode;
  c.light = a.alloc == "light";
  const auto m = explore::parse_slab_mutant(a.mutant);
  if (!m) return bad_input(fmt::format("unknown slab mutant '{}' (none, {})", a.mutant, slab_mutants_text())), std::nullopt;
  c.mutant = *m;
  if (c.ops > 32) return bad_input(fmt::format("--ops {}: a warp has at most 32 operations (one per lane)", c.ops)), std::nullopt;
  return Exploration{[&c](const explore::ExploreOptions& o) { return explore::run_slab_explore(o, c); },
                     [&a](const explore::ExploreSummary& s) { print_slab_summary(a.o, a.slab, s); }};
}

std::optional<Exploration> bucket_exploration(ExploreArgs& a) {
  explore::BucketConfig& c = a.bucket;
  const auto m = explore::parse_bucket_mutant(a.mutant);
  if (!m)
    return bad_input(fmt::format("unknown bucket-heap mutant '{}' (none, {})", a.mutant,
                                 names_text(explore::bucket_mutant_names()))),
           std::nullopt;
  c.mutant = *m;
  c.variant = a.variant == "paper" ? bucket_heap::Variant::Paper : bucket_heap::Variant::Fixed;
  return Exploration{[&c](const explore::ExploreOptions& o) { return explore::run_bucket_explore(o, c); },
                     [&a](const explore::ExploreSummary& s) { print_bucket_summary(a.o, a.bucket, s); }};
}

std::optional<Exploration> psync_exploration(ExploreArgs& a) {
  explore::PsyncConfig& c = a.psync;
  const auto m = explore::parse_psync_mutant(a.mutant);
  if (!m)
    return bad_input(fmt::format("unknown psync mutant '{}' (none, {})", a.mutant,
                                 names_text(explore::psync_mutant_names()))),
           std::nullopt;
  c.mutant = *m;
  return Exploration{[&c](const explore::ExploreOptions& o) { return explore::run_psync_explore(o, c); },
                     [&a](const explore::ExploreSummary& s) { print_psync_summary(a.o, a.psync, s); }};
}

std::optional<Exploration> merge_exploration(ExploreArgs& a) {
  const auto m = explore::parse_merge_mutant(a.mutant);
  if (!m) return bad_input(fmt::format("unknown merge mutant '{}'", a.mutant)), std::nullopt;
  a.merge.mutant = *m;
  return Exploration{[&a](const explore::ExploreOptions& o) { return explore::run_merge_explore(o, a.merge); },
                     [&a](const explore::ExploreSummary& s) { print_merge_summary(a.o, a.merge, s); }, false};
}

std::optional<Exploration> heap_exploration(ExploreArgs& a) {
  explore::ExploreOptions& o = a.o;
  o.config.flavor = *explore::parse_structure(a.structure);
  o.config.variant = *explore::parse_variant(a.variant);
  const auto m = explore::parse_mutant(a.mutant);
  if (!m) return bad_input(fmt::format("unknown mutant '{}'", a.mutant)), std::nullopt;
  o.config.mutant = *m;
  return Exploration{[](const explore::ExploreOptions& o) { return explore::run_explore(o); },
                     [&a](const explore::ExploreSummary& s) { print_summary(a.o, s); }};
}

std::optional<Exploration> exploration(ExploreArgs& a) {
  if (const auto mode = explore::parse_slab_structure(a.structure)) return slab_exploration(a, *mode);
  if (a.structure == "psync") return psync_exploration(a);
  if (a.structure == "bucket-heap") return bucket_exploration(a);
  if (a.structure == "merge") return merge_exploration(a);
  return heap_exploration(a);
}

explore::ExploreReport report_of(const ExploreArgs& a, const Exploration& e, explore::ExploreSummary s,
                                 std::string split) {
  return {run_fields(a), std::move(split), std::move(s), e.histories};
}

// explore --mpi: every rank explores the parts rank 0 hands it; rank 0 merges the
// ranks' reports and prints the whole.
int explore_mpi(ExploreArgs& a, const Exploration& e) {
  a.o.progress = false;
  const auto reports = mpi_explore([&](const explore::UnitSource& parts, int rank) {
    explore::ExploreOptions o = a.o;
    o.units = parts;
    if (!o.out_dir.empty()) o.out_dir += fmt::format("/rank-{}", rank);  // ranks find different firsts
    return explore::report_json(report_of(a, e, e.run(o), "mpi rank"));
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
    e.print(merged.summary);
  return exit_code(merged.summary);
}

int run_exploration(ExploreArgs& a) {
  a.o.progress = isatty(STDERR_FILENO) && !a.json;
  auto e = exploration(a);
  if (!e) return int(kBadInput);
  if (a.mpi && !a.shard.empty()) return bad_input("--shard and --mpi: choose one (MPI splits the run itself)");
  if (a.mpi) {
    if (!mpi_available()) return bad_input("--mpi: this gpulin was built without MPI (scripts/setup.sh installs it)");
    return explore_mpi(a, *e);
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
  const explore::ExploreSummary summary = e->run(a.o);
  if (a.json)
    fmt::print("{}\n", explore::report_json(report_of(a, *e, summary, split)));
  else
    e->print(summary);
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
  sub->add_option("--shard", args->shard,
                  "explore part i of N (1-based): disjoint random/pct schedules or dfs subtrees; "
                  "merge-reports joins the N --json reports into the whole run's");
  sub->add_flag("--mpi", args->mpi,
                "under mpirun: the ranks share the run, rank 0 handing out schedule ranges or dfs subtrees as "
                "ranks ask, and rank 0 prints the merged report");
  sub->add_flag("--json", args->json,
                "print the report as one JSON object (counts, first failures with replay strings, the "
                "fingerprints of the distinct histories)");
  sub->callback([args, sub, &run] {
    // The heap's workload options also shape slab programs where given.
    if (sub->count("--ops")) args->slab.ops = args->bucket.ops = args->o.shape.ops;
    if (sub->count("--keys")) args->slab.keys = args->psync.keys = args->o.shape.key_range;
    run = [args]() { return run_exploration(*args); };
  });
}

}  // namespace gpulin::cli
