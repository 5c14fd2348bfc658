#include "tools/stress/multi_gpu.h"

#include <cuda_runtime.h>

#include <chrono>
#include <exception>
#include <functional>
#include <thread>

namespace gpulin::stress {

namespace {
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

// Every GPU's run: its options made by `configure(options, i)` from o, then
// `run(options)` on it, all at once; the slots' devices, names and errors copied in.
template <class Run, class Options, class Configure, class RunOne>
MultiGpu<Run> run_all(const Options& o, const std::vector<int>& gpus, Configure configure, RunOne run) {
  MultiGpu<Run> all;
  all.runs.resize(gpus.size());
  for (size_t i = 0; i < gpus.size(); ++i) {
    all.runs[i].options = o;
    configure(all.runs[i].options, i);
  }
  std::vector<GpuSlot> slots;
  all.wall_seconds = on_each_gpu(gpus, slots, [&](size_t i) { all.runs[i].result = run(all.runs[i].options); });
  for (size_t i = 0; i < gpus.size(); ++i) static_cast<GpuSlot&>(all.runs[i]) = slots[i];
  return all;
}
}  // namespace

MultiGpuRun run_stress_on_gpus(const StressOptions& o, const std::vector<int>& gpus) {
  return run_all<GpuRun>(
      o, gpus,
      [&](StressOptions& r, size_t i) {
        r.seed = o.seed + i;
        r.label = "gpu " + std::to_string(gpus[i]);
        r.out_dir = gpu_folder(o.out_dir, gpus[i]);
      },
      [](const StressOptions& r) { return run_stress(r); });
}

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
