// gpulin stress --gpus: one heap per GPU, all at once (a host thread each), every
// run checked as a single-GPU run is.
#pragma once

#include <string>
#include <vector>

#include "tools/stress/stress.h"

namespace gpulin::stress {

struct GpuRun {
  int device = 0;
  std::string name;     // the device's name
  StressOptions options;  // as run there: seed o.seed + i, out_dir o.out_dir/gpu-D
  StressResult result;
  std::string error;    // the run could not be made (no memory, a CUDA error): no result
};

struct MultiGpuRun {
  std::vector<GpuRun> runs;  // in the order of `gpus`
  double wall_seconds = 0;   // from the first start to the last end
};

// Runs run_stress(o) on each device of `gpus` concurrently. The i-th run's seed is
// o.seed + i, so that the GPUs run different workloads; with o.out_dir its history
// goes to o.out_dir/gpu-D.
MultiGpuRun run_stress_on_gpus(const StressOptions& o, const std::vector<int>& gpus);

}  // namespace gpulin::stress
