// Per-thread atomics for the data-parallel steps of an application, inside
// x.parallel_for (structures/exec/context.h): each of the actor's threads relaxes
// its own edges (the SSSP frontier's advance). They are relaxed device-scope
// atomics on the GPU; the actor's barrier at the end of parallel_for and its next
// ordered operation publish them, as any of the actor's threads' writes.
// In the simulator a parallel_for runs in one fiber without a scheduling point, so
// these are plain reads and writes there, and the simulator explores the
// interleavings of whole steps, not of the threads inside one: an application
// whose answer is independent of that order (a min, a count) loses nothing.
#pragma once

#include <cstdint>

#include "common/host_device.h"

namespace gpulin::exec {

// A read of a word that other actors' threads change in the same step.
GPULIN_HD inline uint32_t lane_load(const uint32_t* p) {
#ifdef __CUDA_ARCH__
  return __ldcg(p);  // from L2: another SM's atomic is not in this SM's L1
#else
  return *p;
#endif
}

#ifndef __CUDA_ARCH__
// The simulator's form of a read-modify-write: one fiber runs the whole step.
template <class F>
inline uint32_t host_rmw(uint32_t* p, F f) {
  const uint32_t old = *p;
  *p = f(old);
  return old;
}
#endif

// *p = min(*p, v); the old value.
GPULIN_HD inline uint32_t lane_fetch_min(uint32_t* p, uint32_t v) {
#ifdef __CUDA_ARCH__
  return atomicMin(p, v);
#else
  return host_rmw(p, [v](uint32_t old) { return v < old ? v : old; });
#endif
}

// *p = max(*p, v); the old value.
GPULIN_HD inline uint32_t lane_fetch_max(uint32_t* p, uint32_t v) {
#ifdef __CUDA_ARCH__
  return atomicMax(p, v);
#else
  return host_rmw(p, [v](uint32_t old) { return v > old ? v : old; });
#endif
}

// *p += v; the old value.
GPULIN_HD inline uint32_t lane_fetch_add(uint32_t* p, uint32_t v) {
#ifdef __CUDA_ARCH__
  return atomicAdd(p, v);
#else
  return host_rmw(p, [v](uint32_t old) { return old + v; });
#endif
}

// *p = v; the old value.
GPULIN_HD inline uint32_t lane_exchange(uint32_t* p, uint32_t v) {
#ifdef __CUDA_ARCH__
  return atomicExch(p, v);
#else
  return host_rmw(p, [v](uint32_t) { return v; });
#endif
}

}  // namespace gpulin::exec
