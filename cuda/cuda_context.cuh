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

#include "histories/device_events.h"

namespace gpulin::cuda_exec {

template <class T>
using device_ref = cuda::atomic_ref<T, cuda::thread_scope_device>;

// `Record` compiles recording in or out: with it off, the record_* calls are empty
// and cost nothing.
template <bool Record>
class CudaContext {
 public:
  // `broadcast` is two words of shared memory owned by this context. Broadcasts
  // alternate between them, so a thread still reading one value never races the
  // next write: that write comes after at least one more barrier.
  //
  // `spin_bound`: re-reads a wait_while_equals may make before it calls fail, so a
  // wait that never ends (a lost release, a deadlock) traps with a message instead
  // of hanging the GPU. The default, 2^24 re-reads with back-off up to 1 us, is
  // about 17 s: far beyond any wait of a correct run (the root lock under 128
  // blocks waits milliseconds).
  static constexpr uint64_t kDefaultSpinBound = uint64_t{1} << 24;
  __device__ explicit CudaContext(uint32_t* broadcast, DeviceRecorderRef rec = {},
                                  uint64_t spin_bound = kDefaultSpinBound)
      : bcast_(broadcast), rec_(rec), spin_bound_(spin_bound) {}

  // An acquire needs no barrier before it (nothing of this block must be ordered
  // before a load), only the one that publishes the value.
  __device__ uint32_t load(uint32_t* p) {
    uint32_t* b = next_slot();
    if (threadIdx.x == 0) *b = device_ref<uint32_t>(*p).load(cuda::memory_order_acquire);
    __syncthreads();
    return *b;
  }
  // The barrier before a release orders every thread's earlier writes before it:
  // bar.sync is a morally strong synchronization within the block, and a release
  // at device scope is cumulative over what its thread has observed (PTX memory
  // model), so no separate fence is needed.
  __device__ void store(uint32_t* p, uint32_t v) {
    __syncthreads();
    if (threadIdx.x == 0) device_ref<uint32_t>(*p).store(v, cuda::memory_order_release);
    __syncthreads();
  }
  // Only thread 0 reads or writes such a word (x.load is thread 0's too), and the
  // lock's releasing CAS, also thread 0's, orders this store before it.
  __device__ void store_guarded(uint32_t* p, uint32_t v) {
    if (threadIdx.x == 0) device_ref<uint32_t>(*p).store(v, cuda::memory_order_relaxed);
  }
  __device__ uint32_t cas(uint32_t* p, uint32_t expected, uint32_t desired) {
    __syncthreads();
    uint32_t* b = next_slot();
    if (threadIdx.x == 0) {
      uint32_t e = expected;
      device_ref<uint32_t>(*p).compare_exchange_strong(e, desired, cuda::memory_order_acq_rel);
      *b = e;  // the old value, as the figures' CAS returns it
    }
    __syncthreads();
    return *b;
  }
  __device__ uint32_t fetch_add(uint32_t* p, uint32_t v) {
    __syncthreads();
    uint32_t* b = next_slot();
    if (threadIdx.x == 0) *b = device_ref<uint32_t>(*p).fetch_add(v, cuda::memory_order_acq_rel);
    __syncthreads();
    return *b;
  }
  // Every thread sees the same loads (they are broadcast), so all of them count
  // the same re-reads and reach the bound together.
  __device__ void wait_while_equals(uint32_t* p, uint32_t seen) {
    uint32_t backoff = 32;
    for (uint64_t spins = 0;; ++spins) {
      if (load(p) != seen) return;
      if (spins >= spin_bound_) fail("spin bound exceeded: a wait_while_equals that never ended");
      __nanosleep(backoff);
      backoff = backoff < 1024 ? backoff * 2 : backoff;
    }
  }

  template <class Key>
  __device__ void load_block(Key* dst, const Key* src, uint32_t n) {
    load_gather(dst, n, [src](uint32_t i) { return src + i; });
  }
  template <class Key>
  __device__ void load_two_blocks(Key* dst, const Key* src_a, const Key* src_b, uint32_t n) {
    load_gather(dst, 2 * n, [=](uint32_t i) { return i < n ? src_a + i : src_b + (i - n); });
  }
  // Each thread issues up to kLoadsInFlight loads before it stores any of them, so
  // that a 2k-key pair of nodes costs one memory round trip, not four.
  static constexpr uint32_t kLoadsInFlight = 4;
  template <class Key, class F>
  __device__ void load_gather(Key* dst, uint32_t n, F&& src_of) {
    for (uint32_t base = threadIdx.x; base < n; base += kLoadsInFlight * blockDim.x) {
      Key v[kLoadsInFlight];
#pragma unroll
      for (uint32_t u = 0; u < kLoadsInFlight; ++u) {
        const uint32_t i = base + u * blockDim.x;
        if (i < n) v[u] = device_ref<Key>(*const_cast<Key*>(src_of(i))).load(cuda::memory_order_relaxed);
      }
#pragma unroll
      for (uint32_t u = 0; u < kLoadsInFlight; ++u) {
        const uint32_t i = base + u * blockDim.x;
        if (i < n) dst[i] = v[u];
      }
    }
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

  // Recording: thread 0 takes a ticket from the global counter (acq after the
  // winning CAS, rel before the releasing one, inv before the first shared access,
  // ret after the last). The lock's own acquire and release order the hold tickets:
  // a rel ticket is sequenced before the release that a later acquirer reads from,
  // and that acquirer takes its acq ticket after its acquire, so the first
  // increment happens-before the second and precedes it in the counter's
  // modification order (coherence). So acq and rel tickets are relaxed: they sit
  // inside critical sections (the root's above all), where a fence would lengthen
  // every hold. inv is an acquire (nothing of the operation moves before it), ret
  // a release (nothing moves after it).
  __device__ void begin_op(int64_t op) { op_ = op; }
  __device__ void end_op() {}
  __device__ void record_acq(int64_t node) { hold(2, node); }
  __device__ void record_rel(int64_t node) { hold(3, node); }
  template <class Key>
  __device__ void record_inv(uint32_t fn, const Key* args, uint32_t n) { with_keys(0, fn, args, n, false); }
  template <class Key>
  __device__ void record_ret(const Key* res, uint32_t n, bool is_null) { with_keys(1, 0, res, n, is_null); }

  __device__ void fail(const char* what) {
    if (threadIdx.x == 0) printf("gpulin: block %u: %s\n", blockIdx.x, what);
    __trap();
  }

 private:
  // Event kinds: 0 inv, 1 ret, 2 acq, 3 rel (DeviceEvent::kind).
  __device__ unsigned long long ticket(uint32_t kind) {
    auto counter = device_ref<unsigned long long>(*rec_.ticket);
    const cuda::memory_order order = kind == 0   ? cuda::memory_order_acquire
                                     : kind == 1 ? cuda::memory_order_release
                                                 : cuda::memory_order_relaxed;
    return counter.fetch_add(1ull, order) + 1;  // from 1
  }
  __device__ void append(uint32_t kind, int64_t node, uint32_t fn, uint32_t key_off, uint32_t key_len, bool is_null) {
    const unsigned long long t = ticket(kind);
    const uint32_t i = rec_.event_count[blockIdx.x]++;  // counts past the capacity: overflow is seen
    if (i < rec_.event_cap)
      rec_.events[size_t(blockIdx.x) * rec_.event_cap + i] =
          DeviceEvent{t, op_, node, kind, fn, key_off, key_len, is_null ? 1u : 0u, blockIdx.x};
  }
  __device__ void hold(uint32_t kind, int64_t node) {
    if constexpr (Record) {
      if (threadIdx.x == 0) append(kind, node, 0, 0, 0, false);
    }
  }
  template <class Key>
  __device__ void with_keys(uint32_t kind, uint32_t fn, const Key* keys, uint32_t n, bool is_null) {
    // The device recorder's key buffers are 32-bit: a wider key would be recorded
    // truncated, and its history judged on keys the structure never had.
    static_assert(!Record || sizeof(Key) <= sizeof(uint32_t), "the device recorder stores 32-bit keys");
    if constexpr (Record) {
      uint32_t* b = next_slot();
      if (threadIdx.x == 0) {
        const uint32_t off = rec_.key_count[blockIdx.x];
        rec_.key_count[blockIdx.x] = off + n;
        append(kind, 0, fn, off, n, is_null);
        *b = off;
      }
      __syncthreads();  // also orders the keys' writes (block-private) before the copy
      const uint32_t off = *b;
      if (off + n <= rec_.key_cap)
        for (uint32_t i = threadIdx.x; i < n; i += blockDim.x)
          rec_.keys[size_t(blockIdx.x) * rec_.key_cap + off + i] = static_cast<uint32_t>(keys[i]);
      __syncthreads();
    }
  }

  __device__ uint32_t* next_slot() {
    slot_ ^= 1u;
    return bcast_ + slot_;
  }

  uint32_t* bcast_;
  uint32_t slot_ = 0;
  DeviceRecorderRef rec_;
  uint64_t spin_bound_;
  int64_t op_ = 0;
};

}  // namespace gpulin::cuda_exec
