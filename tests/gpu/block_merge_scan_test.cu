// The merge scanned as it is made (cuda/block_merge_scan.cuh), as RESOLVE uses it:
// bucket_heap::merge_then_partition with DELETEDUPLICATES and the split at a
// threshold, on a block actor that fuses (CudaContext) and on one that merges into
// an array, then partitions it (the simulator's steps), both against the host's
// std::merge, DELETEDUPLICATES and split. Runs of one value far longer than a tile
// (the view's search past the tile's end), runs across every tile's edges, either
// side empty, blocks of 32 to 1024 threads, and a kernel's second call (the shared
// tile and scan words reused). Label `gpu`; skips without a device.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuda/cuda_context.cuh"
#include "structures/bucket_heap/dedup_split_reference.h"
#include "structures/bucket_heap/level_ops.h"
#include "tests/gpu/device_vectors.h"
#include "tests/gpu/have_gpu.h"

namespace gpulin {
namespace {

using MergeScanX = cuda_exec::CudaContext<cuda_exec::BlockScope>;
// The block actor without merge_scan_then: merge_then_partition's other way.
struct MergeThenScanX : MergeScanX {
  using MergeScanX::MergeScanX;
  template <class... A>
  __device__ void merge_scan_then(A&&...) = delete;
};
using bucket_heap::Element;
using MergeScanP = bucket_heap::Policy<bucket_heap::Variant::Fixed>;

// Twice in one launch (the second with a and b swapped: the same merge, as the
// inputs' elements are whole keys); counts[0..3] the two calls' parts.
template <class Ctx>
__global__ void __launch_bounds__(1024) merge_partition_twice(const Element* a, uint32_t na, const Element* b, uint32_t nb, uint64_t th,
                                      Element* merged, uint64_t* places, Element* out, uint32_t* counts) {
  __shared__ unsigned long long broadcast[2];
  Ctx x{cuda_exec::BlockScope(broadcast), {}, {}};
  const uint32_t n = na + nb;
  const bucket_heap::Parts p =
      bucket_heap::merge_then_partition(x, a, na, b, nb, merged, bucket_heap::DedupSplitWhere<MergeScanP>{th}, places,
                                        out, out + n);
  const bucket_heap::Parts q =
      bucket_heap::merge_then_partition(x, b, nb, a, na, merged, bucket_heap::DedupSplitWhere<MergeScanP>{th}, places,
                                        out + 2 * n, out + 3 * n);
  if (threadIdx.x == 0) {
    counts[0] = p.first;
    counts[1] = p.second;
    counts[2] = q.first;
    counts[3] = q.second;
  }
}

// A sorted side: values below `values`, random priorities, a DELETE now and then.
std::vector<Element> side(uint32_t n, uint32_t values, std::mt19937_64& rng) {
  std::vector<Element> v(n);
  for (auto& e : v)
    e = bucket_heap::make_element(static_cast<uint32_t>(rng() % values),
                                  rng() % 7 == 0 ? bucket_heap::kDel : static_cast<uint32_t>(rng() % 1000));
  std::sort(v.begin(), v.end());
  return v;
}

template <class Ctx>
void check_both_calls(const std::vector<Element>& a, const std::vector<Element>& b, uint64_t th, uint32_t threads) {
  const auto na = static_cast<uint32_t>(a.size()), nb = static_cast<uint32_t>(b.size()), n = na + nb;
  std::vector<Element> merged(n), want_stay, want_down;
  std::merge(a.begin(), a.end(), b.begin(), b.end(), merged.begin());
  bucket_heap::dedup_split_reference(merged, th, want_stay, want_down);
  Element *da = test::upload(a), *db = test::upload(b), *dm = test::upload(std::vector<Element>(n));
  Element* out = test::upload(std::vector<Element>(4 * uint64_t{n}, bucket_heap::kNoElement));
  uint64_t* places = test::upload(std::vector<uint64_t>(n));
  uint32_t* counts = test::upload(std::vector<uint32_t>(4));
  merge_partition_twice<Ctx><<<1, threads>>>(da, na, db, nb, th, dm, places, out, counts);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess) << "launch";
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<uint32_t> c = test::download(counts, 4);
  const std::vector<Element> got = test::download(out, 4 * uint64_t{n});
  for (uint32_t call = 0; call < 2; ++call) {
    SCOPED_TRACE(call == 0 ? "first call" : "second call, sides swapped");
    ASSERT_EQ(c[2 * call], want_stay.size());
    ASSERT_EQ(c[2 * call + 1], want_down.size());
    const auto stay = got.begin() + 2 * call * n, down = stay + n;
    EXPECT_TRUE(std::equal(want_stay.begin(), want_stay.end(), stay));
    EXPECT_TRUE(std::equal(want_down.begin(), want_down.end(), down));
    EXPECT_TRUE(std::all_of(stay + want_stay.size(), down, [](Element e) { return e == bucket_heap::kNoElement; }))
        << "written past the first part";
  }
  for (void* p : {static_cast<void*>(da), static_cast<void*>(db), static_cast<void*>(dm), static_cast<void*>(out),
                  static_cast<void*>(places), static_cast<void*>(counts)})
    cudaFree(p);
}

TEST(BlockMergeScan, PartitionsTheMergeAsTheHostDoesBothWays) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(11);
  const std::pair<uint32_t, uint32_t> sizes[] = {{0, 0}, {0, 5}, {7, 0}, {1, 1}, {1000, 3}, {3000, 20000}, {4096, 4096},
                                                  {30000, 30000}};
  for (uint32_t threads : {32u, 96u, 1024u})
    for (auto [na, nb] : sizes)
      for (uint32_t values : {3u, 300u, 1u << 30}) {  // runs of thousands, runs across tiles, nearly none
        SCOPED_TRACE(std::to_string(threads) + " threads, " + std::to_string(na) + " + " + std::to_string(nb) +
                     ", values below " + std::to_string(values));
        const std::vector<Element> a = side(na, values, rng), b = side(nb, values, rng);
        // About half the survivors' priorities past th.
        const uint64_t th = bucket_heap::rank_key(bucket_heap::make_element(values / 2, 500));
        {
          SCOPED_TRACE("fused (merge_scan_then)");
          check_both_calls<MergeScanX>(a, b, th, threads);
        }
        {
          SCOPED_TRACE("merged, then partitioned");
          check_both_calls<MergeThenScanX>(a, b, th, threads);
        }
      }
}

}  // namespace
}  // namespace gpulin
