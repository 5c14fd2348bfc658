// The exploration settings the explorer's tests share: PCT (depth 3), a fresh
// program for every schedule, seed 7.
#pragma once

#include <cstdint>

#include "tools/explore/explore.h"

namespace gpulin::explore {

inline ExploreOptions pct_options(uint64_t schedules) {
  ExploreOptions o;
  o.strategy = "pct";
  o.schedules = schedules;
  o.seed = 7;
  return o;
}

}  // namespace gpulin::explore
