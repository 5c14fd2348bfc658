// The execution context on the GPU (structures/exec/context.h). Block-uniform code:
// every thread of the block calls each function with the same arguments; thread 0
// performs a shared-word access and broadcasts the result through shared memory.
//
// Memory order (../shared/design.md): state another block may have written is read
// and written only with device-scope atomics - acquire/release for lock words,
// relaxed for node data bracketed by those - never with plain loads that L1 could
// serve stale. No correctness depends on a compiler flag.
#pragma once

#include <cuda/atomic>

#include <cstdint>

namespace gpulin::cuda_exec {

template <class T>
using device_ref = cuda::atomic_ref<T, cuda::thread_scope_device>;

class CudaContext {
 public:
  // `broadcast` is one word of shared memory owned by this context.
  __device__ explicit CudaContext(uint32_t* broadcast) : bcast_(broadcast) {}

  __device__ uint32_t load(uint32_t* p) {
    __syncthreads();
    if (threadIdx.x == 0) *bcast_ = device_ref<uint32_t>(*p).load(cuda::memory_order_acquire);
    __syncthreads();
    return *bcast_;
  }
  __device__ void store(uint32_t* p, uint32_t v) {
    __syncthreads();  // every thread's earlier writes happen before the release
    if (threadIdx.x == 0) {
      __threadfence();
      device_ref<uint32_t>(*p).store(v, cuda::memory_order_release);
    }
    __syncthreads();
  }
  __device__ uint32_t cas(uint32_t* p, uint32_t expected, uint32_t desired) {
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      uint32_t e = expected;
      device_ref<uint32_t>(*p).compare_exchange_strong(e, desired, cuda::memory_order_acq_rel);
      *bcast_ = e;  // the old value, as the figures' CAS returns it
    }
    __syncthreads();
    return *bcast_;
  }
  __device__ uint32_t fetch_add(uint32_t* p, uint32_t v) {
    __syncthreads();
    if (threadIdx.x == 0) *bcast_ = device_ref<uint32_t>(*p).fetch_add(v, cuda::memory_order_acq_rel);
    __syncthreads();
    return *bcast_;
  }
  __device__ void wait_while_equals(uint32_t* p, uint32_t seen) {
    for (uint32_t backoff = 32;; backoff = backoff < 1024 ? backoff * 2 : backoff) {
      if (load(p) != seen) return;
      __nanosleep(backoff);
    }
  }

  template <class Key>
  __device__ void load_block(Key* dst, const Key* src, uint32_t n) {
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x)
      dst[i] = device_ref<Key>(*const_cast<Key*>(src + i)).load(cuda::memory_order_relaxed);
    __syncthreads();
  }
  template <class Key>
  __device__ void store_block(Key* dst, const Key* src, uint32_t n) {
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x)
      device_ref<Key>(dst[i]).store(src[i], cuda::memory_order_relaxed);
    __syncthreads();
  }

  template <class F>
  __device__ void parallel_for(uint32_t n, F&& f) {
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) f(i);
    __syncthreads();
  }
  __device__ uint32_t threads() const { return blockDim.x; }

  // Recording on the device is the next step (device append buffers); with it off
  // these cost nothing.
  __device__ void begin_op(int64_t) {}
  __device__ void end_op() {}
  __device__ void record_acq(int64_t) {}
  __device__ void record_rel(int64_t) {}
  template <class Key>
  __device__ void record_inv(uint32_t, const Key*, uint32_t) {}
  template <class Key>
  __device__ void record_ret(const Key*, uint32_t, bool) {}

  __device__ void fail(const char* what) {
    if (threadIdx.x == 0) printf("gpulin: block %u: %s\n", blockIdx.x, what);
    __trap();
  }

 private:
  uint32_t* bcast_;
};

}  // namespace gpulin::cuda_exec
