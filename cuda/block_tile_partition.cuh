// A block's stable partition of an array of global memory in one pass of
// shared-memory tiles: the bucket heap's DELETEDUPLICATES and split by a threshold
// (§2.2, Lemma 2: flags, a prefix sum, a scatter), done tile by tile. Each tile's
// words, with the one before it and kTileHalo after it, are loaded coalesced into
// shared memory; each thread decides its words there, reading their neighbours
// (a value's copies sit side by side); the tile's flags are scanned in registers
// (scan_tile) and each word goes straight to its place. Done as three block-wide
// passes over global arrays (flags, their prefix sum, the scatter), the flags and
// positions make a round trip through global memory and each pass ends at a
// barrier after its last load (bench/results/sssp-h200.txt).
#pragma once

#include <cstdint>

#include "cuda/block_collectives.cuh"

namespace gpulin::cuda_exec::block {

// keep(at, i) says whether in[i] goes to `kept` (at(j) reads in[j], from the tile
// where it is staged, so keep may look at its neighbours); the kept words go to
// kept[0, count) in order, the others, when `dropped` is not null, to
// dropped[0, n - count) in order. Returns count. Every thread of the block calls
// it; a barrier ends it. T is 8 bytes or less; neither output meets `in`.
template <class T, class Keep>
__device__ uint32_t tile_partition(const T* in, uint32_t n, Keep&& keep, T* kept, T* dropped) {
  static_assert(sizeof(T) <= sizeof(uint64_t), "a tile of 1024 threads' words in tile_words()");
  // win[0]: in[base - 1]; win[1 + k]: in[base + k] for k below the tile and its halo.
  T* win = reinterpret_cast<T*>(tile_words());
  const uint32_t items = blockDim.x * kScanItems;
  uint32_t carried = 0;  // kept in the tiles before this one, the same in every thread
  for (uint32_t base = 0; base < n; base += items) {
    const uint32_t halo_after = min(kTileHalo, blockDim.x - 1);  // threads 1 .. halo_after load it
    const uint32_t end = min(n, base + items), hi = min(n, end + halo_after);
    // Every load in flight before the stores: the tile's words, then the halo (the
    // word before the tile by thread 0, those after it by threads 1 .. kTileHalo).
    T v[kScanItems];
#pragma unroll
    for (uint32_t u = 0; u < kScanItems; ++u) {
      const uint32_t i = base + tile_slot(u);
      if (i < end) v[u] = in[i];
    }
    const uint32_t h = threadIdx.x == 0 ? base - 1 : end + threadIdx.x - 1;
    const bool has_halo = threadIdx.x == 0 ? base > 0 : h < hi;
    T halo{};
    if (has_halo) halo = in[h];
#pragma unroll
    for (uint32_t u = 0; u < kScanItems; ++u) {
      const uint32_t i = base + tile_slot(u);
      if (i < end) win[1 + tile_slot(u)] = v[u];
    }
    if (has_halo) win[h + 1 - base] = halo;
    __syncthreads();
    auto at = [&](uint32_t j) -> T { return j + 1 >= base && j < hi ? win[j + 1 - base] : in[j]; };
    uint32_t pos[kScanItems], mine = 0;  // mine: bit u set when word u is kept
#pragma unroll
    for (uint32_t u = 0; u < kScanItems; ++u) {
      const uint32_t i = base + tile_slot(u);
      const bool k = i < end && keep(at, i);
      mine |= (k ? 1u : 0u) << u;
      pos[u] = k ? 1u : 0u;
    }
    // scan_tile's first barrier comes after every read of win, so the next tile
    // may overwrite it.
    const uint32_t total = scan_tile(pos);
#pragma unroll
    for (uint32_t u = 0; u < kScanItems; ++u) {
      const uint32_t i = base + tile_slot(u);
      if (i >= end) continue;
      if (mine >> u & 1u) kept[carried + pos[u]] = v[u];
      else if (dropped) dropped[i - carried - pos[u]] = v[u];
    }
    carried += total;
  }
  __syncthreads();
  return carried;
}

}  // namespace gpulin::cuda_exec::block
