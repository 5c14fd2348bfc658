// The application of the parallel heap benchmarks (P-Sync paper §IV-E, §V-A): each
// key handed out costs `t` iterations of think time, then brings 0, 1 or 2 new keys
// (the relaxed hold model), each later than it by a pseudo-random step, as a
// discrete-event simulation's events are. The same code on the host (SeqHeap) and
// in the GPU's application kernel, so both do the same work.
#pragma once

#include <cstdint>

#include "common/host_device.h"

namespace gpulin::psync_bench {

// `t` dependent steps that no compiler folds (a multiply-add and a shift mixed).
GPULIN_HD inline uint32_t think(uint32_t key, uint32_t t) {
  uint32_t v = key | 1u;
  for (uint32_t i = 0; i < t; ++i) v = (v * 1664525u + 1013904223u) ^ (v >> 7);
  return v;
}

// New key j (0 or 1) of a key handed out, from its think result.
GPULIN_HD inline uint32_t next_key(uint32_t key, uint32_t v, uint32_t j) { return key + 1 + ((v >> (16 * j)) & 0xffffu); }

}  // namespace gpulin::psync_bench
