#include "tools/stress/multi_gpu.h"

#include <cuda_runtime.h>

#include <chrono>
#include <exception>
#include <functional>
#include <thread>

namespace gpulin::stress {

// Runs run(i) for each i on a host thread of its own whose current device is
// gpus[i], all at once; an exception or a CUDA error becomes slots[i].error. Returns
// the wall time from the first start to the last end.
double on_each_gpu(const std::vector<int>& gpus, std::vector<GpuSlot>& slots, const std::function<void(size_t)>& run) {
  slots.resize(gpus.size());
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (size_t i = 0; i < gpus.size(); ++i) {
    threads.emplace_back([&, i] {
      GpuSlot& slot = slots[i];
      slot.device = gpus[i];
      // The current device is the host thread's: everything the run allocates and
      // launches lands on this GPU.
      cudaError_t e = cudaSetDevice(slot.device);
      cudaDeviceProp prop{};
      if (e == cudaSuccess) e = cudaGetDeviceProperties(&prop, slot.device);
      if (e != cudaSuccess) {
        slot.error = cudaGetErrorString(e);
        return;
      }
      slot.name = prop.name;
      try {
        run(i);
      } catch (const std::exception& ex) {
        slot.error = ex.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string gpu_folder(const std::string& out_dir, int device) {
  return out_dir.empty() ? std::string() : out_dir + "/gpu-" + std::to_string(device);
}

}  // namespace gpulin::stress
