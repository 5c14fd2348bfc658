// gpulin stress --gpus: a structure on several GPUs at once (a host thread each),
// every run checked as a single-GPU run is. The heaps: one heap a GPU. The slab
// hash: one table partitioned by key over the GPUs.
#pragma once

#include <string>
#include <vector>

#include "tools/stress/slab_stress.h"
#include "tools/stress/stress.h"

namespace gpulin::stress {

// What every GPU's run has beside its result.
struct GpuSlot {
  int device = 0;
  std::string name;   // the device's name
  std::string error;  // the run could not be made (no memory, a CUDA error): no result
};

// One GPU's run: its options as run there and its result.
template <class Options, class Result>
struct GpuRunOf : GpuSlot {
  Options options;
  Result result;
};

template <class Run>
struct MultiGpu {
  std::vector<Run> runs;    // in the order of the GPUs given
  double wall_seconds = 0;  // from the first start to the last end
};

using GpuRun = GpuRunOf<StressOptions, StressResult>;  // options: seed o.seed + i, out_dir o.out_dir/gpu-D
using MultiGpuRun = MultiGpu<GpuRun>;

// Runs run_stress(o) on each device of `gpus` concurrently. The i-th run's seed is
// o.seed + i, so that the GPUs run different workloads; with o.out_dir its history
// goes to o.out_dir/gpu-D.
MultiGpuRun run_stress_on_gpus(const StressOptions& o, const std::vector<int>& gpus);

using SlabGpuRun = GpuRunOf<SlabStressOptions, SlabStressResult>;  // options: part i of the GPUs, out_dir o.out_dir/gpu-D
using MultiGpuSlabRun = MultiGpu<SlabGpuRun>;

// One slab hash partitioned by key over `gpus`: GPU i runs part i of the workload
// o.seed draws (SlabStressOptions::parts), with its share of the buckets; each
// part's history is checked on its own (keys are disjoint between parts).
MultiGpuSlabRun run_slab_on_gpus(const SlabStressOptions& o, const std::vector<int>& gpus);

}  // namespace gpulin::stress
