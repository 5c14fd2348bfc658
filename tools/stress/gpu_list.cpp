#include "tools/stress/gpu_list.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>

namespace gpulin::stress {

std::vector<int> parse_gpu_list(const std::string& spec, int available) {
  if (available <= 0) throw std::invalid_argument("--gpus " + spec + ": no CUDA device");
  std::vector<int> gpus;
  if (spec == "all") {
    for (int d = 0; d < available; ++d) gpus.push_back(d);
    return gpus;
  }
  size_t at = 0;
  while (at <= spec.size()) {
    const size_t comma = std::min(spec.find(',', at), spec.size());
    const std::string item = spec.substr(at, comma - at);
    if (item.empty() || item.size() > 4 || !std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; }))
      throw std::invalid_argument("--gpus " + spec + ": '" + item + "' is not a device number (or say all)");
    const int d = std::stoi(item);
    if (d >= available)
      throw std::invalid_argument("--gpus " + spec + ": device " + item + " does not exist (" + std::to_string(available) +
                                  " device" + (available == 1 ? "" : "s") + ": 0.." + std::to_string(available - 1) + ")");
    if (std::find(gpus.begin(), gpus.end(), d) != gpus.end())
      throw std::invalid_argument("--gpus " + spec + ": device " + item + " is named twice");
    gpus.push_back(d);
    at = comma + 1;
  }
  return gpus;
}

std::vector<int> gpu_list(const std::string& spec) {
  int available = 0;
  if (cudaGetDeviceCount(&available) != cudaSuccess) available = 0;
  return parse_gpu_list(spec, available);
}

}  // namespace gpulin::stress
