// How a level actor waits for another (§4.1: the level blocks signal through
// View::done, the count of RESOLVE(i) completed): until the count reaches a target.
#pragma once

#include <cstdint>

#include "common/host_device.h"

namespace gpulin::bucket_heap {

template <class X>
GPULIN_HD void wait_until_at_least(X& x, uint32_t* word, uint32_t target) {
  for (uint32_t seen = x.load(word); seen < target; seen = x.load(word)) x.wait_while_equals(word, seen);
}

}  // namespace gpulin::bucket_heap
