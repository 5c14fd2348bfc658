// gpulin stress --structure psync: the P-Sync parallel heap on the GPU under the
// relaxed hold model (§V-A: each key handed out brings 0, 1 or 2 new ones; cycles
// bring 2r keys until the heap holds `grow_to`), checked: every cycle's keys against
// a sequential priority queue on the host, the parallel heap property and the keys
// left once every process is done; with recording, the psync-pq history by its
// witness check (each cycle's lp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpulin::stress {

struct PsyncStressOptions {
  uint32_t r = 1024;
  uint64_t cycles = 10000;
  uint64_t grow_to = 1 << 20;
  uint64_t seed = 1;
  bool record = false;
  std::string out_dir;  // with record: the history as JSON Lines goes here
};

struct PsyncStressResult {
  uint64_t cycles = 0, new_keys = 0, out_keys = 0, keys_at_end = 0;
  uint32_t levels = 0;                      // the deepest the heap grew
  uint64_t refills = 0, two_insert_cycles = 0;  // the special cases the run went through
  double kernel_seconds = 0;                // GPU time of every cycle's kernels and the drain
  double check_seconds = 0;                 // host model, heap at rest and (recorded) the witness
  double download_seconds = 0;
  uint64_t events = 0;
  std::vector<std::string> failures;        // empty: pass
  std::string history_path;
};

// Throws std::runtime_error when the GPU cannot run it, std::invalid_argument for
// bad options.
PsyncStressResult run_psync_stress(const PsyncStressOptions& o);

}  // namespace gpulin::stress
