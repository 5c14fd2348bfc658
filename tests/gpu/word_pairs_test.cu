// The GPU context's paired word operations and releases (cuda/cuda_context.cuh:
// cas_pair, load_pair, load_block_and_guarded_pair, release, release_pair), in both
// scopes: lanes 0 and 1 perform the two accesses and every thread of the actor sees
// both results; a release leaves its value without a CAS. Label `gpu`; skips
// without a device.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cuda/cuda_context.cuh"
#include "tests/gpu/have_gpu.h"

namespace gpulin::word_pairs_test {
namespace {

constexpr uint32_t kBatch = 64;
constexpr uint32_t kWarpsPerBlock = 8;  // 256 threads

// Actor a owns words[2a], words[2a + 1] (both 1: "held" on entry) and reads the batch
// src[0, kBatch) = 100 + i. Every thread counts what it saw differ from the expected.
template <class Scope>
__device__ void pairs_body(Scope scope, uint32_t a, uint32_t* words, const uint32_t* src, uint32_t* dst,
                           uint32_t* wrong) {
  cuda_exec::CudaContext<Scope> x{scope};
  uint32_t* p = words + 2 * a;
  uint32_t* q = p + 1;
  uint32_t bad = 0;
  const exec::WordPair c = x.cas_pair(p, 0, 5, q, 1, 7, exec::acquire);  // the first fails, the second wins
  bad += c.first != 1 || c.second != 1;
  const exec::WordPair l = x.load_pair(p, q);
  bad += l.first != 1 || l.second != 7;
  x.release(q, 7, 1);
  x.release_pair(p, q, 1, 0);
  const exec::WordPair g = x.load_block_and_guarded_pair(dst, src, kBatch, p, q);
  bad += g.first != 0 || g.second != 0;
  for (uint32_t i = 0; i < kBatch; ++i) bad += dst[i] != 100 + i;
  if (bad) atomicAdd(wrong, bad);
}

__global__ void block_pairs_kernel(uint32_t* words, const uint32_t* src, uint32_t* wrong) {
  __shared__ unsigned long long broadcast[2];
  __shared__ uint32_t dst[kBatch];
  pairs_body(cuda_exec::BlockScope(broadcast), blockIdx.x, words, src, dst, wrong);
}

__global__ void warp_pairs_kernel(uint32_t* words, const uint32_t* src, uint32_t* wrong) {
  __shared__ uint32_t dst[kWarpsPerBlock][kBatch];
  const cuda_exec::WarpScope scope{};
  pairs_body(scope, scope.actor(), words, src, dst[threadIdx.x / 32], wrong);
}

// Runs one kernel over `actors` actors; returns the wrong sightings and the words.
template <class Launch>
uint32_t run_pairs(uint32_t actors, Launch&& launch, std::vector<uint32_t>& words_out) {
  uint32_t *words, *src, *wrong;
  EXPECT_EQ(cudaMalloc(&words, 8 * actors), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&src, 4 * kBatch), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&wrong, 4), cudaSuccess);
  std::vector<uint32_t> ones(2 * actors, 1), batch(kBatch);
  for (uint32_t i = 0; i < kBatch; ++i) batch[i] = 100 + i;
  cudaMemcpy(words, ones.data(), 8 * actors, cudaMemcpyHostToDevice);
  cudaMemcpy(src, batch.data(), 4 * kBatch, cudaMemcpyHostToDevice);
  cudaMemset(wrong, 0, 4);
  launch(words, src, wrong);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  uint32_t w = 0;
  words_out.resize(2 * actors);
  cudaMemcpy(&w, wrong, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(words_out.data(), words, 8 * actors, cudaMemcpyDeviceToHost);
  cudaFree(words), cudaFree(src), cudaFree(wrong);
  return w;
}

TEST(WordPairs, BlockActorsSeeBothResultsAndReleaseBothWords) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  const uint32_t blocks = 128;
  std::vector<uint32_t> words;
  const uint32_t wrong = run_pairs(blocks, [&](uint32_t* w, const uint32_t* s, uint32_t* bad) {
    block_pairs_kernel<<<blocks, 256>>>(w, s, bad);
  }, words);
  EXPECT_EQ(wrong, 0u);
  for (uint32_t v : words) EXPECT_EQ(v, 0u);
}

TEST(WordPairs, WarpActorsSeeBothResultsAndReleaseBothWords) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  const uint32_t blocks = 64, warps = blocks * kWarpsPerBlock;
  std::vector<uint32_t> words;
  const uint32_t wrong = run_pairs(warps, [&](uint32_t* w, const uint32_t* s, uint32_t* bad) {
    warp_pairs_kernel<<<blocks, 32 * kWarpsPerBlock>>>(w, s, bad);
  }, words);
  EXPECT_EQ(wrong, 0u);
  for (uint32_t v : words) EXPECT_EQ(v, 0u);
}

}  // namespace
}  // namespace gpulin::word_pairs_test
