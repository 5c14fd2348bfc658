// The median the benchmark programs report: the middle of the sorted values, the
// mean of the two middle ones for an even count, 0 for none.
#pragma once

#include <algorithm>
#include <vector>

namespace gpulin::bench {

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

}  // namespace gpulin::bench
