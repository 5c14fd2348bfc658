#include "structures/slab_hash/gpu/slab_multi_gpu.h"

#include <string>

namespace gpulin::stress {

MultiGpuSlabRun run_slab_on_gpus(const SlabStressOptions& o, const std::vector<int>& gpus) {
  return run_all<SlabGpuRun>(
      o, gpus,
      [&](SlabStressOptions& r, size_t i) {
        r.part = static_cast<uint32_t>(i);
        r.parts = static_cast<uint32_t>(gpus.size());
        r.out_dir = gpu_folder(o.out_dir, gpus[i]);
      },
      [](const SlabStressOptions& r) { return run_slab_stress(r); });
}

}  // namespace gpulin::stress
