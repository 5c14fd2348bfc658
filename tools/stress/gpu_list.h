// `gpulin stress --gpus LIST`: which GPUs, as the user names them.
#pragma once

#include <string>
#include <vector>

namespace gpulin::stress {

// "all" (every one of `available` devices) or device ordinals separated by commas
// ("0,1"), each below `available` and named once. Throws std::invalid_argument
// saying what is wrong (an unknown device, a repeat, no device at all).
std::vector<int> parse_gpu_list(const std::string& spec, int available);

// parse_gpu_list over the devices this process sees (none when CUDA sees none).
std::vector<int> gpu_list(const std::string& spec);

}  // namespace gpulin::stress
