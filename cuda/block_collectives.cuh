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

// For i < n: emit(i, before, value(i)), `before` = value(0) + ... + value(i - 1)
// (T: uint32_t or uint64_t); returns the sum of all n. In tiles of Items values a
// thread, each warp's 32 * Items consecutive indices evaluated together (so the
// loads `value` makes are coalesced and all in flight before any is used),
// scanned by the warp, the warps combined, the tile's total carried to the next.
// A contiguous run a thread would make every load of a warp touch 32 lines, one
// after the other (bench/results/sssp-h200.txt measures both). A tile's values
// are all taken before any of its emits, so `value` may read what emit writes at
// indices of its own tile or later ones (exclusive_sum_of: out[i] itself). A
// partition's scatter is its emit: the elements move in the pass that places
// them, where a prefix sum stored then read back takes a second pass.
inline constexpr uint32_t kScanItems = 4;
// The scan's shared words, one set for every scan of T in the kernel (a static in
// a function of T alone: each scan_tile instantiation, one for each value and
// emit, would otherwise have its own).
template <class T>
struct ScanShared {
  typename cub::WarpScan<T>::TempStorage temp[32];
  T warp_total[32], warp_offset[33];
};
template <class T>
__device__ __forceinline__ ScanShared<T>& scan_shared() {
  __shared__ ScanShared<T> s;
  return s;
}
// One tile of scan_then: the indices [base, base + blockDim.x * Items) below n;
// `carried` (the tiles before, the same in every thread) grows by the tile's sum.
// A tile's values are all taken before its first barrier and its emits come after
// its second; no barrier at its end (the next tile's first orders its shared words).
template <class T, uint32_t Items = kScanItems, class F, class Emit>
__device__ __forceinline__ void scan_tile(uint32_t base, uint32_t n, F&& value, Emit&& emit, T& carried) {
  using WarpScan = cub::WarpScan<T>;
  ScanShared<T>& s = scan_shared<T>();
  const uint32_t seg = warp() * 32 * Items + lane();
  T v[Items], before[Items], run = 0;
#pragma unroll
  for (uint32_t u = 0; u < Items; ++u) {
    const uint32_t i = base + seg + 32 * u;
    v[u] = i < n ? static_cast<T>(value(i)) : T{0};
  }
#pragma unroll
  for (uint32_t u = 0; u < Items; ++u) {  // before[u]: what comes before v[u] in the warp's run
    T part = 0;
    WarpScan(s.temp[warp()]).ExclusiveSum(v[u], before[u], part);
    before[u] += run;
    run += part;
  }
  if (lane() == 0) s.warp_total[warp()] = run;
  __syncthreads();
  if (warp() == 0) {
    const T t = lane() < warps() ? s.warp_total[lane()] : T{0};
    T off = 0, all = 0;
    WarpScan(s.temp[0]).ExclusiveSum(t, off, all);
    s.warp_offset[lane()] = off;
    if (lane() == 0) s.warp_offset[32] = all;
  }
  __syncthreads();
  const T offset = carried + s.warp_offset[warp()];
#pragma unroll
  for (uint32_t u = 0; u < Items; ++u) {
    const uint32_t i = base + seg + 32 * u;
    if (i < n) emit(i, offset + before[u], v[u]);
  }
  carried += s.warp_offset[32];
}
template <class T, uint32_t Items = kScanItems, class F, class Emit>
__device__ inline T scan_then(uint32_t n, F&& value, Emit&& emit) {
  T carried = 0;
  for (uint32_t base = 0; base < n; base += blockDim.x * Items) scan_tile<T, Items>(base, n, value, emit, carried);
  __syncthreads();
  return carried;
}
// out[i] = value(0) + ... + value(i - 1) for i < n; returns the sum of all n.
template <class T, class F>
__device__ inline T exclusive_sum_of(uint32_t n, F&& value, T* out) {
  return scan_then<T>(n, value, [out](uint32_t i, T before, T) { out[i] = before; });
}
// The words of an array: `in` may be `out`.
__device__ inline uint32_t exclusive_sum(const uint32_t* in, uint32_t n, uint32_t* out) {
  return exclusive_sum_of<uint32_t>(n, [in](uint32_t i) { return in[i]; }, out);
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

// The least and the greatest of every thread's pair, to every thread.
struct Span {
  uint64_t lo, hi;
};
struct Widen {
  __device__ __forceinline__ Span operator()(Span a, Span b) const {
    return {b.lo < a.lo ? b.lo : a.lo, b.hi > a.hi ? b.hi : a.hi};
  }
};

// The k-th smallest (1-based, 1 <= k <= n) of key(0), ..., key(n - 1): a radix
// select over the bits where the keys differ. One reduction finds the least and the
// greatest key; the bits above their highest differing bit are the same in every
// key, so the digits start there (a level's rank keys share their priority's high
// bits). Each pass of up to 8 bits is a histogram of the keys that share the digits
// chosen so far (shared-memory atomics), each bin keeping one of its keys beside its
// count, and warp 0 finding the bin where the k-th falls; a bin of one key is the
// answer, so a pass or two usually ends it. Two barriers a pass: the histogram of the next pass is cleared while warp 0 reads
// this one (two of them, alternating).
template <class F>
__device__ inline uint64_t kth_smallest(uint32_t n, uint32_t k, F&& key) {
  __shared__ uint32_t hist[2][256];
  __shared__ uint64_t sample[256];  // a key of each bin: the bin's only one when its count is 1
  __shared__ uint32_t chosen[3];    // the digit, what is left of k within its bin, the bin's count
  __shared__ typename cub::WarpScan<uint32_t>::TempStorage scan_temp;
  Span mine{~uint64_t{0}, 0};
  for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
    const uint64_t v = key(i);
    mine = Widen{}(mine, Span{v, v});
  }
  for (uint32_t b = threadIdx.x; b < 256; b += blockDim.x) hist[0][b] = 0;
  const Span all = reduce_threads<Span>(mine, Widen{}, Span{~uint64_t{0}, 0});
  if (k <= 1 || all.lo == all.hi) return all.lo;
  if (k >= n) return all.hi;
  // Bits [top, 64) are the same in every key: the prefix every key has.
  int top = 64 - __clzll(static_cast<long long>(all.lo ^ all.hi));
  uint64_t mask = top == 64 ? 0 : ~uint64_t{0} << top;
  uint64_t prefix = all.lo & mask;
  for (uint32_t pass = 0;; ++pass) {
    const int width = top < 8 ? top : 8, shift = top - width;
    const uint32_t digits = (1u << width) - 1, cur = pass & 1;
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
      const uint64_t v = key(i);
      if ((v & mask) != prefix) continue;
      const uint32_t b = static_cast<uint32_t>(v >> shift) & digits;
      atomicAdd(&hist[cur][b], 1u);
      sample[b] = v;
    }
    __syncthreads();
    if (warp() == 0) {  // lane l holds bins 8l .. 8l + 7
      uint32_t in_lane = 0;
      for (uint32_t b = 0; b < 8; ++b) in_lane += hist[cur][8 * lane() + b];
      uint32_t upto = 0;
      cub::WarpScan<uint32_t>(scan_temp).InclusiveSum(in_lane, upto);
      if (upto - in_lane < k && k <= upto) {
        uint32_t left = k - (upto - in_lane), b = 8 * lane();
        while (hist[cur][b] < left) left -= hist[cur][b++];
        chosen[0] = b;
        chosen[1] = left;
        chosen[2] = hist[cur][b];
      }
    }
    for (uint32_t b = threadIdx.x; b < 256; b += blockDim.x) hist[cur ^ 1][b] = 0;  // warp 0 reads only hist[cur]
    __syncthreads();
    const uint32_t b = chosen[0];
    if (chosen[2] == 1) return sample[b];
    prefix |= uint64_t{b} << shift;
    mask |= uint64_t{digits} << shift;
    k = chosen[1];
    if (shift == 0) return prefix;
    top = shift;
  }
}

}  // namespace gpulin::cuda_exec::block
