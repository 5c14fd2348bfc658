// gpulin stress --gpus: a structure on several GPUs at once (a host thread each),
// every run checked as a single-GPU run is. What every structure's multi-GPU run
// shares; how a structure splits its work over the GPUs is its own
// (structures/NAME/gpu/).
#pragma once

#include <functional>
#include <string>
#include <vector>

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

// Runs run(i) for each i on a host thread of its own whose current device is
// gpus[i], all at once; an exception or a CUDA error becomes slots[i].error. Returns
// the wall time from the first start to the last end.
double on_each_gpu(const std::vector<int>& gpus, std::vector<GpuSlot>& slots, const std::function<void(size_t)>& run);

// The folder of GPU `device`'s files under out_dir ("" when out_dir is "").
std::string gpu_folder(const std::string& out_dir, int device);

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

}  // namespace gpulin::stress
