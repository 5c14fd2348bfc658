// `gpulin stress --structure gheap-td|gheap-bu`: the run and its report, on one GPU
// or one heap a GPU (the heaps' registry row, structures/gheap/row.cpp).
#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "structures/gheap/gpu/heap_multi_gpu.h"
#include "structures/gheap/gpu/heap_stress_command.h"
#include "structures/gheap/sim/heap_config.h"
#include "tools/commands.h"
#include "tools/registry/stress_args.h"
#include "tools/stress/gpu_list.h"
#include "tools/stress/gpu_tally.h"

namespace gpulin::cli {

namespace {

// One heap run's report (after its title line): phases, checks, verdict.
void print_heap_result(const stress::StressOptions& o, const stress::StressResult& r) {
  for (const auto& p : r.phases)
    fmt::print("  {:<22} {:>10} ops  {:>9.4f} s  {:>8.2f} M keys/s\n", p.name, p.ops, p.seconds,
               p.ops * double(o.k) / std::max(p.seconds, 1e-12) / 1e6);
  fmt::print("  inserted {} keys, deleted {}\n", r.inserted_keys, r.deleted_keys);
  fmt::print("  workload (operations planned, keys drawn on the GPU) {:.3f} s\n", r.workload_seconds);
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

std::vector<registry::Param> heap_stress_params() {
  return {{"blocks", "thread blocks", "128", 1, 1u << 20},
          {"threads", "threads per block", "512", 1, 1024},
          {"k", "node capacity", "1024", 1, 1024},
          registry::Param::text("workload", "random, ascend, descend, partial:P, insdel:L", "random"),
          {"keys", "keys inserted", "1048576", 0, uint64_t{1} << 40},
          {"key-bits", "the heap's key type: 32, or 64 (keys drawn from [0, 2^63))", "32",
           std::vector<std::string>{"32", "64"}},
          {"holds",
           "with --record, heaps judged by the root-release rule (all but the paper BU heap): root (only node 1's "
           "holds, numbered on the root, all the rule compares; the cheapest: pick it for recorded runs at scale), "
           "all (every node's holds, numbered on its node; costlier: pick it to see every lock in the history and "
           "its timeline). The paper BU heap's last-lock rule compares holds of different nodes: it records every "
           "node's, ticketed, either way",
           "root", std::vector<std::string>{"root", "all"}},
          {"check", "where the checks run: device (the GPU) or host (download everything)", "device",
           std::vector<std::string>{"device", "host"}},
          {"spin-bound", "re-reads a GPU wait may make before the watchdog stops the run (2^24: about 17 s)",
           "16777216", 1, uint64_t{1} << 40}};
}

int stress_heap(const registry::StressArgs& a) {
  const registry::Selection& sel = a.selection;
  stress::StressOptions o;
  o.flavor = *explore::parse_structure(sel.structure);
  o.variant = *explore::parse_variant(sel.variant);
  o.mutant = *explore::parse_mutant(sel.mutant);
  if (o.mutant != gheap::Mutant::None && o.mutant != gheap::Mutant::LostRootRelease) {
    fmt::print(stderr,
               "gpulin stress: the GPU kernels build one mutant, lost-root-release (gheap-td fixed, 32-bit keys: a "
               "deadlock, to see the GPU watchdog stop the run); {} runs in the simulator (gpulin explore)\n",
               sel.mutant);
    return int(kBadInput);
  }
  o.blocks = sel.u32("blocks");
  o.threads = sel.u32("threads");
  o.k = sel.u32("k");
  o.workload = sel.text("workload");
  o.keys = sel.num("keys");
  o.key_bits = sel.u32("key-bits");
  o.holds = sel.text("holds") == "all" ? stress::StressOptions::Holds::All : stress::StressOptions::Holds::Root;
  o.check = sel.text("check");
  o.spin_bound = sel.num("spin-bound");
  o.seed = a.seed;
  o.record = a.record;
  o.out_dir = a.out_dir;
  stress::StressResult r;
  try {
    if (!a.gpus.empty()) return run_heaps_on_gpus(sel.structure, sel.variant, o, stress::gpu_list(a.gpus));
    r = stress::run_stress(o);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "gpulin stress: {}\n", e.what());
    return int(kBadInput);
  }
  fmt::print("{}\n", heap_title(sel.structure, sel.variant, o));
  print_heap_result(o, r);
  return r.failures.empty() ? int(kPass) : int(kViolation);
}

}  // namespace gpulin::cli
