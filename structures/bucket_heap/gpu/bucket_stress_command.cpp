// `gpulin stress --structure bucket-heap`: the run and its report (the bucket heap's
// registry row, structures/bucket_heap/row.cpp).
#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "structures/bucket_heap/gpu/bucket_stress_command.h"
#include "tools/commands.h"
#include "tools/registry/stress_args.h"
#include "tools/stress/gpu_list.h"
#include "tools/stress/gpu_tally.h"

namespace gpulin::cli {

std::vector<registry::Param> bucket_stress_params() {
  return {{"d", "the most updates a BULKUPDATE brings", "64", 1, 1u << 20},
          {"ops", "operations of the program before its drain", "100000", 0, uint64_t{1} << 40},
          {"threads", "threads of a level's block", "256", 1, 1024}};
}

int stress_bucket(const registry::StressArgs& a) {
  stress::BucketStressOptions b;
  b.d = a.selection.u32("d");
  b.ops = a.selection.num("ops");
  b.threads = a.selection.u32("threads");
  b.seed = a.seed;
  b.record = a.record;
  b.out_dir = a.out_dir;
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

}  // namespace gpulin::cli
