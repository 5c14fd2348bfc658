// gpulin stress --gpus for the heaps: one heap a GPU, each with its own seed, every
// run checked as a single-GPU run is (tools/stress/multi_gpu.h runs them at once).
#pragma once

#include <vector>

#include "structures/gheap/gpu/heap_stress.h"
#include "tools/stress/multi_gpu.h"

namespace gpulin::stress {

using GpuRun = GpuRunOf<StressOptions, StressResult>;  // options: seed derived_seed(o.seed, i), out_dir o.out_dir/gpu-D
using MultiGpuRun = MultiGpu<GpuRun>;

// Runs run_stress(o) on each device of `gpus` concurrently. The first run's seed is
// o.seed, the i-th's derived from it (common/seed_mix.h), so that the GPUs run
// workloads with nothing in common; with o.out_dir its history
// goes to o.out_dir/gpu-D.
MultiGpuRun run_stress_on_gpus(const StressOptions& o, const std::vector<int>& gpus);

}  // namespace gpulin::stress
