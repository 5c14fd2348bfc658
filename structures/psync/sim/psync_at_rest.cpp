#include "structures/psync/sim/psync_at_rest.h"

#include <algorithm>

namespace gpulin::explore {

std::optional<std::string> psync_heap_property(const uint32_t* nodes, uint32_t r, uint64_t arrived_end,
                                               const std::vector<uint32_t>& working) {
  const uint64_t count = (arrived_end + r - 1) / r;
  auto fill = [&](uint64_t i) { return static_cast<uint32_t>(std::min<uint64_t>(r, arrived_end - (i - 1) * r)); };
  auto node = [&](uint64_t i) { return nodes + (i - 1) * r; };
  for (uint64_t i = 1; i <= count; ++i) {
    const uint32_t* keys = node(i);
    const uint32_t n = fill(i);
    for (uint32_t j = 1; j < n; ++j)
      if (keys[j] < keys[j - 1])
        return "node " + std::to_string(i) + " is not sorted: key " + std::to_string(j) + " (" +
               std::to_string(keys[j]) + ") after " + std::to_string(keys[j - 1]);
    if (std::find(working.begin(), working.end(), i) != working.end()) continue;
    for (uint64_t c = 2 * i; c <= std::min(count, 2 * i + 1); ++c)
      if (node(c)[0] < keys[n - 1])
        return "node " + std::to_string(c) + " holds " + std::to_string(node(c)[0]) + ", less than its parent " +
               std::to_string(i) + "'s " + std::to_string(keys[n - 1]) + " (no delete-update process works there)";
  }
  return std::nullopt;
}

}  // namespace gpulin::explore
