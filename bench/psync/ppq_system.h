// The parallel heap system of the P-Sync paper (§IV, Figs. 4-5) on the GPU: the host
// controller, the heap's kernels (structures/psync/gpu/psync_launch.h) and the application kernel
// (think time on each key handed out, then its 0, 1 or 2 new keys, sorted for the
// next cycle), the application in its own stream concurrent with the heap's update
// steps (Fig. 8's concurrent kernels) or after them (its sequential kernels).
// Plain C++ interface; ppq_system.cu holds the CUDA.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpulin::psync_bench {

struct PpqConfig {
  uint32_t r = 256;
  uint64_t n = 1 << 17;  // initial keys
  uint64_t s = 1 << 14;  // keys handed out over the run
  uint32_t t = 0;        // think time (iterations per key)
  bool concurrent = true;
  uint64_t seed = 1;
};

struct PpqRun {
  double seconds = 0;        // GPU time of the s keys' cycles (the drain after them is not timed)
  uint64_t cycles = 0, handed_out = 0;
  std::string failure;       // empty: the checks passed
};

class PpqSystem {
 public:
  // counts[i]: new keys the i-th key handed out brings (0, 1 or 2), for i < s.
  PpqSystem(const PpqConfig& c, const std::vector<uint8_t>& counts);
  ~PpqSystem();
  PpqSystem(const PpqSystem&) = delete;
  PpqSystem& operator=(const PpqSystem&) = delete;
  // One run from the initial heap (reset untimed). With check_at_rest, the heap is
  // drained and checked afterwards (the parallel heap property, the key count).
  PpqRun run(bool check_at_rest);
  // The initial keys (sorted), for the sequential baseline.
  std::vector<uint32_t> initial_keys() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpulin::psync_bench
