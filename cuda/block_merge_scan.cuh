// A merge whose output is scanned as it is made: each tile of tile_merge_each's
// output (cuda/block_tile_merge.cuh) goes through one tile of scan_then
// (cuda/block_collectives.cuh) while it is in shared memory. A partition of a
// merged array (the bucket heap's RESOLVE: MERGE, then DELETEDUPLICATES and the
// split, §2.2 Algorithm 1 lines 1-5) is then one pass over the inputs, with no
// merged array written to global memory and read back; each tile still takes the
// merge's barriers and then the scan's, one after the other (gpulin_bench_level_ops
// times it beside the merge followed by the partition).
//
// value(in, i) and emit(in, i, before, v) are handed `in`, the merged array as far
// as the pass can see it: in[j] is one load of shared memory for j in the tile and
// for the outputs just before and just after it (kept beside the tile); any other
// j (a run of equal keys past the tile's end, say) is found in a and b by a merge
// path search in global memory, correct and slow.
#pragma once

#include <cstdint>

#include "cuda/block_collectives.cuh"
#include "cuda/block_tile_merge.cuh"

namespace gpulin::cuda_exec::block {

// The output j of the stable merge, from a and b in global memory: a merge path
// search. Out of line: only a run of equal keys past a tile's end takes it.
template <class Key>
__device__ __noinline__ Key merged_at(const Key* a, uint32_t na, const Key* b, uint32_t nb, uint32_t j) {
  const uint32_t ai = merge_path::diagonal_split_t<uint32_t>(a, na, b, nb, j);
  return merged_at_split(a, na, b, nb, ai, j - ai);
}

template <class Key, uint32_t Outputs>
struct MergedView {
  MergedTile<Key, Outputs> t;
  const Key* a;
  uint32_t na;
  const Key* b;
  uint32_t nb;
  __device__ __forceinline__ Key operator[](uint32_t j) const {
    const uint32_t k = j + 1 - t.d0;  // the tile's edge(k), for k up to n + 1
    return k <= t.n + 1 ? t.edge(k) : merged_at(a, na, b, nb, j);
  }
};

// For each i < na + nb, with in the merged array (stable, A first on equal keys):
// emit(in, i, before, value(in, i)), `before` the sum of value over the outputs
// before i (T: uint32_t or uint64_t); returns the sum of all. Every thread of the
// block calls it; a barrier ends it.
template <class T, uint32_t Outputs = kTileMergeItems, class Key, class Value, class Emit>
__device__ T merge_scan_then(const Key* a, uint32_t na, const Key* b, uint32_t nb, Value&& value, Emit&& emit) {
  static_assert(kScanItems == kTileMergeItems, "a merged tile is one tile of the scan");
  T carried = 0;
  tile_merge_each<Outputs, true>(a, na, b, nb, [&](const MergedTile<Key, Outputs>& t) {
    const MergedView<Key, Outputs> in{t, a, na, b, nb};
    scan_tile<T, kScanItems>(
        t.d0, na + nb, [&](uint32_t i) { return value(in, i); }, [&](uint32_t i, T before, T v) { emit(in, i, before, v); },
        carried);
  });
  return carried;
}

}  // namespace gpulin::cuda_exec::block
