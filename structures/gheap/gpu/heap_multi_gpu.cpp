#include "structures/gheap/gpu/heap_multi_gpu.h"

#include <string>

#include "common/seed_mix.h"

namespace gpulin::stress {

MultiGpuRun run_stress_on_gpus(const StressOptions& o, const std::vector<int>& gpus) {
  return run_all<GpuRun>(
      o, gpus,
      [&](StressOptions& r, size_t i) {
        r.seed = i == 0 ? o.seed : derived_seed(o.seed, i, kDeviceStream);
        r.label = "gpu " + std::to_string(gpus[i]);
        r.out_dir = gpu_folder(o.out_dir, gpus[i]);
      },
      [](const StressOptions& r) { return run_stress(r); });
}

}  // namespace gpulin::stress
