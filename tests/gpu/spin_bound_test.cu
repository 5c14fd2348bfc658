// The GPU context's bounded spin (cuda/cuda_context.cuh): a wait that ends is
// untouched by the bound, and a wait nobody ends traps with a message instead of
// hanging the GPU. Label `gpu`; skips without a device. A trap leaves the process's
// CUDA context unusable, so the trapping test comes last (ctest runs each test in
// its own process anyway).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/cuda_context.cuh"

namespace gpulin {
namespace {

bool have_device() {
  int n = 0;
  const bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  (void)cudaGetLastError();
  return ok;
}

// Block 0 waits for the word to change; block 1 (when `release`) changes it after
// a pause, through the same context.
__global__ void wait_for_word(uint32_t* word, uint64_t bound, bool release) {
  __shared__ unsigned long long broadcast[2];
  cuda_exec::CudaContext<cuda_exec::BlockScope> x(cuda_exec::BlockScope(broadcast), {}, bound);
  if (blockIdx.x == 0) {
    x.wait_while_equals(word, 0u);
  } else if (release) {
    for (int i = 0; i < 100; ++i) __nanosleep(1000);
    x.store(word, 1u);
  }
}

TEST(SpinBound, AWaitThatEndsIsUnaffected) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device";
  uint32_t* word = nullptr;
  ASSERT_EQ(cudaMalloc(&word, sizeof(uint32_t)), cudaSuccess);
  ASSERT_EQ(cudaMemset(word, 0, sizeof(uint32_t)), cudaSuccess);
  wait_for_word<<<2, 64>>>(word, cuda_exec::CudaContext<cuda_exec::BlockScope>::kDefaultSpinBound, true);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaFree(word);
}

TEST(SpinBound, AWaitNobodyEndsTrapsInsteadOfHanging) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device";
  uint32_t* word = nullptr;
  ASSERT_EQ(cudaMalloc(&word, sizeof(uint32_t)), cudaSuccess);
  ASSERT_EQ(cudaMemset(word, 0, sizeof(uint32_t)), cudaSuccess);
  wait_for_word<<<2, 64>>>(word, 1000, false);  // a small bound: about a millisecond
  const cudaError_t e = cudaDeviceSynchronize();
  EXPECT_NE(e, cudaSuccess) << "the kernel returned although nothing ended its wait";
  std::printf("trapped as expected: %s\n", cudaGetErrorString(e));
}

}  // namespace
}  // namespace gpulin
