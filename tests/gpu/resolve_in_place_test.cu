// RESOLVE in place (structures/bucket_heap/resolve_in_place.h) on a block actor of
// the GPU (its survivors looked up by many threads at once, the down-going ones
// placed by the one-pass scan) against the host's merge, DELETEDUPLICATES and split:
// B of thousands of values, S of a few to a thousand copies of B's values at
// smaller or larger priorities, new values past the threshold and DELETEs of values
// B lacks, and in every other case a new value at or below it or a DELETE of one B
// holds (then nothing may be written). Blocks of 32 to 1024 threads. Label `gpu`;
// skips without a device.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuda/cuda_context.cuh"
#include "structures/bucket_heap/dedup_split_reference.h"
#include "structures/bucket_heap/resolve_in_place.h"
#include "tests/gpu/device_vectors.h"
#include "tests/gpu/have_gpu.h"

namespace gpulin {
namespace {

using InPlaceX = cuda_exec::CudaContext<cuda_exec::BlockScope>;
using InPlaceP = bucket_heap::Policy<bucket_heap::Variant::Fixed>;
using bucket_heap::Element;

__global__ void __launch_bounds__(1024) resolve_in_place_kernel(Element* bucket, uint32_t nb, const Element* s,
                                                                uint32_t ns, uint64_t th, uint64_t* looked,
                                                                Element* down, uint64_t* places, uint32_t* result) {
  __shared__ unsigned long long broadcast[2];
  InPlaceX x{cuda_exec::BlockScope(broadcast), {}, {}};
  uint32_t down_n = 0;
  const bool done = bucket_heap::resolve_in_place<InPlaceX, InPlaceP>(x, bucket, nb, s, ns, th, looked, down, places, &down_n);
  if (threadIdx.x == 0) {
    result[0] = done;
    result[1] = down_n;
  }
}

TEST(ResolveInPlaceGpu, IsTheMergeWhereItMovesNothing) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  using namespace bucket_heap;
  std::mt19937_64 rng(21);
  const uint64_t th = rank_key(make_element(0, 1000));
  int in_place = 0, merged = 0;
  for (uint32_t threads : {32u, 256u, 1024u})
    for (uint32_t ns : {1u, 7u, 100u, 1000u})
      for (int trial = 0; trial < 4; ++trial) {
        const bool may_move = trial == 3;
        SCOPED_TRACE(std::to_string(threads) + " threads, S of " + std::to_string(ns) + (may_move ? ", may move" : ""));
        std::vector<Element> b;
        for (uint32_t v = 0; v < 20000; ++v)
          if (rng() % 3 == 0) b.push_back(make_element(v, static_cast<uint32_t>(rng() % 1000)));
        std::vector<Element> s;
        for (uint32_t k = 0; k < ns; ++k) {
          const auto v = static_cast<uint32_t>(rng() % 20000);
          const bool held = std::binary_search(b.begin(), b.end(), make_element(v, 0),
                                               [](Element x, Element y) { return value_of(x) < value_of(y); });
          const uint64_t what = rng() % 3;
          if (what == 0 && (!held || may_move)) s.push_back(make_element(v, kDel));
          else if (held || what == 1) s.push_back(make_element(v, static_cast<uint32_t>(held ? rng() % 2000 : 1001 + rng() % 1000)));
          else if (may_move) s.push_back(make_element(v, static_cast<uint32_t>(rng() % 1000)));
        }
        std::sort(s.begin(), s.end());
        // The host: merge, DELETEDUPLICATES (above the last level), split at th.
        std::vector<Element> all(b.size() + s.size()), want_stay, want_down;
        std::merge(b.begin(), b.end(), s.begin(), s.end(), all.begin());
        dedup_split_reference(all, th, want_stay, want_down);
        const auto nb = static_cast<uint32_t>(b.size()), n = static_cast<uint32_t>(s.size());
        Element *d_b = test::upload(b), *d_s = test::upload(s), *d_down = test::upload(std::vector<Element>(n + 1, kNoElement));
        uint64_t *looked = test::upload(std::vector<uint64_t>(n + 1)), *places = test::upload(std::vector<uint64_t>(n + 1));
        uint32_t* result = test::upload(std::vector<uint32_t>(2, 7));
        resolve_in_place_kernel<<<1, threads>>>(d_b, nb, d_s, n, th, looked, d_down, places, result);
        ASSERT_EQ(cudaGetLastError(), cudaSuccess) << "launch";
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        const std::vector<uint32_t> r = test::download(result, 2);
        const std::vector<Element> got_b = test::download(d_b, nb);
        if (r[0] == 1) {
          ++in_place;
          EXPECT_EQ(got_b, want_stay);
          EXPECT_EQ(test::download(d_down, r[1]), want_down);
        } else {
          ++merged;
          EXPECT_EQ(got_b, b) << "written though not in place";
          const bool same_values = want_stay.size() == b.size() &&
                                   std::equal(b.begin(), b.end(), want_stay.begin(),
                                              [](Element x, Element y) { return value_of(x) == value_of(y); });
          EXPECT_FALSE(same_values) << "the merge moves nothing, yet not done in place";
        }
        for (void* p : {static_cast<void*>(d_b), static_cast<void*>(d_s), static_cast<void*>(d_down),
                        static_cast<void*>(looked), static_cast<void*>(places), static_cast<void*>(result)})
          cudaFree(p);
      }
  // Both ways taken: the moving trials fall back, the others are done in place.
  EXPECT_GT(in_place, 20);
  EXPECT_GT(merged, 0);
}

}  // namespace
}  // namespace gpulin
