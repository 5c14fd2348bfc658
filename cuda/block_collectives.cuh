// Block-wide collectives over actor-private memory (structures/exec/context.h,
// "actor-cooperative work"): an exclusive prefix sum, reductions, and the k-th
// smallest of n 64-bit keys - the library calls the bucket heap paper makes (§3,
// Lemma 2: CUB's prefix sums and radix sort), for blocks of any multiple of 32
// threads (the kernels choose it at launch, so CUB's BlockScan, sized at compile
// time, does not fit). Each is CUB's warp collective, a word per warp in shared
// memory and warp 0 combining them.
//
// Shared words: each collective writes its per-warp words before its first
// barrier and its result only after it, and every thread reads the result after
// the second; a thread still reading one call's result has not passed the next
// call's first barrier, so no write of the next call reaches what it reads.
#pragma once

#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>

#include <cstdint>

namespace gpulin::cuda_exec::block {

struct Plus {
  template <class T>
  __device__ __forceinline__ T operator()(T a, T b) const { return a + b; }
};
struct Least {
  template <class T>
  __device__ __forceinline__ T operator()(T a, T b) const { return b < a ? b : a; }
};

__device__ __forceinline__ uint32_t lane() { return threadIdx.x & 31; }
__device__ __forceinline__ uint32_t warp() { return threadIdx.x >> 5; }
__device__ __forceinline__ uint32_t warps() { return (blockDim.x + 31) >> 5; }

// Every thread's `v` summed; each thread gets the sum over the threads before it
// (exclusive) and the block's total.
__device__ inline uint32_t exclusive_sum_of_threads(uint32_t v, uint32_t* total) {
  using WarpScan = cub::WarpScan<uint32_t>;
  __shared__ typename WarpScan::TempStorage temp[32];
  __shared__ uint32_t warp_total[32], warp_offset[33];
  uint32_t before = 0, in_warp = 0;
  WarpScan(temp[warp()]).ExclusiveSum(v, before, in_warp);
  if (lane() == 0) warp_total[warp()] = in_warp;
  __syncthreads();
  if (warp() == 0) {
    const uint32_t t = lane() < warps() ? warp_total[lane()] : 0u;
    uint32_t off = 0, all = 0;
    WarpScan(temp[0]).ExclusiveSum(t, off, all);
    warp_offset[lane()] = off;
    if (lane() == 0) warp_offset[32] = all;
  }
  __syncthreads();
  *total = warp_offset[32];
  return warp_offset[warp()] + before;
}

// out[i] = in[0] + ... + in[i - 1] for i < n; returns the sum of all n. Each thread
// takes a contiguous run of the input (one block scan whatever n is), then a barrier.
__device__ inline uint32_t exclusive_sum(const uint32_t* in, uint32_t n, uint32_t* out) {
  const uint32_t per = (n + blockDim.x - 1) / blockDim.x;
  const uint32_t lo = min(n, threadIdx.x * per), hi = min(n, lo + per);
  uint32_t mine = 0;
  for (uint32_t i = lo; i < hi; ++i) mine += in[i];
  uint32_t total = 0;
  uint32_t run = exclusive_sum_of_threads(mine, &total);
  for (uint32_t i = lo; i < hi; ++i) {
    const uint32_t v = in[i];  // read before the write: `in` may be `out`
    out[i] = run;
    run += v;
  }
  __syncthreads();
  return total;
}

// Op over every thread's `v` (a sum or a minimum; `identity` its neutral value), the
// result to every thread.
template <class T, class Op>
__device__ inline T reduce_threads(T v, Op op, T identity) {
  using WarpReduce = cub::WarpReduce<T>;
  __shared__ typename WarpReduce::TempStorage temp[32];
  __shared__ T warp_part[32], result;
  const T w = WarpReduce(temp[warp()]).Reduce(v, op);
  if (lane() == 0) warp_part[warp()] = w;
  __syncthreads();
  if (warp() == 0) {
    const T r = WarpReduce(temp[0]).Reduce(lane() < warps() ? warp_part[lane()] : identity, op);
    if (lane() == 0) result = r;
  }
  __syncthreads();
  return result;
}

// The k-th smallest (1-based, k <= n) of key(0), ..., key(n - 1): a radix select,
// eight passes of 8 bits from the top, each a histogram of the keys that share the
// digits chosen so far (shared-memory atomics) and warp 0 finding the bin where
// the k-th falls.
template <class F>
__device__ inline uint64_t kth_smallest(uint32_t n, uint32_t k, F&& key) {
  __shared__ uint32_t hist[256];
  __shared__ uint32_t chosen[2];  // the digit, what is left of k within its bin
  __shared__ typename cub::WarpScan<uint32_t>::TempStorage scan_temp;
  uint64_t prefix = 0, mask = 0;
  for (int shift = 56; shift >= 0; shift -= 8) {
    for (uint32_t b = threadIdx.x; b < 256; b += blockDim.x) hist[b] = 0;
    __syncthreads();
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
      const uint64_t v = key(i);
      if ((v & mask) == prefix) atomicAdd(&hist[(v >> shift) & 0xff], 1u);
    }
    __syncthreads();
    if (warp() == 0) {  // lane l holds bins 8l .. 8l + 7
      uint32_t mine = 0;
      for (uint32_t b = 0; b < 8; ++b) mine += hist[8 * lane() + b];
      uint32_t upto = 0;
      cub::WarpScan<uint32_t>(scan_temp).InclusiveSum(mine, upto);
      if (upto - mine < k && k <= upto) {
        uint32_t left = k - (upto - mine), b = 8 * lane();
        while (hist[b] < left) left -= hist[b++];
        chosen[0] = b;
        chosen[1] = left;
      }
    }
    __syncthreads();
    prefix |= uint64_t{chosen[0]} << shift;
    mask |= uint64_t{0xff} << shift;
    k = chosen[1];
  }
  return prefix;
}

}  // namespace gpulin::cuda_exec::block
