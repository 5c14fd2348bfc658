// Wall-clock seconds for the stress drivers' phase timings (GPU time is
// cuda_support::GpuTimer's).
#pragma once

#include <chrono>

namespace gpulin::stress {

inline double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace gpulin::stress
