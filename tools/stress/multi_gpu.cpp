#include "tools/stress/multi_gpu.h"

#include <cuda_runtime.h>

#include <chrono>
#include <exception>
#include <thread>

namespace gpulin::stress {

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

namespace {
std::string gpu_folder(const std::string& out_dir, int device) {
  return out_dir.empty() ? std::string() : out_dir + "/gpu-" + std::to_string(device);
}

// The slots' devices, names and errors into the runs.
template <class Run>
void fill_slots(std::vector<Run>& runs, const std::vector<GpuSlot>& slots) {
  for (size_t i = 0; i < runs.size(); ++i) static_cast<GpuSlot&>(runs[i]) = slots[i];
}
}  // namespace

MultiGpuRun run_stress_on_gpus(const StressOptions& o, const std::vector<int>& gpus) {
  MultiGpuRun all;
  all.runs.resize(gpus.size());
  for (size_t i = 0; i < gpus.size(); ++i) {
    StressOptions& r = all.runs[i].options;
    r = o;
    r.seed = o.seed + i;
    r.label = "gpu " + std::to_string(gpus[i]);
    r.out_dir = gpu_folder(o.out_dir, gpus[i]);
  }
  std::vector<GpuSlot> slots;
  all.wall_seconds = on_each_gpu(gpus, slots, [&](size_t i) { all.runs[i].result = run_stress(all.runs[i].options); });
  fill_slots(all.runs, slots);
  return all;
}

MultiGpuSlabRun run_slab_on_gpus(const SlabStressOptions& o, const std::vector<int>& gpus) {
  MultiGpuSlabRun all;
  all.runs.resize(gpus.size());
  for (size_t i = 0; i < gpus.size(); ++i) {
    SlabStressOptions& r = all.runs[i].options;
    r = o;
    r.part = static_cast<uint32_t>(i);
    r.parts = static_cast<uint32_t>(gpus.size());
    r.out_dir = gpu_folder(o.out_dir, gpus[i]);
  }
  std::vector<GpuSlot> slots;
  all.wall_seconds =
      on_each_gpu(gpus, slots, [&](size_t i) { all.runs[i].result = run_slab_stress(all.runs[i].options); });
  fill_slots(all.runs, slots);
  return all;
}

}  // namespace gpulin::stress
