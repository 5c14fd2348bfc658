// The block merge through shared-memory tiles (cuda/block_tile_merge.cuh) against
// std::merge: blocks of 32 to 1024 threads, either side empty, sides of very
// different lengths, more tiles than one round of splits finds (64), many equal
// keys across the sides, two merges back to back (the tile reused), every thread
// merging or half of them (tile_merge<8>); and the warp's
// 33-ary diagonal search against merge path's binary one at every diagonal. Also
// the block's exclusive sum in place (the bucket heap's compact passes it that
// way). Label `gpu`; skips without a device.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cuda/block_collectives.cuh"
#include "cuda/block_tile_merge.cuh"
#include "tests/gpu/device_vectors.h"
#include "tests/gpu/have_gpu.h"

namespace gpulin {
namespace {

template <uint32_t Outputs>
__global__ void tile_merge_twice(const uint64_t* a, uint32_t na, const uint64_t* b, uint32_t nb, uint64_t* out,
                                 uint64_t* again) {
  cuda_exec::block::tile_merge<Outputs>(a, na, b, nb, out);
  cuda_exec::block::tile_merge<Outputs>(b, nb, a, na, again);
}

__global__ void diagonal_splits(const uint32_t* a, uint32_t na, const uint32_t* b, uint32_t nb, uint32_t* warp_says,
                                uint32_t* binary_says) {
  const uint32_t warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  for (uint32_t d = warp; d <= na + nb; d += warps) {
    const uint32_t s = cuda_exec::block::warp_diagonal_split(a, na, b, nb, d);
    if ((threadIdx.x & 31) == 0) {
      warp_says[d] = s;
      binary_says[d] = merge_path::diagonal_split_t<uint32_t>(a, na, b, nb, d);
    }
  }
}

__global__ void scan_in_place(uint32_t* words, uint32_t n, uint32_t* total) {
  const uint32_t t = cuda_exec::block::exclusive_sum(words, n, words);
  if (threadIdx.x == 0) *total = t;
}

using test::download;
using test::upload;

TEST(BlockTileMerge, MatchesStdMerge) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(5);
  const std::pair<uint32_t, uint32_t> sizes[] = {{0, 0}, {0, 5}, {7, 0}, {1, 1}, {1000, 3}, {3, 5000},
                                                  {3000, 20000}, {4096, 4096}, {70000, 70000}};
  for (uint32_t threads : {32u, 96u, 512u, 1024u})
    for (auto [na, nb] : sizes)
      for (uint64_t spread : {uint64_t{50}, ~uint64_t{0}}) {  // many equal keys, or nearly none
        SCOPED_TRACE(std::to_string(threads) + " threads, " + std::to_string(na) + " + " + std::to_string(nb) +
                     (spread == 50 ? ", few distinct keys" : ", distinct keys"));
        std::vector<uint64_t> a(na), b(nb);
        for (auto& k : a) k = rng() % spread;
        for (auto& k : b) k = rng() % spread;
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        std::vector<uint64_t> want(na + nb);
        std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
        for (uint32_t outputs : {cuda_exec::block::kTileMergeItems, 8u}) {  // every thread merges, or half of them
          SCOPED_TRACE(std::to_string(outputs) + " outputs a merging thread");
          uint64_t *da = upload(a), *db = upload(b);
          uint64_t *out = upload(std::vector<uint64_t>(na + nb, 7)), *again = upload(std::vector<uint64_t>(na + nb, 7));
          if (outputs == 8) tile_merge_twice<8><<<1, threads>>>(da, na, db, nb, out, again);
          else tile_merge_twice<cuda_exec::block::kTileMergeItems><<<1, threads>>>(da, na, db, nb, out, again);
          ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
          EXPECT_EQ(download(out, na + nb), want);
          EXPECT_EQ(download(again, na + nb), want);
          for (void* p : {static_cast<void*>(da), static_cast<void*>(db), static_cast<void*>(out), static_cast<void*>(again)})
            cudaFree(p);
        }
      }
}

// Equal keys tell A's from B's only by where they land: the split at each diagonal
// is the stable merge's (A first), the same as the binary search's.
TEST(BlockTileMerge, TheWarpSearchSplitsEveryDiagonalAsMergePathDoes) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(9);
  for (auto [na, nb] : {std::pair<uint32_t, uint32_t>{0, 40}, {40, 0}, {33, 34}, {500, 7}, {2000, 3000}})
    for (uint32_t spread : {3u, 1000000u}) {
      SCOPED_TRACE(std::to_string(na) + " + " + std::to_string(nb) + ", keys below " + std::to_string(spread));
      std::vector<uint32_t> a(na), b(nb);
      for (auto& k : a) k = rng() % spread;
      for (auto& k : b) k = rng() % spread;
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      uint32_t *da = upload(a), *db = upload(b);
      uint32_t *w = upload(std::vector<uint32_t>(na + nb + 1)), *bin = upload(std::vector<uint32_t>(na + nb + 1));
      diagonal_splits<<<1, 256>>>(da, na, db, nb, w, bin);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      const auto ws = download(w, na + nb + 1), bs = download(bin, na + nb + 1);
      EXPECT_EQ(ws, bs);
      for (uint32_t d = 0; d <= na + nb; ++d) {  // the host's count of A among the first d of a stable merge
        uint32_t i = 0, j = 0;
        for (uint32_t k = 0; k < d; ++k) (j >= nb || (i < na && !(b[j] < a[i]))) ? ++i : ++j;
        ASSERT_EQ(ws[d], i) << "diagonal " << d;
      }
      for (void* p : {static_cast<void*>(da), static_cast<void*>(db), static_cast<void*>(w), static_cast<void*>(bin)})
        cudaFree(p);
    }
}

TEST(BlockTileMerge, TheExclusiveSumWorksInPlace) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(3);
  for (uint32_t threads : {32u, 96u, 1024u})
    for (uint32_t n : {0u, 1u, 127u, 128u, 4097u, 45000u}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, n = " + std::to_string(n));
      std::vector<uint32_t> words(n);
      for (auto& w : words) w = rng() % 4;
      std::vector<uint32_t> want(n);
      std::exclusive_scan(words.begin(), words.end(), want.begin(), 0u);
      uint32_t *d = upload(words), *total = upload(std::vector<uint32_t>(1));
      scan_in_place<<<1, threads>>>(d, n, total);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      EXPECT_EQ(download(d, n), want);
      EXPECT_EQ(download(total, 1)[0], std::accumulate(words.begin(), words.end(), 0u));
      cudaFree(d);
      cudaFree(total);
    }
}

}  // namespace
}  // namespace gpulin
