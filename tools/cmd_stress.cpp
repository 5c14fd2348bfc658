// gpulin stress: a registered structure on the GPU under a generated workload,
// checked (each row's `stress`, tools/registry/).
#include <fmt/core.h>
#include <fmt/format.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <optional>

#include "tools/commands.h"
#include "tools/explore/heap_config.h"
#include "tools/explore/slab_program.h"
#include "tools/registry/registry.h"
#include "tools/registry/stress_args.h"
#include "tools/stress/gpu_list.h"
#include "tools/stress/multi_gpu.h"

namespace gpulin::cli {

namespace {

// One slab run's report (after its title line).
void print_slab_result(const stress::SlabStressOptions& s, const stress::SlabStressResult& r) {
  fmt::print("  build  {:>12} ops  {:>9.4f} s  {:>9.1f} M ops/s  (kernels; {:.4f} s from the first launch)\n",
             r.build_ops, r.build_seconds, r.build_ops / std::max(r.build_seconds, 1e-12) / 1e6, r.build_span_seconds);
  fmt::print("  mix    {:>12} ops  {:>9.4f} s  {:>9.1f} M ops/s  (kernels; {:.4f} s from the first launch)\n", r.mix_ops,
             r.mix_seconds, r.mix_ops / std::max(r.mix_seconds, 1e-12) / 1e6, r.mix_span_seconds);
  if (s.record)
    fmt::print("  recorded by {}: {} ops, {} events; download and assembly {:.3f} s, check {:.3f} s ({} keys, {} searched)\n",
               r.recorder, r.ops, r.events, r.download_seconds, r.check_seconds, r.keys_checked, r.keys_searched);
  if (s.record && r.recorder == "published")
    fmt::print("  published clock: {} sightings by the ticker ({:.1f} a launch of {} ops)\n", r.ticks,
               double(r.ticks) / std::max<double>(1, double(r.ops) / double(s.batch)), s.batch);
  if (!r.witness_failure.empty()) {
    // No lp events: the rets' order.
    const bool by_rets = r.recorder == "published" || r.recorder == "warp-rounds";
    fmt::print("  {} order failed ({}); decided by the search\n", by_rets ? "ret" : "explicit-rule", r.witness_failure);
  }
  if (!r.history_path.empty()) fmt::print("  history: {}\n", r.history_path);
  for (const auto& f : r.failures) fmt::print("  FAIL: {}\n", f);
  fmt::print("  verdict: {}\n", r.failures.empty() ? "pass" : "FAIL");
}

// The outcomes of --gpus runs, every one counted: pass, FAIL, or error (the run
// could not be made). Exit: 1 if any failed, else 2 if any could not run, else 0.
struct GpuTally {
  uint64_t pass = 0, fail = 0, error = 0;
  // Counts the run; prints its error and returns false when it has no result.
  template <class Run>
  bool add(const Run& g) {
    if (!g.error.empty()) {
      fmt::print("  ERROR: {}\n", g.error);
      ++error;
      return false;
    }
    (g.result.failures.empty() ? pass : fail) += 1;
    return true;
  }
  std::string totals(size_t gpus, double wall) const {
    return fmt::format("{} GPUs: {} pass, {} FAIL, {} error; {:.3f} s wall for all", gpus, pass, fail, error, wall);
  }
  int exit() const { return fail ? int(kViolation) : error ? int(kBadInput) : int(kPass); }
};

// --gpus for the slab hash: one table partitioned by key over the GPUs, each part
// reported and checked, then a line a part and the totals (pass, FAIL, error all
// counted). Exit as run_heaps_on_gpus.
int run_slab_on_gpus(const std::string& title, const stress::SlabStressOptions& s, const std::vector<int>& gpus) {
  const stress::MultiGpuSlabRun all = stress::run_slab_on_gpus(s, gpus);
  GpuTally tally;
  uint64_t mix_ops = 0;
  double mix_max = 0;
  for (const auto& g : all.runs) {
    fmt::print("GPU {} ({}), part {} of {}: {}\n", g.device, g.name.empty() ? "?" : g.name, g.options.part + 1,
               g.options.parts, title);
    if (!tally.add(g)) continue;
    print_slab_result(g.options, g.result);
    mix_ops += g.result.mix_ops;
    mix_max = std::max(mix_max, g.result.mix_seconds);
  }
  fmt::print("\n{:>4} {:<24} {:>5} {:>8} {:>12} {:>10} {:>12} {:>10}\n", "gpu", "name", "part", "verdict", "mix ops",
             "mix s", "M ops/s", "check s");
  for (const auto& g : all.runs) {
    if (!g.error.empty()) {
      fmt::print("{:>4} {:<24.24} {:>5} {:>8} {}\n", g.device, g.name, g.options.part + 1, "error", g.error);
      continue;
    }
    const auto& r = g.result;
    fmt::print("{:>4} {:<24.24} {:>5} {:>8} {:>12} {:>10.4f} {:>12.1f} {:>10.3f}\n", g.device, g.name,
               g.options.part + 1, r.failures.empty() ? "pass" : "FAIL", r.mix_ops, r.mix_seconds,
               r.mix_ops / std::max(r.mix_seconds, 1e-12) / 1e6, r.check_seconds);
  }
  fmt::print("{}; the mix at {:.1f} M ops/s together (kernels, the slowest GPU's time)\n",
             tally.totals(all.runs.size(), all.wall_seconds), mix_ops / std::max(mix_max, 1e-12) / 1e6);
  return tally.exit();
}

std::vector<int> gpu_list(const std::string& spec) {
  int available = 0;
  if (cudaGetDeviceCount(&available) != cudaSuccess) available = 0;
  return stress::parse_gpu_list(spec, available);
}

}  // namespace

int stress_slab(registry::StressArgs& a) {
  auto& s = a.slab;
  if (a.ops) s.ops = *a.ops;
  stress::SlabStressResult r;
  std::string title;
  try {
    s.mode = *explore::parse_slab_structure(a.structure);
    s.mix = stress::parse_mix(a.mix);
    s.light = a.alloc == "light";
    s.threads = a.o.threads == 512 ? 128 : a.o.threads;
    s.seed = a.o.seed;
    s.record = a.o.record;
    s.recorder = a.recorder;
    s.out_dir = a.o.out_dir;
    title = fmt::format("{} on the GPU ({} alloc): {} buckets, {} keys built, {} ops of mix {}, {} threads a block",
                        a.structure, a.alloc, s.buckets, s.initial, s.ops, a.mix, s.threads);
    if (!a.gpus.empty()) return run_slab_on_gpus(title + " (the whole table; each GPU its part)", s, gpu_list(a.gpus));
    r = stress::run_slab_stress(s);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "gpulin stress: {}\n", e.what());
    return int(kBadInput);
  }
  fmt::print("{}\n", title);
  print_slab_result(s, r);
  return r.failures.empty() ? int(kPass) : int(kViolation);
}

int stress_psync(registry::StressArgs& a) {
  auto& p = a.psync;
  p.seed = a.o.seed;
  p.record = a.o.record;
  p.out_dir = a.o.out_dir;
  stress::PsyncStressResult r;
  try {
    r = stress::run_psync_stress(p);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "gpulin stress: {}\n", e.what());
    return int(kBadInput);
  }
  fmt::print("psync on the GPU: r={}, {} cycles, growing to {} keys, then the relaxed hold model\n", p.r, p.cycles,
             p.grow_to);
  fmt::print("  {} new keys, {} handed out, {} left; {} levels at most; {} refills, {} cycles with two insert-updates\n",
             r.new_keys, r.out_keys, r.keys_at_end, r.levels, r.refills, r.two_insert_cycles);
  fmt::print("  kernels {:.4f} s ({:.1f} us a cycle, {:.1f} M keys handed out/s)\n", r.kernel_seconds,
             r.kernel_seconds / std::max<uint64_t>(r.cycles, 1) * 1e6, r.out_keys / std::max(r.kernel_seconds, 1e-12) / 1e6);
  fmt::print("  checks: every cycle against a priority queue, the heap at rest{} {:.3f} s{}\n",
             p.record ? fmt::format(", the recorded history ({} events) by its witness", r.events) : std::string(),
             r.check_seconds, p.record ? fmt::format("; download {:.3f} s", r.download_seconds) : std::string());
  if (!r.history_path.empty()) fmt::print("  history: {}\n", r.history_path);
  for (const auto& f : r.failures) fmt::print("  FAIL: {}\n", f);
  fmt::print("  verdict: {}\n", r.failures.empty() ? "pass" : "FAIL");
  return r.failures.empty() ? int(kPass) : int(kViolation);
}

int stress_bucket(registry::StressArgs& a) {
  auto& b = a.bucket;
  b.seed = a.o.seed;
  b.record = a.o.record;
  b.out_dir = a.o.out_dir;
  b.threads = a.o.threads == 512 ? 256 : a.o.threads;  // 512 is the heap's default; a level block's is 256
  if (a.ops) b.ops = *a.ops;
  stress::BucketStressResult r;
  try {
    r = stress::run_bucket_stress(b);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "gpulin stress: {}\n", e.what());
    return int(kBadInput);
  }
  fmt::print("bucket-heap on the GPU: d={}, {} levels (a block of {} threads each), a Dijkstra-like program of {} "
             "operations and a drain, seed {}\n", b.d, r.levels, b.threads, b.ops, b.seed);
  fmt::print("  {} operations: {} updates in batches, {} EXTRACTMIN ({} on an empty heap), {} DELETE\n", r.ops, r.updates,
             r.extracts, r.empty_extracts, r.deletes);
  fmt::print("  kernel {:.4f} s ({:.1f} us an operation)\n", r.kernel_seconds,
             r.kernel_seconds / std::max<uint64_t>(r.ops, 1) * 1e6);
  fmt::print("  checks: every EXTRACTMIN against a priority queue{} {:.3f} s{}\n",
             b.record ? fmt::format(", the recorded history ({} events) by its witness", r.events) : std::string(),
             r.check_seconds, b.record ? fmt::format("; download {:.3f} s", r.download_seconds) : std::string());
  if (!r.history_path.empty()) fmt::print("  history: {}\n", r.history_path);
  for (const auto& f : r.failures) fmt::print("  FAIL: {}\n", f);
  if (!r.failures.empty())
    fmt::print("  again: gpulin stress --structure bucket-heap --d {} --ops {} --seed {} --threads {}{}\n", b.d, b.ops,
               b.seed, b.threads, b.record ? " --record" : "");
  fmt::print("  verdict: {}\n", r.failures.empty() ? "pass" : "FAIL");
  return r.failures.empty() ? int(kPass) : int(kViolation);
}

namespace {

// One heap run's report (after its title line): phases, checks, verdict.
void print_heap_result(const stress::StressOptions& o, const stress::StressResult& r) {
  for (const auto& p : r.phases)
    fmt::print("  {:<22} {:>10} ops  {:>9.4f} s  {:>8.2f} M keys/s\n", p.name, p.ops, p.seconds,
               p.ops * double(o.k) / std::max(p.seconds, 1e-12) / 1e6);
  fmt::print("  inserted {} keys, deleted {}\n", r.inserted_keys, r.deleted_keys);
  fmt::print("  kernels {:.3f} s; checks on the {}: conservation and invariant {:.3f} s", r.kernel_seconds,
             o.check == "device" ? "GPU" : "host", r.at_rest_seconds);
  if (o.record)
    fmt::print(", witness ({} operations, {} events, {} keys) {:.3f} s{}", r.ops, r.events, r.tuples, r.check_seconds,
               r.download_seconds > 0 ? fmt::format(", download {:.3f} s", r.download_seconds) : std::string());
  fmt::print("; end of kernels to verdict {:.3f} s\n", r.verdict_seconds);
  if (!r.check_phases.empty()) {
    fmt::print("  GPU check:");
    for (const auto& [name, secs] : r.check_phases) fmt::print(" {} {:.3f} s;", name, secs);
    fmt::print("\n");
  }
  if (!r.history_path.empty()) fmt::print("  history: {}\n", r.history_path);
  for (const auto& f : r.failures) fmt::print("  FAIL: {}\n", f);
  fmt::print("  verdict: {}\n", r.failures.empty() ? "pass" : !r.watchdog.empty() ? "FAIL (stopped by the watchdog)" : "FAIL");
}

std::string heap_title(const std::string& structure, const std::string& variant, const stress::StressOptions& o) {
  return fmt::format("{} {} on the GPU: {} blocks x {} threads, k={}, workload {}, {} keys of {} bits", structure,
                     variant, o.blocks, o.threads, o.k, o.workload, o.keys, o.key_bits);
}

// --gpus: one heap a GPU at once, each reported as a single run is, then one line a
// GPU and the totals. Every run's outcome is counted: pass, FAIL, or error (it
// could not run). Exit: 1 if any failed, else 2 if any could not run, else 0.
int run_heaps_on_gpus(const std::string& structure, const std::string& variant, const stress::StressOptions& o,
                      const std::vector<int>& gpus) {
  const stress::MultiGpuRun all = stress::run_stress_on_gpus(o, gpus);
  GpuTally tally;
  double keys = 0, kernel_max = 0;
  for (const auto& g : all.runs) {
    fmt::print("GPU {} ({}), seed {}: {}\n", g.device, g.name.empty() ? "?" : g.name, g.options.seed,
               heap_title(structure, variant, g.options));
    if (!tally.add(g)) continue;
    print_heap_result(g.options, g.result);
    for (const auto& p : g.result.phases) keys += double(p.ops) * o.k;
    kernel_max = std::max(kernel_max, g.result.kernel_seconds);
  }
  fmt::print("\n{:>4} {:<24} {:>6} {:>8} {:>11} {:>12} {:>10}  {}\n", "gpu", "name", "seed", "verdict", "kernels s",
             "M keys/s", "check s", "history");
  for (const auto& g : all.runs) {
    if (!g.error.empty()) {
      fmt::print("{:>4} {:<24.24} {:>6} {:>8} {}\n", g.device, g.name, g.options.seed, "error", g.error);
      continue;
    }
    double run_keys = 0;
    for (const auto& p : g.result.phases) run_keys += double(p.ops) * o.k;
    fmt::print("{:>4} {:<24.24} {:>6} {:>8} {:>11.3f} {:>12.1f} {:>10.3f}  {}\n", g.device, g.name, g.options.seed,
               g.result.failures.empty() ? "pass" : "FAIL", g.result.kernel_seconds,
               run_keys / std::max(g.result.kernel_seconds, 1e-12) / 1e6, g.result.check_seconds,
               o.record ? (g.result.history_path.empty() ? "checked" : g.result.history_path) : "not recorded");
  }
  fmt::print("{}; {:.1f} M keys/s together (kernels, the slowest GPU's time)\n",
             tally.totals(all.runs.size(), all.wall_seconds), keys / std::max(kernel_max, 1e-12) / 1e6);
  return tally.exit();
}

}  // namespace

int stress_heap(registry::StressArgs& a) {
  auto& o = a.o;
  o.flavor = *explore::parse_structure(a.structure);
  o.variant = *explore::parse_variant(a.variant);
  o.mutant = *explore::parse_mutant(a.mutant);
  stress::StressResult r;
  try {
    if (!a.gpus.empty()) return run_heaps_on_gpus(a.structure, a.variant, o, gpu_list(a.gpus));
    r = stress::run_stress(o);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "gpulin stress: {}\n", e.what());
    return int(kBadInput);
  }
  fmt::print("{}\n", heap_title(a.structure, a.variant, o));
  print_heap_result(o, r);
  return r.failures.empty() ? int(kPass) : int(kViolation);
}

void add_stress(CLI::App& app, std::function<int()>& run) {
  auto a = std::make_shared<registry::StressArgs>();
  auto& o = a->o;
  const std::vector<std::string> names = registry::structures().stress_names();
  CLI::App* sub = app.add_subcommand("stress", "run a structure on the GPU under a workload and check it");
  sub->add_option("--structure", a->structure, registry::joined(names))->check(CLI::IsMember(names));
  sub->add_option("--d", a->bucket.d, "bucket-heap: d, the most updates a BULKUPDATE brings")->check(CLI::Range(1u, 1u << 20));
  sub->add_option("--r", a->psync.r, "psync: node capacity r")->check(CLI::Range(1u, 1u << 20));
  sub->add_option("--cycles", a->psync.cycles, "psync: delete-insert cycles")->check(CLI::Range(uint64_t{1}, uint64_t{1} << 24));
  sub->add_option("--grow-to", a->psync.grow_to, "psync: cycles bring 2r keys until the heap holds this many");
  auto& sl = a->slab;
  sub->add_option("--buckets", sl.buckets, "slab hash: buckets (base slabs)")->check(CLI::Range(1u, 1u << 30));
  sub->add_option("--initial", sl.initial, "slab hash: keys inserted before the mix");
  sub->add_option("--ops", a->ops, "slab hash: operations of the mix; bucket-heap: of the program before its drain");
  sub->add_option("--mix", a->mix, "slab hash: fractions a,b,c,d of insert, delete, search, search-absent (paper Γ)");
  sub->add_option("--batch", sl.batch, "slab hash: operations per kernel launch");
  sub->add_option("--recorder", a->recorder,
                  "slab hash with --record: auto (default: published for map and set, events for the multimap); "
                  "published (map and set: a warp round's inv a load of one clock, its ret on its multiprocessor's "
                  "clock, published by a ticker block; no lp events; the cheapest: pick it for recorded runs at "
                  "scale); warp-rounds (map and set: a warp round's tickets from one clock, no lp events; it orders "
                  "every two operations whose rounds did not overlap, where published leaves rounds within one tick "
                  "concurrent: pick it when the check must see more precedence); key-clocks (map and set: each op's "
                  "inv, lp and ret from its key's clock; lp events, as by events, at far less cost: pick it to test "
                  "the slab hash's linearization points, the explicit rule, at GPU scale); events (every event from "
                  "one global counter, one real-time order, the costliest: the multimap's recorder, and the reference "
                  "the others are checked against)")
      ->check(CLI::IsMember({"auto", "published", "warp-rounds", "key-clocks", "events"}));
  sub->add_option("--alloc", a->alloc, "slab hash: light (SlabAlloc-light) or regular (SlabAlloc)")
      ->check(CLI::IsMember({"light", "regular"}));
  sub->add_option("--variant", a->variant, "fixed or paper")->check(CLI::IsMember({"paper", "fixed"}));
  sub->add_option("--blocks", o.blocks, "thread blocks")->check(CLI::Range(1, 1 << 20));
  sub->add_option("--threads", o.threads, "threads per block")->check(CLI::Range(1, 1024));
  sub->add_option("--k", o.k, "node capacity")->check(CLI::Range(1, 1024));
  sub->add_option("--workload", o.workload, "random, ascend, descend, partial:P, insdel:L");
  sub->add_option("--keys", o.keys, "keys inserted");
  sub->add_option("--seed", o.seed, "seed");
  sub->add_option("--key-bits", o.key_bits, "the heap's key type: 32 (default) or 64 (keys drawn from [0, 2^63))")
      ->check(CLI::IsMember({32, 64}));
  sub->add_option("--mutant", a->mutant,
                  "gheap-td fixed, 32-bit keys: lost-root-release (a deadlock, to see the GPU watchdog stop the run; "
                  "other mutants run in the simulator)")
      ->check(CLI::IsMember({"none", "lost-root-release"}));
  sub->add_option("--spin-bound", o.spin_bound,
                  "re-reads a GPU wait may make before the watchdog stops the run (default 2^24, about 17 s)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  sub->add_flag("--record", o.record, "record the history and check it with the witness checker");
  sub->add_option("--gpus", a->gpus,
                  "on these GPUs at once (all, or device numbers: 0,1), each run checked; heaps: one heap a GPU, "
                  "seeds seed, seed+1, ...; slab hash: one table partitioned by key; with --out a folder gpu-D each");
  const std::map<std::string, stress::StressOptions::Holds> holds = {{"root", stress::StressOptions::Holds::Root},
                                                                    {"all", stress::StressOptions::Holds::All}};
  sub->add_option("--holds", o.holds,
                  "with --record, heaps judged by the root-release rule (all but the paper BU heap): root (default: "
                  "only node 1's holds, numbered on the root, all the rule compares; the cheapest: pick it for "
                  "recorded runs at scale), all (every node's holds, numbered on its node; costlier: pick it to see "
                  "every lock in the history and its timeline). The paper BU heap's last-lock rule compares holds of "
                  "different nodes: it records every node's, ticketed, either way")
      ->transform(CLI::CheckedTransformer(holds));
  sub->add_option("--check", o.check, "where the checks run: device (the GPU, default) or host (download everything)")
      ->check(CLI::IsMember({"device", "host"}));
  sub->add_option("--out", o.out_dir, "with --record: write the history as JSON Lines to this folder (a download)");
  sub->callback([a, &run] {
    run = [a] {
      const registry::StructureRow& row = *registry::structures().find(a->structure);
      if (!a->gpus.empty() && !row.multi_gpu) {
        std::vector<std::string> multi;
        for (const registry::StructureRow& r : registry::structures().rows())
          if (r.multi_gpu) multi.push_back(r.name);
        fmt::print(stderr,
                   "gpulin stress: --gpus runs {} (a heap on each GPU, or one slab table partitioned over them); "
                   "not {}\n",
                   registry::joined(multi), a->structure);
        return int(kBadInput);
      }
      return row.stress(*a);
    };
  });
}

}  // namespace gpulin::cli
