// A block's merge of two sorted arrays of global memory through shared-memory tiles
// (GPU Merge Path §2.2's partition, done twice): the output is cut into tiles of
// kTileMergeItems outputs a thread, where the merge path crosses each tile's
// diagonals is found for all tiles at once (a warp a diagonal, a 33-ary search),
// each tile's inputs are loaded coalesced into shared memory, each thread merges
// its slice there (the same merge-path core as structures/merge_path), and the
// tile goes out coalesced. A block actor's arrays of thousands of elements
// (the bucket heap's levels) merged by block_merge's one global slice a thread cost
// a chain of dependent, scattered loads a thread; here the global traffic is a few
// coalesced round trips a tile (bench/results/sssp-h200.txt measures both).
#pragma once

#include <cstdint>

#include "cuda/block_collectives.cuh"
#include "structures/merge_path/merge_path_core.h"

namespace gpulin::cuda_exec::block {

inline constexpr uint32_t kTileMergeItems = 4;                        // a tile's elements a thread of the block
inline constexpr uint32_t kTileMergeMaxTile = 1024 * kTileMergeItems;  // a block of 1024 threads
inline constexpr uint32_t kTileMergeSplits = 64;                       // tiles whose ends are found at once

// tile_merge<Outputs>: each merging thread makes Outputs of a tile's outputs, after
// one search of the tile. At kTileMergeItems (the default) every thread merges; at
// 8 half of them do, with half the searches, which are most of a tile's
// shared-memory traffic, what the merge waits on (bench/results/sssp-h200.txt).
// The merged tile then goes back to shared memory with one free slot every 32
// elements, so that a thread's outputs, 8 words from its neighbour's, fall on
// distinct banks. gpulin_bench_level_ops times both.
template <uint32_t Outputs>
__device__ __forceinline__ uint32_t tile_slot(uint32_t j) {
  if constexpr (Outputs > kTileMergeItems) return j + j / 32;
  else return j;
}

// The count of A's elements among the first `diag` outputs of the stable merge
// (A's element first on equal keys: merge_path::diagonal_split_t's answer), by the
// calling warp: each step its 32 lanes test 32 evenly spaced candidates, so a range
// of n shrinks to n / 33 a round trip. Every lane of the warp calls it.
template <class Key>
__device__ uint32_t warp_diagonal_split(const Key* a, uint32_t na, const Key* b, uint32_t nb, uint32_t diag) {
  uint32_t lo = diag > nb ? diag - nb : 0, hi = diag < na ? diag : na;
  // "A's element i comes before the diagonal": true on [lo, answer), false after.
  auto before = [&](uint32_t i) { return !(b[diag - i - 1] < a[i]); };
  while (lo < hi) {
    const uint32_t len = hi - lo;
    if (len <= 32) {
      const uint32_t yes = __ballot_sync(~0u, lane() < len && before(lo + lane()));
      return lo + __popc(yes);
    }
    const uint32_t step = len / 33;  // probes lo + step - 1, ..., lo + 32 step - 1, all below hi
    const uint32_t c = __popc(__ballot_sync(~0u, before(lo + (lane() + 1) * step - 1)));
    if (c < 32) hi = lo + (c + 1) * step - 1;
    if (c > 0) lo = lo + c * step;
  }
  return lo;
}

// out[0, na + nb) = a and b merged (stable, A first on equal keys). Every thread of
// the block calls it; a barrier ends it. Key is 4 or 8 bytes; out meets neither input.
template <uint32_t Outputs = kTileMergeItems, class Key>
__device__ void tile_merge(const Key* a, uint32_t na, const Key* b, uint32_t nb, Key* out) {
  static_assert(sizeof(Key) <= 8, "a tile of 1024 threads' outputs in 32 KB (and its padding)");
  static_assert(Outputs >= kTileMergeItems && Outputs % kTileMergeItems == 0, "a thread merges at least its share");
  constexpr uint32_t kPadding = Outputs > kTileMergeItems ? kTileMergeMaxTile / 32 : 0;
  __shared__ Key tile[kTileMergeMaxTile + kPadding];
  __shared__ uint32_t split[kTileMergeSplits + 1];  // A's count at each tile's start, and the last one's end
  const uint32_t total = na + nb, items = blockDim.x * kTileMergeItems;
  for (uint32_t first = 0; first * items < total; first += kTileMergeSplits) {
    const uint32_t tiles = min(kTileMergeSplits, (total - first * items + items - 1) / items);
    for (uint32_t t = warp(); t <= tiles; t += warps()) {
      const uint32_t diag = min(total, (first + t) * items);
      const uint32_t s = warp_diagonal_split(a, na, b, nb, diag);
      if (lane() == 0) split[t] = s;
    }
    __syncthreads();
    for (uint32_t t = 0; t < tiles; ++t) {
      const uint32_t d0 = (first + t) * items, n = min(total, d0 + items) - d0;
      const uint32_t a0 = split[t], ta = split[t + 1] - a0, b0 = d0 - a0;
      // The tile's inputs, A's part then B's: every load in flight before the stores.
      // v then holds this thread's merged outputs.
      Key v[Outputs];
#pragma unroll
      for (uint32_t u = 0; u < kTileMergeItems; ++u) {
        const uint32_t j = threadIdx.x + u * blockDim.x;
        if (j < n) v[u] = j < ta ? a[a0 + j] : b[b0 + j - ta];
      }
#pragma unroll
      for (uint32_t u = 0; u < kTileMergeItems; ++u) {
        const uint32_t j = threadIdx.x + u * blockDim.x;
        if (j < n) tile[j] = v[u];
      }
      __syncthreads();
      // This thread's outputs [k0, k0 + count) of the tile, merged from shared memory
      // (none past the tile's n / Outputs threads: with Outputs above the default,
      // the threads past the tile's first share skip the search).
      const uint32_t k0 = min(n, threadIdx.x * Outputs), count = min(n, k0 + Outputs) - k0;
      if (Outputs == kTileMergeItems || count > 0) {
        const Key* ta_ptr = tile;
        const Key* tb_ptr = tile + ta;
        const uint32_t ai = merge_path::diagonal_split_t<uint32_t>(ta_ptr, ta, tb_ptr, n - ta, k0);
        merge_path::serial_merge_emit<Outputs>(ta_ptr, ta, ai, tb_ptr, n - ta, k0 - ai, count, merge_path::Less{},
                                               [&](uint32_t k, const Key& key, bool, uint32_t) { v[k] = key; });
      }
      __syncthreads();
#pragma unroll
      for (uint32_t u = 0; u < Outputs; ++u)
        if (u < count) tile[tile_slot<Outputs>(k0 + u)] = v[u];
      __syncthreads();
#pragma unroll
      for (uint32_t u = 0; u < kTileMergeItems; ++u) {
        const uint32_t j = threadIdx.x + u * blockDim.x;
        if (j < n) out[d0 + j] = tile[tile_slot<Outputs>(j)];
      }
      __syncthreads();
    }
  }
}

}  // namespace gpulin::cuda_exec::block
