// gpulin stress --gpus for the slab hash: one table partitioned by key over the
// GPUs (tools/stress/multi_gpu.h runs the parts at once).
#pragma once

#include <vector>

#include "structures/slab_hash/gpu/slab_stress.h"
#include "tools/stress/multi_gpu.h"

namespace gpulin::stress {

using SlabGpuRun = GpuRunOf<SlabStressOptions, SlabStressResult>;  // options: part i of the GPUs, out_dir o.out_dir/gpu-D
using MultiGpuSlabRun = MultiGpu<SlabGpuRun>;

// One slab hash partitioned by key over `gpus`: GPU i runs part i of the workload
// o.seed draws (SlabStressOptions::parts), with its share of the buckets; each
// part's history is checked on its own (keys are disjoint between parts).
MultiGpuSlabRun run_slab_on_gpus(const SlabStressOptions& o, const std::vector<int>& gpus);

}  // namespace gpulin::stress
