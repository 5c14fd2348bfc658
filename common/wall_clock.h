// Wall-clock seconds for the phase timings that commands and stress drivers print
// (GPU time is cuda_support::GpuTimer's).
#pragma once

#include <chrono>

namespace gpulin {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace gpulin
