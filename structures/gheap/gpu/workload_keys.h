// The keys of a heap workload (workload_shape.h gives its operations): key i of a
// seed's stream, a counter-based draw (SplitMix64 of the position,
// common/seed_mix.h), the same on the host and on the GPU. So the GPU draws a
// workload's keys where they are used (device_workload.h: `gpulin stress` and the
// heap benchmark alike), and a host check or test draws the same ones.
#pragma once

#include <cstdint>

#include "common/host_device.h"
#include "common/seed_mix.h"
#include "structures/gheap/config.h"

namespace gpulin::stress {

// 32-bit keys: the draw's high half, MAX_VALUE (the empty slot) moved one down, so
// [0, 2^32 - 1). 64-bit keys: [0, 2^63), the whole range of a history integer
// (history-format.md: signed 64-bit), so that a key narrowed anywhere on the way
// (heap, recorder, checks) changes its value.
template <class Key>
GPULIN_HD inline Key stream_key(uint64_t seed, uint64_t i) {
  const uint64_t z = derived_seed(seed, i);
  if constexpr (sizeof(Key) == 4) {
    const uint32_t v = static_cast<uint32_t>(z >> 32);
    return v == gheap::KeyLimits<uint32_t>::max_value ? v - 1 : v;
  } else {
    return z >> 1;
  }
}

}  // namespace gpulin::stress
