// The global merge on the GPU (GPU Merge Path, §2): the kernel (per block: a search
// warp for the partitioning of §2.1-2.2, a copy warp and consumer warps for the
// windowed merging of §2.3) and the host API of merge.h. The algorithm itself is
// global_merge.h, written against the warp-role execution context
// (structures/exec/context.h); here it runs on cuda/cuda_context.cuh (warp scope), in
// the simulator on sim/sim_context.h.
//
// Hopper (sm_90): a window's A and B sub-arrays arrive in shared memory by the bulk
// copy engine (cp.async.bulk, completing on an mbarrier) while the consumers merge
// the previous window, so loads overlap merging without holding registers; the roles
// meet only at mbarriers (no block-wide barrier after the start); outputs leave as
// 16-byte vector stores. Older architectures (sm_80+) compile a plain fallback for
// the copies (correct, not tuned).
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>

#include "cuda/cuda_context.cuh"
#include "structures/merge_path/global_merge.h"
#include "structures/merge_path/merge.h"

namespace gpulin::merge_path {

// The merge kernel (§2): every block's warps 0 .. C-1 merge (consumers), warp C
// searches window boundaries (partitioning), warp C+1 copies windows into shared
// memory; the blocks share the windows through the scratch (global_merge.h has the
// protocol).
template <class Policy, class Key, class Value, class Comp>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    merge_path_kernel(MergeArgs<Key, Value, Comp> args) {
  extern __shared__ __align__(16) unsigned char merge_smem[];
  cuda_exec::CudaContext<cuda_exec::WarpScope> x{cuda_exec::WarpScope{}};
  merge_block<Policy>(x, args, merge_smem);
}

namespace detail {

template <class T>
inline bool naturally_aligned(const T* p) {
  return reinterpret_cast<uintptr_t>(p) % alignof(T) == 0;
}

// Resident merge blocks per multiprocessor, and multiprocessors, for this kernel on
// the current device (looked up once per device and kernel: no host work between
// the two launches of a merge beyond the launches themselves).
template <class Policy, class Key, class Value, class Comp>
cudaError_t grid_limit(uint64_t& blocks) {
  auto kernel = merge_path_kernel<Policy, Key, Value, Comp>;
  constexpr size_t smem = MergeLayout<Policy, Key, Value>::bytes;
  constexpr int threads = static_cast<int>(Policy::threads);
  constexpr int kMaxDevices = 64;
  static std::atomic<int64_t> cache[kMaxDevices] = {};
  int dev = 0;
  cudaError_t err = cudaGetDevice(&dev);
  if (err != cudaSuccess) return err;
  if (dev < kMaxDevices) {
    const int64_t c = cache[dev].load(std::memory_order_relaxed);
    if (c > 0) {
      blocks = static_cast<uint64_t>(c);
      return cudaSuccess;
    }
  }
  if (smem > 48 * 1024) {
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));
    if (err != cudaSuccess) return err;
  }
  int sms = 0, per_sm = 0;
  err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (err != cudaSuccess) return err;
  err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem);
  if (err != cudaSuccess) return err;
  if (per_sm < 1) return cudaErrorInvalidConfiguration;  // the layout does not fit this device
  blocks = static_cast<uint64_t>(per_sm) * static_cast<uint64_t>(sms);
  if (dev < kMaxDevices) cache[dev].store(static_cast<int64_t>(blocks), std::memory_order_relaxed);
  return cudaSuccess;
}

// Temp storage the merge asks for: the scratch the blocks share the windows through
// (MergeScratch: 12 bytes a window of Policy::tile outputs, about 1.1 KB per million
// keys with the default policy), at least 16 bytes.
template <class Policy>
size_t temp_bytes_for(uint64_t total) {
  if (total == 0) return 16;  // nothing to merge, no scratch
  const uint64_t b = MergeScratch::bytes(window_count<Policy>(total, 0));
  return b > 16 ? static_cast<size_t>(b) : 16;
}

template <class Policy, class Key, class Value, class Comp>
cudaError_t merge_dispatch(void* d_temp, size_t& temp_bytes, MergeArgs<Key, Value, Comp> args, cudaStream_t stream) {
  const uint64_t total = args.na + args.nb;
  if (d_temp == nullptr) {
    temp_bytes = temp_bytes_for<Policy>(total);
    return cudaSuccess;
  }
  if (temp_bytes < temp_bytes_for<Policy>(total) || reinterpret_cast<uintptr_t>(d_temp) % 16 != 0)
    return cudaErrorInvalidValue;
  if (total == 0) return cudaSuccess;
  if (!naturally_aligned(args.a) || !naturally_aligned(args.b) || !naturally_aligned(args.c))
    return cudaErrorMisalignedAddress;
  if constexpr (MergeLayout<Policy, Key, Value>::pairs) {
    if (!naturally_aligned(args.av) || !naturally_aligned(args.bv) || !naturally_aligned(args.cv))
      return cudaErrorMisalignedAddress;
  }
  uint64_t resident = 0;
  cudaError_t err = grid_limit<Policy, Key, Value, Comp>(resident);
  if (err != cudaSuccess) return err;
  const uint64_t windows = window_count<Policy>(args.na, args.nb);
  const uint64_t blocks = windows < resident ? windows : resident;
  args.windows = windows;
  args.scratch = MergeScratch::in(d_temp, windows);
  // The counters and flags start at zero; the splits need no clearing (each is
  // written before its flag goes up).
  err = cudaMemsetAsync(d_temp, 0, MergeScratch::cleared_bytes(windows), stream);
  if (err != cudaSuccess) return err;
  constexpr size_t smem = MergeLayout<Policy, Key, Value>::bytes;
  merge_path_kernel<Policy><<<static_cast<unsigned>(blocks), Policy::threads, smem, stream>>>(args);
  return cudaGetLastError();
}

template <class Fn>
cudaError_t with_temp(Fn&& run, size_t bytes, cudaStream_t stream) {
  void* tmp = nullptr;
  cudaError_t err = cudaMallocAsync(&tmp, bytes, stream);
  if (err != cudaSuccess) return err;
  err = run(tmp, bytes);
  const cudaError_t err_free = cudaFreeAsync(tmp, stream);
  return err != cudaSuccess ? err : err_free;
}

}  // namespace detail

// With an explicit policy (tuning, bench/merge); merge_keys/merge_pairs use
// DefaultMergePolicy.
template <class Policy, class Key, class Comp = Less>
cudaError_t merge_keys_policy(void* d_temp, size_t& temp_bytes, const Key* a, size_t na, const Key* b, size_t nb,
                              Key* out, cudaStream_t stream = 0, Comp comp = Comp()) {
  MergeArgs<Key, NoValue, Comp> args{a, nullptr, na, b, nullptr, nb, out, nullptr, 0, comp};
  return detail::merge_dispatch<Policy>(d_temp, temp_bytes, args, stream);
}

template <class Policy, class Key, class Value, class Comp = Less>
cudaError_t merge_pairs_policy(void* d_temp, size_t& temp_bytes, const Key* a_keys, const Value* a_vals, size_t na,
                               const Key* b_keys, const Value* b_vals, size_t nb, Key* out_keys, Value* out_vals,
                               cudaStream_t stream = 0, Comp comp = Comp()) {
  MergeArgs<Key, Value, Comp> args{a_keys, a_vals, na, b_keys, b_vals, nb, out_keys, out_vals, 0, comp};
  return detail::merge_dispatch<Policy>(d_temp, temp_bytes, args, stream);
}

template <class Key, class Comp>
  requires MergeComparator<Comp, Key>
cudaError_t merge_keys(void* d_temp, size_t& temp_bytes, const Key* a, size_t na, const Key* b, size_t nb, Key* out,
                       cudaStream_t stream, Comp comp) {
  using Policy = typename DefaultMergePolicy<Key, NoValue>::type;
  return merge_keys_policy<Policy>(d_temp, temp_bytes, a, na, b, nb, out, stream, comp);
}

template <class Key, class Comp>
  requires MergeComparator<Comp, Key>
cudaError_t merge_keys(const Key* a, size_t na, const Key* b, size_t nb, Key* out, cudaStream_t stream, Comp comp) {
  if (na + nb == 0) return cudaSuccess;
  size_t bytes = 0;
  cudaError_t err = merge_keys<Key, Comp>(static_cast<void*>(nullptr), bytes, a, na, b, nb, out, stream, comp);
  if (err != cudaSuccess) return err;
  return detail::with_temp(
      [&](void* tmp, size_t n) { return merge_keys<Key, Comp>(tmp, n, a, na, b, nb, out, stream, comp); }, bytes,
      stream);
}

template <class Key, class Value, class Comp>
  requires MergeComparator<Comp, Key>
cudaError_t merge_pairs(void* d_temp, size_t& temp_bytes, const Key* a_keys, const Value* a_vals, size_t na,
                        const Key* b_keys, const Value* b_vals, size_t nb, Key* out_keys, Value* out_vals,
                        cudaStream_t stream, Comp comp) {
  using Policy = typename DefaultMergePolicy<Key, Value>::type;
  return merge_pairs_policy<Policy>(d_temp, temp_bytes, a_keys, a_vals, na, b_keys, b_vals, nb, out_keys, out_vals,
                                    stream, comp);
}

template <class Key, class Value, class Comp>
  requires MergeComparator<Comp, Key>
cudaError_t merge_pairs(const Key* a_keys, const Value* a_vals, size_t na, const Key* b_keys, const Value* b_vals,
                        size_t nb, Key* out_keys, Value* out_vals, cudaStream_t stream, Comp comp) {
  if (na + nb == 0) return cudaSuccess;
  size_t bytes = 0;
  cudaError_t err = merge_pairs<Key, Value, Comp>(static_cast<void*>(nullptr), bytes, a_keys, a_vals, na, b_keys,
                                                  b_vals, nb, out_keys, out_vals, stream, comp);
  if (err != cudaSuccess) return err;
  return detail::with_temp(
      [&](void* tmp, size_t n) {
        return merge_pairs<Key, Value, Comp>(tmp, n, a_keys, a_vals, na, b_keys, b_vals, nb, out_keys, out_vals,
                                             stream, comp);
      },
      bytes, stream);
}

}  // namespace gpulin::merge_path
