// The lane collectives on the GPU (cuda/cuda_context.cuh, warp scope): first_value_above
// (structures/exec/lane_search.h, the same function the simulator test runs) on
// one warp per block, against a scan on the host. Label `gpu`; skips without a device.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cuda/cuda_context.cuh"
#include "structures/exec/lane_search.h"
#include "tests/gpu/have_gpu.h"

namespace gpulin {
namespace {

__global__ void first_above_kernel(const uint32_t* values, const uint32_t* bounds, uint32_t* out, uint32_t* masks) {
  cuda_exec::CudaContext<cuda_exec::WarpScope> x{cuda_exec::WarpScope{}};
  const uint32_t* v = values + blockIdx.x * 32;
  const uint32_t bound = bounds[blockIdx.x];
  const uint32_t mask = x.ballot([&](uint32_t l) { return v[l] > bound; });
  const uint32_t found = first_value_above(x, v, bound, 999u);
  if (threadIdx.x == 5) {  // any lane: every lane has the same answer
    out[blockIdx.x] = found;
    masks[blockIdx.x] = mask;
  }
}

TEST(LaneSearch, FirstValueAboveMatchesAScan) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  const uint32_t blocks = 4096;
  std::vector<uint32_t> values(blocks * 32), bounds(blocks);
  uint64_t rng = 777;
  for (uint32_t& v : values) v = static_cast<uint32_t>((rng = rng * 6364136223846793005ull + 1) >> 59);
  for (uint32_t b = 0; b < blocks; ++b) bounds[b] = b % 34;
  uint32_t *d_values, *d_bounds, *d_out, *d_masks;
  ASSERT_EQ(cudaMalloc(&d_values, values.size() * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_bounds, blocks * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_out, blocks * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_masks, blocks * 4), cudaSuccess);
  cudaMemcpy(d_values, values.data(), values.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_bounds, bounds.data(), blocks * 4, cudaMemcpyHostToDevice);
  first_above_kernel<<<blocks, 32>>>(d_values, d_bounds, d_out, d_masks);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<uint32_t> out(blocks), masks(blocks);
  cudaMemcpy(out.data(), d_out, blocks * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(masks.data(), d_masks, blocks * 4, cudaMemcpyDeviceToHost);
  for (uint32_t b = 0; b < blocks; ++b) {
    uint32_t want_mask = 0, want = 999;
    for (uint32_t l = 0; l < 32; ++l)
      if (values[b * 32 + l] > bounds[b]) want_mask |= 1u << l;
    for (uint32_t l = 0; l < 32 && want == 999; ++l)
      if (values[b * 32 + l] > bounds[b]) want = values[b * 32 + l];
    ASSERT_EQ(masks[b], want_mask) << "block " << b;
    ASSERT_EQ(out[b], want) << "block " << b;
  }
  cudaFree(d_values);
  cudaFree(d_bounds);
  cudaFree(d_out);
  cudaFree(d_masks);
}

}  // namespace
}  // namespace gpulin
