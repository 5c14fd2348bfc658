// gpulin stress --gpus: a structure on several GPUs at once (a host thread each),
// every run checked as a single-GPU run is. The heaps: one heap a GPU. The slab
// hash: one table partitioned by key over the GPUs.
#pragma once

#include <functional>
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

// Runs run(i) for each i on a host thread of its own whose current device is
// gpus[i], all at once; an exception or a CUDA error becomes slots[i].error. Returns
// the wall time from the first start to the last end.
double on_each_gpu(const std::vector<int>& gpus, std::vector<GpuSlot>& slots, const std::function<void(size_t)>& run);

struct GpuRun : GpuSlot {
  StressOptions options;  // as run there: seed o.seed + i, out_dir o.out_dir/gpu-D
  StressResult result;
};

struct MultiGpuRun {
  std::vector<GpuRun> runs;  // in the order of `gpus`
  double wall_seconds = 0;   // from the first start to the last end
};

// Runs run_stress(o) on each device of `gpus` concurrently. The i-th run's seed is
// o.seed + i, so that the GPUs run different workloads; with o.out_dir its history
// goes to o.out_dir/gpu-D.
MultiGpuRun run_stress_on_gpus(const StressOptions& o, const std::vector<int>& gpus);

struct SlabGpuRun : GpuSlot {
  SlabStressOptions options;  // part i of gpus.size(), out_dir o.out_dir/gpu-D
  SlabStressResult result;
};

struct MultiGpuSlabRun {
  std::vector<SlabGpuRun> runs;
  double wall_seconds = 0;
};

// One slab hash partitioned by key over `gpus`: GPU i runs part i of the workload
// o.seed draws (SlabStressOptions::parts), with its share of the buckets; each
// part's history is checked on its own (keys are disjoint between parts).
MultiGpuSlabRun run_slab_on_gpus(const SlabStressOptions& o, const std::vector<int>& gpus);

}  // namespace gpulin::stress
