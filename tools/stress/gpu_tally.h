// The outcomes of a `gpulin stress --gpus` run, every one counted (pass, FAIL, or
// error: the run could not be made), as each structure's report prints them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <fmt/core.h>

#include "tools/commands.h"

namespace gpulin::cli {

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


}  // namespace gpulin::cli
