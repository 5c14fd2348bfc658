// The block partition through shared-memory tiles (cuda/block_tile_partition.cuh)
// against the host: a split by a threshold with both sides kept, a compaction
// with the others dropped, and the bucket heap's DELETEDUPLICATES (keeps_copy,
// which reads a value's neighbouring copies) on runs of copies longer than the
// halo, across tile boundaries: blocks of 32 to 1024 threads, empty to 140 000
// words, two partitions back to back (the tile reused). Label `gpu`; skips
// without a device.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuda/block_tile_partition.cuh"
#include "structures/bucket_heap/level_ops.h"
#include "tests/gpu/device_vectors.h"
#include "tests/gpu/have_gpu.h"

namespace gpulin {
namespace {

using bucket_heap::Element;
using HeapPolicy = bucket_heap::Policy<bucket_heap::Variant::Fixed>;

// Split by `th` (kept: at or below it), then compact the kept ones by their low bit.
__global__ void split_then_compact(const uint64_t* in, uint32_t n, uint64_t th, uint64_t* low, uint64_t* high,
                                   uint64_t* odd, uint32_t* counts) {
  const uint32_t nl = cuda_exec::block::tile_partition(
      in, n, [&](auto&& at, uint32_t i) { return at(i) <= th; }, low, high);
  const uint32_t no = cuda_exec::block::tile_partition(
      low, nl, [](auto&& at, uint32_t i) { return (at(i) & 1) != 0; }, odd, static_cast<uint64_t*>(nullptr));
  if (threadIdx.x == 0) counts[0] = nl, counts[1] = no;
}

__global__ void delete_duplicates(const Element* in, uint32_t n, bool last_level, Element* out, uint32_t* count) {
  const uint32_t c = cuda_exec::block::tile_partition(
      in, n, [&](auto&& at, uint32_t i) { return bucket_heap::keeps_copy<HeapPolicy>(at, i, n, last_level); }, out,
      static_cast<Element*>(nullptr));
  if (threadIdx.x == 0) *count = c;
}

using test::download;
using test::upload;

TEST(BlockTilePartition, SplitsAndCompactsAsTheHostDoes) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(11);
  for (uint32_t threads : {32u, 96u, 512u, 1024u})
    for (uint32_t n : {0u, 1u, 33u, 4096u, 4097u, 4129u, 45000u, 140000u}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, n = " + std::to_string(n));
      std::vector<uint64_t> in(n);
      for (auto& w : in) w = rng() % 1000;
      const uint64_t th = 400;
      std::vector<uint64_t> low, high, odd;
      for (uint64_t w : in) (w <= th ? low : high).push_back(w);
      for (uint64_t w : low)
        if (w & 1) odd.push_back(w);
      uint64_t *d_in = upload(in), *d_low = upload(std::vector<uint64_t>(n, 7)),
               *d_high = upload(std::vector<uint64_t>(n, 7)), *d_odd = upload(std::vector<uint64_t>(n, 7));
      uint32_t* d_counts = upload(std::vector<uint32_t>(2));
      split_then_compact<<<1, threads>>>(d_in, n, th, d_low, d_high, d_odd, d_counts);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      const auto counts = download(d_counts, 2);
      ASSERT_EQ(counts[0], low.size());
      ASSERT_EQ(counts[1], odd.size());
      EXPECT_EQ(download(d_low, low.size()), low);
      EXPECT_EQ(download(d_high, high.size()), high);
      EXPECT_EQ(download(d_odd, odd.size()), odd);
      for (void* p : {static_cast<void*>(d_in), static_cast<void*>(d_low), static_cast<void*>(d_high),
                      static_cast<void*>(d_odd), static_cast<void*>(d_counts)})
        cudaFree(p);
    }
}

// Runs of 1 to 300 copies of a value (kTileHalo is 32), some ending in a DELETE:
// a copy near a tile's end reads its run's end past the staged halo.
TEST(BlockTilePartition, DeletesDuplicatesAsTheFlagsPassDoes) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(13);
  for (uint32_t threads : {32u, 512u, 1024u})
    for (uint32_t target : {0u, 5u, 4100u, 60000u})
      for (bool last_level : {false, true}) {
        SCOPED_TRACE(std::to_string(threads) + " threads, about " + std::to_string(target) + " elements" +
                     (last_level ? ", last level" : ""));
        std::vector<Element> in;
        for (uint32_t v = 0; in.size() < target; ++v) {
          const uint32_t copies = rng() % 8 == 0 ? 1 + rng() % 300 : 1 + rng() % 3;
          std::vector<uint32_t> prios(copies);
          for (auto& p : prios) p = static_cast<uint32_t>(rng() % 100000);
          if (rng() % 4 == 0) prios.back() = bucket_heap::kDel;  // a DELETE sorts last among its value's copies
          std::sort(prios.begin(), prios.end());
          for (uint32_t p : prios) in.push_back(bucket_heap::make_element(v, p));
        }
        const auto n = static_cast<uint32_t>(in.size());
        std::vector<Element> want;
        auto at = [&](uint32_t j) { return in[j]; };
        for (uint32_t i = 0; i < n; ++i)
          if (bucket_heap::keeps_copy<HeapPolicy>(at, i, n, last_level)) want.push_back(in[i]);
        Element *d_in = upload(in), *d_out = upload(std::vector<Element>(n, 7));
        uint32_t* d_count = upload(std::vector<uint32_t>(1));
        delete_duplicates<<<1, threads>>>(d_in, n, last_level, d_out, d_count);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        ASSERT_EQ(download(d_count, 1)[0], want.size());
        EXPECT_EQ(download(d_out, want.size()), want);
        cudaFree(d_in), cudaFree(d_out), cudaFree(d_count);
      }
}

}  // namespace
}  // namespace gpulin
