#include "tools/stress/multi_gpu.h"

#include <cuda_runtime.h>

#include <chrono>
#include <exception>
#include <thread>

namespace gpulin::stress {

MultiGpuRun run_stress_on_gpus(const StressOptions& o, const std::vector<int>& gpus) {
  MultiGpuRun all;
  all.runs.resize(gpus.size());
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (size_t i = 0; i < gpus.size(); ++i) {
    GpuRun& run = all.runs[i];
    run.device = gpus[i];
    run.options = o;
    run.options.seed = o.seed + i;
    run.options.label = "gpu " + std::to_string(gpus[i]);
    if (!o.out_dir.empty()) run.options.out_dir = o.out_dir + "/gpu-" + std::to_string(gpus[i]);
    threads.emplace_back([&run] {
      // The current device is the host thread's: everything run_stress allocates
      // and launches lands on this GPU.
      cudaError_t e = cudaSetDevice(run.device);
      cudaDeviceProp prop{};
      if (e == cudaSuccess) e = cudaGetDeviceProperties(&prop, run.device);
      if (e != cudaSuccess) {
        run.error = cudaGetErrorString(e);
        return;
      }
      run.name = prop.name;
      try {
        run.result = run_stress(run.options);
      } catch (const std::exception& ex) {
        run.error = ex.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  all.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return all;
}

}  // namespace gpulin::stress
