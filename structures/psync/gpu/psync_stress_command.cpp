// `gpulin stress --structure psync`: the run and its report (the P-Sync heap's
// registry row, structures/psync/row.cpp).
#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "structures/psync/gpu/psync_stress_command.h"
#include "tools/commands.h"
#include "tools/registry/stress_args.h"
#include "tools/stress/gpu_list.h"
#include "tools/stress/gpu_tally.h"

namespace gpulin::cli {

std::vector<registry::Param> psync_stress_params() {
  return {{"r", "node capacity r", "1024", 1, 1u << 20},
          {"cycles", "delete-insert cycles", "10000", 1, uint64_t{1} << 24},
          {"grow-to", "cycles bring 2r keys until the heap holds this many", "1048576", 0, uint64_t{1} << 40}};
}

int stress_psync(const registry::StressArgs& a) {
  stress::PsyncStressOptions p;
  p.r = a.selection.u32("r");
  p.cycles = a.selection.num("cycles");
  p.grow_to = a.selection.num("grow-to");
  p.seed = a.seed;
  p.record = a.record;
  p.out_dir = a.out_dir;
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

}  // namespace gpulin::cli
