// A heap workload's keys drawn on the GPU, where they are used: the stream of
// workload_keys.h (sorted on the GPU for ascend / descend), then each operation's k
// key slots. `gpulin stress` (heap_stress.cpp) takes its phases from DeviceWorkload;
// the heap benchmark (bench/gheap/heap_runs.cu) calls the two functions on its own
// buffers. make_workload (workload.h) draws the same keys on the host.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "common/cuda_support.h"
#include "structures/gheap/gpu/workload_shape.h"

namespace gpulin::stress {

// CUB's temporary storage for draw_stream of n keys.
template <class Key>
size_t draw_stream_temp_bytes(uint64_t n);
// The first n keys of `seed`'s stream in `order`, drawn into `a` and, for a sorted
// order, sorted with `b` as the second buffer; returns the buffer that holds them.
// Asynchronous on the default stream.
template <class Key>
const Key* draw_stream(Key* a, Key* b, void* temp, size_t temp_bytes, uint64_t n, KeyOrder order, uint64_t seed);
// Operation i's slots keys[i * k, (i + 1) * k): its n[i] keys, stream positions
// off[i]... (from `src`, a drawn stream, when given; else the stream's hash), then
// MAX_VALUE. Deletes have n = 0. Asynchronous on the default stream.
template <class Key>
void fill_op_keys(Key* keys, const uint32_t* n, const uint64_t* off, uint64_t ops, uint32_t k, uint64_t seed,
                  const Key* src);

// One phase of a workload on the device: its operations (gheap::GpuOpBatch's fn, n)
// and key slots.
template <class Key>
struct DevicePhase {
  cuda_support::DeviceBuffer<uint32_t> fn, n;
  cuda_support::DeviceBuffer<Key> keys;
  uint64_t ops = 0;
  uint64_t inserted_keys = 0;
};

template <class Key>
class DeviceWorkload {
 public:
  // Draws a sorted order's stream now (the whole stream: the order is the sort's).
  DeviceWorkload(WorkloadShape shape, uint64_t seed);
  const WorkloadShape& shape() const { return shape_; }
  // Phase p's operations and keys, drawn on the GPU (synchronous).
  DevicePhase<Key> phase(size_t p) const;

 private:
  WorkloadShape shape_;
  uint64_t seed_ = 0;
  cuda_support::DeviceBuffer<Key> sorted_;  // ascend / descend: the sorted stream
};

}  // namespace gpulin::stress
