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

// A merged tile in shared memory: the outputs [d0, d0 + n) of the merge, with the
// output before it (d0 - 1) and the one after it (d0 + n) beside them, where there
// are such outputs: edge(k) is the output d0 - 1 + k for k <= n + 1, at(j) = edge(j + 1).
template <class Key, uint32_t Outputs>
struct MergedTile {
  const Key* ext;  // the tile's slots, one before its first
  uint32_t d0, n;
  __device__ __forceinline__ Key edge(uint32_t k) const {
    if constexpr (Outputs > kTileMergeItems) return ext[k == 0 ? 0 : 1 + tile_slot<Outputs>(k - 1)];
    else return ext[k];
  }
  __device__ __forceinline__ Key at(uint32_t j) const { return edge(j + 1); }
};

// The output at a merge's split (ai of A's, bi of B's before it): the smaller head,
// A's on equal keys. One of the two is left.
template <class Key>
__device__ __forceinline__ Key merged_at_split(const Key* a, uint32_t na, const Key* b, uint32_t nb, uint32_t ai,
                                               uint32_t bi) {
  if (ai >= na) return b[bi];
  if (bi >= nb) return a[ai];
  const Key x = a[ai], y = b[bi];
  return y < x ? y : x;
}

// The tile's shared memory, one for every merge of Key and Outputs in the kernel
// (a static in a function of those alone: tile_merge_each is instantiated once for
// each on_tile, and a kernel with two such merges would otherwise hold two tiles).
// ext[0] is the slot of the output before the tile, ext[1 + tile_slot(j)] the
// tile's j-th, for j up to its n: the n-th the output after it.
template <class Key, uint32_t Outputs>
struct TileMergeShared {
  static constexpr uint32_t kPadding = Outputs > kTileMergeItems ? kTileMergeMaxTile / 32 : 0;
  Key ext[1 + kTileMergeMaxTile + kPadding + 1];
  uint32_t split[kTileMergeSplits + 1];  // A's count at each tile's start, and the last one's end
};
template <class Key, uint32_t Outputs>
__device__ __forceinline__ TileMergeShared<Key, Outputs>& tile_merge_shared() {
  __shared__ TileMergeShared<Key, Outputs> s;
  return s;
}

// a and b merged (stable, A first on equal keys) a tile at a time: each tile of
// kTileMergeItems outputs a thread handed to on_tile(MergedTile) by every thread
// once it is in shared memory, a barrier after. With Edges, the outputs just before
// and after the tile are there too (the one before kept from the tile before, the
// one after loaded beside the tile's inputs: one thread, two loads more); without,
// their slots are left as they are.
// Every thread of the block calls it; a barrier ends it.
template <uint32_t Outputs, bool Edges, class Key, class OnTile>
__device__ void tile_merge_each(const Key* a, uint32_t na, const Key* b, uint32_t nb, OnTile&& on_tile) {
  static_assert(sizeof(Key) <= 8, "a tile of 1024 threads' outputs in 32 KB (and its padding)");
  static_assert(Outputs >= kTileMergeItems && Outputs % kTileMergeItems == 0, "a thread merges at least its share");
  TileMergeShared<Key, Outputs>& s = tile_merge_shared<Key, Outputs>();
  Key* tile = s.ext + 1;
  uint32_t* split = s.split;
  Key last{};  // the tile before's last output (Edges)
  const uint32_t total = na + nb, items = blockDim.x * kTileMergeItems;
  for (uint32_t first = 0; first * items < total; first += kTileMergeSplits) {
    const uint32_t tiles = min(kTileMergeSplits, (total - first * items + items - 1) / items);
    for (uint32_t t = warp(); t <= tiles; t += warps()) {
      const uint32_t diag = min(total, (first + t) * items);
      const uint32_t at = warp_diagonal_split(a, na, b, nb, diag);
      if (lane() == 0) split[t] = at;
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
      Key next{};
      if (Edges && threadIdx.x == 0 && d0 + n < total) next = merged_at_split(a, na, b, nb, a0 + ta, d0 + n - a0 - ta);
#pragma unroll
      for (uint32_t u = 0; u < kTileMergeItems; ++u) {
        const uint32_t j = threadIdx.x + u * blockDim.x;
        if (j < n) tile[j] = v[u];
      }
      if (Edges && threadIdx.x == 0) {  // the merge's write-back below reaches neither slot
        s.ext[0] = last;
        tile[tile_slot<Outputs>(n)] = next;
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
      on_tile(MergedTile<Key, Outputs>{s.ext, d0, n});
      if (Edges) last = tile[tile_slot<Outputs>(n - 1)];
      __syncthreads();
    }
  }
}

// out[0, na + nb) = a and b merged (stable, A first on equal keys). Every thread of
// the block calls it; a barrier ends it. Key is 4 or 8 bytes; out meets neither input.
template <uint32_t Outputs = kTileMergeItems, class Key>
__device__ void tile_merge(const Key* a, uint32_t na, const Key* b, uint32_t nb, Key* out) {
  tile_merge_each<Outputs, false>(a, na, b, nb, [&](const MergedTile<Key, Outputs>& t) {
#pragma unroll
    for (uint32_t u = 0; u < kTileMergeItems; ++u) {
      const uint32_t j = threadIdx.x + u * blockDim.x;
      if (j < t.n) out[t.d0 + j] = t.at(j);
    }
  });
}

}  // namespace gpulin::cuda_exec::block
