// The block actors' collectives (cuda/block_collectives.cuh through CudaContext):
// exclusive_sum, exclusive_sum_of (64-bit values: the bucket heap's packed
// two-output counts), sum_of, min_of and kth_smallest against the host, for blocks of
// 32 to 1024 threads, n from 0 to many times the block, four shapes of keys,
// every k, and several collectives back to back (their shared words reused while
// slow threads may still read the last result); and exec::exclusive_sum_then's two
// ways (scan_then's one pass, and places then a move) compacting the same flags.
// Label `gpu`; skips without a device.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "cuda/cuda_context.cuh"
#include "structures/exec/exclusive_sum_then.h"
#include "tests/gpu/device_vectors.h"
#include "tests/gpu/have_gpu.h"

namespace gpulin {
namespace {

using X = cuda_exec::CudaContext<cuda_exec::BlockScope>;

struct Results {
  uint32_t total;
  uint64_t packed_total, sum, least;
};

// exclusive_sum_of's value of a flag: 0, 1 or 2^32 (both halves of the sum used).
__host__ __device__ uint64_t packed_value(uint32_t flag) { return flag == 0 ? 0 : flag == 1 ? 1 : uint64_t{1} << 32; }

// Every thread writes what it got; the host checks that all threads agree.
__global__ void collectives_kernel(const uint32_t* flags, uint32_t n, uint32_t* pos, const uint64_t* keys,
                                   const uint32_t* ks, uint32_t nk, uint64_t* kth, uint64_t* packed, Results* per_thread) {
  __shared__ unsigned long long broadcast[2];
  X x{cuda_exec::BlockScope(broadcast)};
  Results r;
  r.total = x.exclusive_sum(flags, n, pos);
  r.packed_total = x.exclusive_sum_of(n, [&](uint32_t i) { return packed_value(flags[i]); }, packed);
  r.sum = x.sum_of(n, [&](uint32_t i) { return keys[i]; });
  r.least = x.min_of(n, [&](uint32_t i) { return keys[i]; });
  for (uint32_t j = 0; j < nk; ++j) {
    kth[j * blockDim.x + threadIdx.x] = x.kth_smallest(n, ks[j], [&](uint32_t i) { return keys[i]; });
  }
  per_thread[threadIdx.x] = r;
}

// The block actor without scan_then: exclusive_sum_then's other way.
struct WithoutScanThen : X {
  using X::X;
  template <class... A>
  __device__ void scan_then(A&&...) = delete;
};

// Indices of the flagged elements (flag 1) compacted by exclusive_sum_then, 32-bit
// values; `seen[i]` gets the value handed to element i's emit, plus one (0: never
// emitted). total[threadIdx.x]: what each thread got back.
template <class Y>
__global__ void compact_kernel(const uint32_t* flags, uint32_t n, uint32_t* out, uint32_t* seen, uint64_t* places,
                               uint64_t* total) {
  __shared__ unsigned long long broadcast[2];
  Y y{cuda_exec::BlockScope(broadcast)};
  total[threadIdx.x] = exec::exclusive_sum_then(
      y, n, [&](uint32_t i) -> uint32_t { return flags[i] == 1 ? 1u : 0u; }, places,
      [&](uint32_t i, uint64_t before, uint64_t v) {
        seen[i] = static_cast<uint32_t>(v) + 1;
        if (v) out[before] = i;
      });
}

using test::download;
using test::upload;

TEST(BlockCollectives, MatchTheHost) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(11);
  // The key shapes kth_smallest's radix select takes different ways through: few
  // distinct high words with many duplicates (every pass down to the last bit);
  // distinct keys that differ in bit 63 (the digits start at the top, a bin of one
  // ends it early); a bucket heap level's rank keys (priority << 32 | value, the
  // priorities close together: the shared high bits skipped); and all keys equal.
  enum Shape { Duplicates, Distinct, RankKeys, AllEqual };
  auto key_of = [&](Shape shape) -> uint64_t {
    switch (shape) {
      case Duplicates: return (uint64_t{static_cast<uint32_t>(rng() % 7)} << 40) | (rng() % 5 == 0 ? 0xffffffffu : rng() % 50);
      case Distinct: return rng();
      case RankKeys: return (uint64_t{1000000u + static_cast<uint32_t>(rng() % 3000)} << 32) | (rng() % 30000);
      case AllEqual: return 0x123456789abcdefull;
    }
    return 0;
  };
  for (Shape shape : {Duplicates, Distinct, RankKeys, AllEqual})
    for (uint32_t threads : {32u, 96u, 256u, 1024u})
      for (uint32_t n : {0u, 1u, 31u, 1000u, 5000u, 70000u}) {
        SCOPED_TRACE("key shape " + std::to_string(shape) + ", " + std::to_string(threads) + " threads, n = " + std::to_string(n));
        std::vector<uint32_t> flags(n);
        std::vector<uint64_t> keys(n);
        for (uint32_t i = 0; i < n; ++i) {
          flags[i] = rng() % 3;
          keys[i] = key_of(shape);
        }
        std::vector<uint32_t> ks;
        for (uint32_t k : {1u, 2u, n / 2, n - 1, n})
          if (k >= 1 && k <= n) ks.push_back(k);
        for (int extra = 0; extra < 8 && n > 0; ++extra) ks.push_back(1 + rng() % n);
        uint32_t* d_flags = upload(flags);
        uint64_t* d_keys = upload(keys);
        uint32_t* d_ks = upload(ks);
        uint32_t* d_pos = upload(std::vector<uint32_t>(n));
        uint64_t* d_kth = upload(std::vector<uint64_t>(ks.size() * threads));
        uint64_t* d_packed = upload(std::vector<uint64_t>(n));
        Results* d_res = upload(std::vector<Results>(threads));
        collectives_kernel<<<1, threads>>>(d_flags, n, d_pos, d_keys, d_ks, static_cast<uint32_t>(ks.size()), d_kth,
                                           d_packed, d_res);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        std::vector<uint32_t> want_pos(n);
        std::exclusive_scan(flags.begin(), flags.end(), want_pos.begin(), 0u);
        EXPECT_EQ(download(d_pos, n), want_pos);
        std::vector<uint64_t> want_packed(n);
        uint64_t packed_total = 0;
        for (uint32_t i = 0; i < n; ++i) {
          want_packed[i] = packed_total;
          packed_total += packed_value(flags[i]);
        }
        EXPECT_EQ(download(d_packed, n), want_packed);
        const uint32_t total = std::accumulate(flags.begin(), flags.end(), 0u);
        const uint64_t sum = std::accumulate(keys.begin(), keys.end(), uint64_t{0});
        const uint64_t least = n ? *std::min_element(keys.begin(), keys.end()) : ~uint64_t{0};
        for (const Results& r : download(d_res, threads)) {
          ASSERT_EQ(r.total, total);
          ASSERT_EQ(r.packed_total, packed_total);
          ASSERT_EQ(r.sum, sum);
          ASSERT_EQ(r.least, least);
        }
        std::vector<uint64_t> sorted = keys;
        std::sort(sorted.begin(), sorted.end());
        const std::vector<uint64_t> kth = download(d_kth, ks.size() * threads);
        for (size_t j = 0; j < ks.size(); ++j)
          for (uint32_t t = 0; t < threads; ++t) ASSERT_EQ(kth[j * threads + t], sorted[ks[j] - 1]) << "k = " << ks[j] << ", thread " << t;
        for (void* p : {static_cast<void*>(d_flags), static_cast<void*>(d_keys), static_cast<void*>(d_ks),
                        static_cast<void*>(d_pos), static_cast<void*>(d_kth), static_cast<void*>(d_packed),
                        static_cast<void*>(d_res)})
          cudaFree(p);
      }
}

TEST(BlockCollectives, ExclusiveSumThenPlacesEveryElementOnceBothWays) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(12);
  for (uint32_t threads : {32u, 96u, 1024u})
    for (uint32_t n : {0u, 1u, 33u, 4096u, 4097u, 70000u}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, n = " + std::to_string(n));
      std::vector<uint32_t> flags(n);
      for (auto& f : flags) f = static_cast<uint32_t>(rng() % 3);
      std::vector<uint32_t> want_out, want_seen(n);
      for (uint32_t i = 0; i < n; ++i) {
        if (flags[i] == 1) want_out.push_back(i);
        want_seen[i] = (flags[i] == 1 ? 1u : 0u) + 1;
      }
      for (bool one_pass : {true, false}) {
        SCOPED_TRACE(one_pass ? "scan_then" : "places, then a move");
        uint32_t* d_flags = upload(flags);
        uint32_t* d_out = upload(std::vector<uint32_t>(n + 1, ~0u));
        uint32_t* d_seen = upload(std::vector<uint32_t>(n));
        uint64_t* d_places = upload(std::vector<uint64_t>(n));
        uint64_t* d_total = upload(std::vector<uint64_t>(threads));
        if (one_pass) compact_kernel<X><<<1, threads>>>(d_flags, n, d_out, d_seen, d_places, d_total);
        else compact_kernel<WithoutScanThen><<<1, threads>>>(d_flags, n, d_out, d_seen, d_places, d_total);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        std::vector<uint32_t> got = download(d_out, n + 1);
        EXPECT_EQ(got[want_out.size()], ~0u) << "written past the count";
        got.resize(want_out.size());
        EXPECT_EQ(got, want_out);
        EXPECT_EQ(download(d_seen, n), want_seen);
        for (uint64_t t : download(d_total, threads)) ASSERT_EQ(t, want_out.size());
        for (void* p : {static_cast<void*>(d_flags), static_cast<void*>(d_out), static_cast<void*>(d_seen),
                        static_cast<void*>(d_places), static_cast<void*>(d_total)})
          cudaFree(p);
      }
    }
}

}  // namespace
}  // namespace gpulin
