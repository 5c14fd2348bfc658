// gpulin stress: a heap on the GPU under a generated workload, checked. Without
// recording: every deleted batch sorted, nothing lost or invented, the invariant at
// the end. With recording: also the whole history by the witness checker of the
// heap's rule (explore::lp_rule_for).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "structures/gheap/config.h"
#include "structures/gheap/operation.h"

namespace gpulin::stress {

struct StressOptions {
  gheap::Flavor flavor = gheap::Flavor::TopDown;
  gheap::Variant variant = gheap::Variant::Fixed;
  uint32_t blocks = 128;
  uint32_t threads = 512;
  uint32_t k = 1024;
  std::string workload = "random";
  uint64_t keys = 1 << 20;
  uint64_t seed = 1;
  bool record = false;
  std::string out_dir;  // where a failing history (and, with --record, the history) goes
};

struct PhaseTiming {
  std::string name;
  uint64_t ops = 0;
  double seconds = 0;
};

struct StressResult {
  std::vector<PhaseTiming> phases;
  uint64_t ops = 0, inserted_keys = 0, deleted_keys = 0;
  uint64_t events = 0;          // recorded
  double check_seconds = 0;     // witness check
  double download_seconds = 0;  // copying the recording back and assembling its history
  std::vector<std::string> failures;  // empty: pass
  std::string history_path;
};

// Throws std::runtime_error when the GPU cannot run it (no device, no memory).
StressResult run_stress(const StressOptions& o);

}  // namespace gpulin::stress
