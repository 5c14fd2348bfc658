// The GPU context's bounded spin (cuda/cuda_context.cuh): a wait that ends is
// untouched by the bound; a wait nobody ends, with a watchdog (cuda/watchdog.h),
// stops the run: the kernel ends normally, the stopping block and the blocks that
// were waiting are recorded; without one it traps with a message instead of
// hanging the GPU. Label `gpu`; skips without a device. A trap leaves the process's
// CUDA context unusable, so the trapping test comes last (ctest runs each test in
// its own process anyway).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/cuda_context.cuh"
#include "cuda/watchdog_host.h"
#include "tests/gpu/have_gpu.h"

namespace gpulin {
namespace {

// Block 0 waits for the word to change; block 1 (when `release`) changes it after
// a pause, through the same context.
__global__ void wait_for_word(uint32_t* word, cuda_exec::WatchdogRef wd, bool release) {
  __shared__ unsigned long long broadcast[2];
  cuda_exec::CudaContext<cuda_exec::BlockScope> x(cuda_exec::BlockScope(broadcast), {}, wd);
  if (blockIdx.x == 0) {
    x.wait_while_equals(word, 0u);
  } else if (release) {
    for (int i = 0; i < 100; ++i) __nanosleep(1000);
    x.store(word, 1u);
  }
}

TEST(SpinBound, AWaitThatEndsIsUnaffected) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  uint32_t* word = nullptr;
  ASSERT_EQ(cudaMalloc(&word, sizeof(uint32_t)), cudaSuccess);
  ASSERT_EQ(cudaMemset(word, 0, sizeof(uint32_t)), cudaSuccess);
  wait_for_word<<<2, 64>>>(word, cuda_exec::WatchdogRef{}, true);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaFree(word);
}

// Blocks 0..7 wait on a word nobody changes; blocks 8..15 wait for block 0's
// "release", which never comes either (they wait on a second word). The first to
// pass the bound stops the run, every other block leaves its wait, the kernel ends.
__global__ void all_wait(uint32_t* words, cuda_exec::WatchdogRef wd, uint32_t* after) {
  __shared__ unsigned long long broadcast[2];
  cuda_exec::CudaContext<cuda_exec::BlockScope> x(cuda_exec::BlockScope(broadcast), {}, wd);
  x.wait_while_equals(words + (blockIdx.x < 8 ? 0 : 1), 0u);
  if (threadIdx.x == 0) atomicAdd(after, 1u);  // never reached: the wait leaves by exiting
}

TEST(SpinBound, WithAWatchdogTheRunStopsAndEveryBlockDrains) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  uint32_t* words = nullptr;
  ASSERT_EQ(cudaMalloc(&words, 3 * sizeof(uint32_t)), cudaSuccess);
  ASSERT_EQ(cudaMemset(words, 0, 3 * sizeof(uint32_t)), cudaSuccess);
  const cuda_exec::DeviceWatchdog wd(16, 2000);
  all_wait<<<16, 128>>>(words, wd.ref(), words + 2);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << "the stopped run must end normally, not trap";
  uint32_t after = 1;
  cudaMemcpy(&after, words + 2, 4, cudaMemcpyDeviceToHost);
  EXPECT_EQ(after, 0u) << "a block went on past a wait the watchdog stopped";
  const cuda_exec::WatchdogReport r = wd.read();
  ASSERT_TRUE(r.stopped);
  EXPECT_LT(r.stopped_by, 16u);
  ASSERT_EQ(r.waits.size(), 16u) << "every block records where it waited";
  std::vector<uint32_t> seen(16, 0);
  for (const cuda_exec::WatchdogWait& w : r.waits) {
    ++seen[w.actor];
    EXPECT_EQ(w.word, reinterpret_cast<uint64_t>(words + (w.actor < 8 ? 0 : 1)));
    EXPECT_EQ(w.seen, 0u);
    EXPECT_TRUE(w.why == cuda_exec::kStopSpinBound || w.why == cuda_exec::kStopWasWaiting);
  }
  for (uint32_t b = 0; b < 16; ++b) EXPECT_EQ(seen[b], 1u) << "block " << b;
  const std::string text = cuda_exec::describe(r, [&](uint64_t a) {
    return a == reinterpret_cast<uint64_t>(words) ? std::string("word A") : std::string("word B");
  });
  std::printf("%s\n", text.c_str());
  EXPECT_NE(text.find("past the spin bound of 2000 re-reads"), std::string::npos) << text;
  EXPECT_NE(text.find("15 other blocks were waiting"), std::string::npos) << text;
  cudaFree(words);
}

TEST(SpinBound, AWaitNobodyEndsTrapsInsteadOfHanging) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  uint32_t* word = nullptr;
  ASSERT_EQ(cudaMalloc(&word, sizeof(uint32_t)), cudaSuccess);
  ASSERT_EQ(cudaMemset(word, 0, sizeof(uint32_t)), cudaSuccess);
  cuda_exec::WatchdogRef no_watchdog;
  no_watchdog.spin_bound = 1000;  // a small bound: about a millisecond
  wait_for_word<<<2, 64>>>(word, no_watchdog, false);
  const cudaError_t e = cudaDeviceSynchronize();
  EXPECT_NE(e, cudaSuccess) << "the kernel returned although nothing ended its wait";
  std::printf("trapped as expected: %s\n", cudaGetErrorString(e));
}

}  // namespace
}  // namespace gpulin
