// The GPU context with warp actors (cuda/cuda_context.cuh, WarpScope): actor-uniform
// word operations performed once per warp (not once per lane) with the result seen
// by every lane, 64-bit CAS races with one winner per slot, fetch_or / fetch_and,
// and per-lane loads. Label `gpu`; skips without a device.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cuda/cuda_context.cuh"
#include "tests/gpu/have_gpu.h"

namespace gpulin {
namespace {

constexpr uint32_t kSlots = 64;
constexpr uint64_t kEmpty = ~uint64_t{0};

struct Out {
  uint32_t adds_seen_disagree;   // lanes of a warp that saw different fetch_add results
  uint32_t cas_winners[kSlots];  // warps whose CAS on the slot returned EMPTY
  uint32_t loads_wrong;          // load_lanes words that are not the lane's value
};

__global__ void warp_words_kernel(uint32_t* counter, uint64_t* slots, uint32_t* bits, const uint32_t* words, Out* out) {
  cuda_exec::CudaContext<cuda_exec::WarpScope> x{cuda_exec::WarpScope{}};
  const uint32_t w = x.actor();
  const uint32_t seen = x.fetch_add(counter, 1);
  if (__shfl_sync(0xffffffffu, seen, 0) != seen) atomicAdd(&out->adds_seen_disagree, 1u);
  const uint32_t slot = w % kSlots;
  const uint64_t old = x.cas(&slots[slot], kEmpty, (uint64_t{w} << 32) | w);
  if (old == kEmpty && (threadIdx.x & 31) == 0) atomicAdd(&out->cas_winners[slot], 1u);
  const uint32_t bit = 1u << (w % 32);
  x.fetch_or(&bits[w / 32], bit);
  x.fetch_and(&bits[w / 32], ~bit);
  cuda_exec::CudaContext<cuda_exec::WarpScope>::Regs<uint32_t, 1> r;
  x.load_lanes(r, [&](uint32_t l) { return const_cast<uint32_t*>(words) + l; });
  if (r.v[0] != 1000 + (threadIdx.x & 31)) atomicAdd(&out->loads_wrong, 1u);
}

TEST(WarpScope, WordOperationsRunOncePerWarp) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  const uint32_t blocks = 512, threads = 256, warps = blocks * threads / 32;
  uint32_t *counter, *bits, *words;
  uint64_t* slots;
  Out* out;
  ASSERT_EQ(cudaMalloc(&counter, 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&bits, warps / 8), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&words, 128), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&slots, kSlots * 8), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&out, sizeof(Out)), cudaSuccess);
  std::vector<uint32_t> w(32);
  for (uint32_t l = 0; l < 32; ++l) w[l] = 1000 + l;
  cudaMemcpy(words, w.data(), 128, cudaMemcpyHostToDevice);
  cudaMemset(counter, 0, 4);
  cudaMemset(bits, 0, warps / 8);
  cudaMemset(slots, 0xff, kSlots * 8);
  cudaMemset(out, 0, sizeof(Out));
  warp_words_kernel<<<blocks, threads>>>(counter, slots, bits, words, out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  uint32_t c = 0;
  Out o{};
  std::vector<uint32_t> b(warps / 32);
  cudaMemcpy(&c, counter, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&o, out, sizeof(Out), cudaMemcpyDeviceToHost);
  cudaMemcpy(b.data(), bits, warps / 8, cudaMemcpyDeviceToHost);
  EXPECT_EQ(c, warps) << "one fetch_add per warp";
  EXPECT_EQ(o.adds_seen_disagree, 0u);
  for (uint32_t s = 0; s < kSlots; ++s) EXPECT_EQ(o.cas_winners[s], 1u) << "slot " << s;
  for (uint32_t v : b) EXPECT_EQ(v, 0u);
  EXPECT_EQ(o.loads_wrong, 0u);
  cudaFree(counter), cudaFree(bits), cudaFree(words), cudaFree(slots), cudaFree(out);
}

}  // namespace
}  // namespace gpulin
