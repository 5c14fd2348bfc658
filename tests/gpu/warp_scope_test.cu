// The GPU context with warp actors (cuda/cuda_context.cuh, WarpScope): actor-uniform
// word operations performed once per warp (not once per lane) with the result seen
// by every lane, 64-bit CAS races with one winner per slot, fetch_or / fetch_and,
// and per-lane loads; tiles of 16 and 8 lanes as actors of their own (TileScope).
// Label `gpu`; skips without a device.
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

// Tiles of 16 and 8 lanes (TileScope<G>): each tile is an actor of its own. Its
// fetch_add runs once a tile; its ballot and shuffle see its own lanes only,
// numbered from 0, even while the tiles of a warp diverge; load_lane_words reads
// each lane's pairs whole. `wrong` counts every lane that saw otherwise.
template <uint32_t G>
__global__ void tile_kernel(uint32_t* counter, const uint32_t* words, uint32_t* wrong) {
  using X = cuda_exec::CudaContext<cuda_exec::TileScope<G>>;
  X x{cuda_exec::TileScope<G>{}};
  const uint32_t lane = threadIdx.x & (G - 1);
  const uint32_t tile = (blockIdx.x * blockDim.x + threadIdx.x) / G;
  uint32_t bad = 0;
  bad += x.actor() != tile;
  const uint32_t seen = x.fetch_add(counter, 1);
  bad += x.shuffle([&](uint32_t) { return seen; }, G - 1) != seen;
  // Tiles diverge: odd tiles take a longer path first.
  if (tile & 1) bad += x.ballot([](uint32_t) { return true; }) != (G == 32 ? ~0u : (1u << G) - 1);
  bad += x.ballot([](uint32_t l) { return (l & 1) != 0; }) != (G == 16 ? 0xAAAAu : 0xAAu);
  bad += x.shuffle([&](uint32_t l) { return tile * 100 + l; }, 3) != tile * 100 + 3;
  typename X::template Regs<uint32_t, 16 / G * 2> r;
  x.template load_lane_words<16 / G * 2>(r, [&](uint32_t l) { return const_cast<uint32_t*>(words) + (32 / G) * l; });
  for (uint32_t j = 0; j < 32 / G; ++j) bad += r.v[j] != 1000 + (32 / G) * lane + j;
  if (bad) atomicAdd(wrong, bad);
}

template <uint32_t G>
void run_tiles() {
  const uint32_t blocks = 64, threads = 256, tiles = blocks * threads / G;
  uint32_t *counter, *words, *wrong;
  ASSERT_EQ(cudaMalloc(&counter, 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&words, 128), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&wrong, 4), cudaSuccess);
  std::vector<uint32_t> w(32);
  for (uint32_t l = 0; l < 32; ++l) w[l] = 1000 + l;
  cudaMemcpy(words, w.data(), 128, cudaMemcpyHostToDevice);
  cudaMemset(counter, 0, 4);
  cudaMemset(wrong, 0, 4);
  tile_kernel<G><<<blocks, threads>>>(counter, words, wrong);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  uint32_t c = 0, bad = 0;
  cudaMemcpy(&c, counter, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&bad, wrong, 4, cudaMemcpyDeviceToHost);
  EXPECT_EQ(c, tiles) << "one fetch_add per tile of " << G;
  EXPECT_EQ(bad, 0u) << "tiles of " << G;
  cudaFree(counter), cudaFree(words), cudaFree(wrong);
}

TEST(TileScope, EachTileIsAnActorWithItsOwnLanes) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  run_tiles<16>();
  run_tiles<8>();
}

}  // namespace
}  // namespace gpulin
