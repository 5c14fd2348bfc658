// `gpulin stress --structure slab-map|slab-set|slab-multimap`: the run and its report
// (the slab hash's registry row, structures/slab_hash/row.cpp).
#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "structures/slab_hash/gpu/slab_multi_gpu.h"
#include "structures/slab_hash/gpu/slab_stress_command.h"
#include "structures/slab_hash/sim/slab_program.h"
#include "tools/commands.h"
#include "tools/registry/stress_args.h"
#include "tools/stress/gpu_list.h"
#include "tools/stress/gpu_tally.h"

namespace gpulin::cli {

namespace {

// One slab run's report (after its title line).
void print_slab_result(const stress::SlabStressOptions& s, const stress::SlabStressResult& r) {
  fmt::print("  build  {:>12} ops  {:>9.4f} s  {:>9.1f} M ops/s  (kernels; {:.4f} s from the first launch)\n",
             r.build_ops, r.build_seconds, r.build_ops / std::max(r.build_seconds, 1e-12) / 1e6, r.build_span_seconds);
  fmt::print("  mix    {:>12} ops  {:>9.4f} s  {:>9.1f} M ops/s  (kernels; {:.4f} s from the first launch)\n", r.mix_ops,
             r.mix_seconds, r.mix_ops / std::max(r.mix_seconds, 1e-12) / 1e6, r.mix_span_seconds);
  if (s.record && r.checked_on == "GPU")
    fmt::print("  recorded by {}: {} ops, {} events; checked on the GPU {:.3f} s ({} keys, {} searched on the host); end "
               "of kernels to verdict {:.3f} s{}\n",
               r.recorder, r.ops, r.events, r.check_seconds, r.keys_checked, r.keys_searched, r.verdict_seconds,
               r.history_path.empty() ? std::string() : fmt::format("; download for the file {:.3f} s", r.download_seconds));
  else if (s.record)
    fmt::print("  recorded by {}: {} ops, {} events; download and assembly {:.3f} s, check on the host {:.3f} s ({} keys, "
               "{} searched); end of kernels to verdict {:.3f} s\n",
               r.recorder, r.ops, r.events, r.download_seconds, r.check_seconds, r.keys_checked, r.keys_searched,
               r.verdict_seconds);
  if (!r.irregular.empty()) fmt::print("  the GPU check handed the recording to the host: {}\n", r.irregular);
  if (!r.check_phases.empty()) {
    fmt::print("  GPU check:");
    for (const auto& [name, secs] : r.check_phases) fmt::print(" {} {:.3f} s;", name, secs);
    fmt::print("\n");
  }
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

}  // namespace

std::vector<registry::Param> slab_stress_params() {
  return {{"buckets", "buckets (base slabs)", "65536", 1, 1u << 30},
          {"initial", "keys inserted before the mix", "1048576", 0, uint64_t{1} << 40},
          {"ops", "operations of the mix", "4194304", 0, uint64_t{1} << 40},
          registry::Param::text("mix", "fractions a,b,c,d of insert, delete, search, search-absent (paper Γ)",
                                "0.2,0.2,0.3,0.3"),
          {"batch", "operations per kernel launch", "1048576", 1, uint64_t{1} << 40},
          {"threads", "threads per block", "128", 32, 1024},
          {"alloc", "light (SlabAlloc-light) or regular (SlabAlloc)", "light",
           std::vector<std::string>{"light", "regular"}},
          {"recorder",
           "with --record: auto (published for map and set, events for the multimap); published (map and set: a "
           "warp round's inv a load of one clock, its ret on its multiprocessor's clock, published by a ticker "
           "block; no lp events; the cheapest: pick it for recorded runs at scale); warp-rounds (map and set: a warp "
           "round's tickets from one clock, no lp events; it orders every two operations whose rounds did not "
           "overlap, where published leaves rounds within one tick concurrent: pick it when the check must see more "
           "precedence); key-clocks (map and set: each op's inv, lp and ret from its key's clock; lp events, as by "
           "events, at far less cost: pick it to test the slab hash's linearization points, the explicit rule, at "
           "GPU scale); events (every event from one global counter, one real-time order, the costliest: the "
           "multimap's recorder, and the reference the others are checked against)",
           "auto", std::vector<std::string>{"auto", "published", "warp-rounds", "key-clocks", "events"}},
          {"check",
           "with --record: where the history is checked: device (a published-clock recording on the GPU, the keys "
           "its ret order fails on searched on the host from their operations alone) or host (download and assemble "
           "everything); the other recorders are checked on the host",
           "device", std::vector<std::string>{"device", "host"}}};
}

int stress_slab(const registry::StressArgs& a) {
  const registry::Selection& sel = a.selection;
  stress::SlabStressOptions s;
  stress::SlabStressResult r;
  std::string title;
  try {
    s.mode = *explore::parse_slab_structure(sel.structure);
    // The multimap's paper or fixed form (bucket_version.h); map and set have one.
    if (!sel.variant.empty()) s.variant = *explore::parse_slab_variant(sel.variant);
    s.buckets = sel.u32("buckets");
    s.initial = sel.num("initial");
    s.ops = sel.num("ops");
    s.mix = stress::parse_mix(sel.text("mix"));
    s.batch = sel.num("batch");
    s.threads = sel.u32("threads");
    s.light = sel.text("alloc") == "light";
    s.recorder = sel.text("recorder");
    s.check = sel.text("check");
    s.seed = a.seed;
    s.record = a.record;
    s.out_dir = a.out_dir;
    const std::string variant = sel.variant.empty() ? std::string() : " " + sel.variant;
    title = fmt::format("{}{} on the GPU ({} alloc): {} buckets, {} keys built, {} ops of mix {}, {} threads a block",
                        sel.structure, variant, sel.text("alloc"), s.buckets, s.initial, s.ops, sel.text("mix"),
                        s.threads);
    if (!a.gpus.empty()) return run_slab_on_gpus(title + " (the whole table; each GPU its part)", s, stress::gpu_list(a.gpus));
    r = stress::run_slab_stress(s);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "gpulin stress: {}\n", e.what());
    return int(kBadInput);
  }
  fmt::print("{}\n", title);
  print_slab_result(s, r);
  return r.failures.empty() ? int(kPass) : int(kViolation);
}

}  // namespace gpulin::cli
