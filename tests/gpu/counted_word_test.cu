// The GPU context's accesses to a counted lock word (structures/exec/counted_word.h,
// cuda/cuda_context.cuh): many actors take one lock in turn, each by cas_until or
// by a try-lock loop (the single CAS), and end their hold by a counted release or
// by release_pair with the counted word first or second. Every hold must get its
// own number from the acquire (0, 1, 2, ... each once), and the word must end
// AVAIL with the count of all holds, though each CAS guesses the count it expects.
// Label `gpu`; skips without a device.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cuda/cuda_context.cuh"
#include "tests/gpu/have_gpu.h"

namespace gpulin {
namespace {

constexpr uint32_t kAvail = 0, kHeld = exec::kCountedHeld;
constexpr uint32_t kHoldsEach = 40;
constexpr uint32_t kWarpsPerBlock = 8;

// Actor a takes `lock` kHoldsEach times. In each hold it marks the hold's number
// in numbers[] and holds its own plain word too (own[a], taken from AVAIL), so
// that the release_pair forms have a second word to release.
template <class Scope>
__device__ void take_in_turn(Scope scope, uint32_t a, uint32_t* lock, uint32_t* own, uint32_t* numbers,
                             uint32_t* wrong) {
  cuda_exec::CudaContext<Scope> x{scope};
  uint32_t bad = 0;
  for (uint32_t i = 0; i < kHoldsEach; ++i) {
    uint32_t old = 0;
    if ((a + i) % 2 == 0) {
      old = x.cas_until(lock, kAvail, kHeld, [](uint32_t o) { return exec::counted_state(o) == kAvail; },
                        exec::counted, exec::acquire);
    } else {
      for (;;) {  // a try-lock loop: the single CAS, its first guess no count at all
        old = x.cas(lock, kAvail, kHeld, exec::counted, exec::acquire);
        if (exec::counted_state(old) == kAvail) break;
        x.wait_while_equals(lock, old);
      }
    }
    const uint32_t number = exec::counted_holds(old);
    // Only the holder touches its own slot, and the lock orders the holds: plain
    // increments (an atomic would hide a hold numbered twice as well).
    if (x.leader()) numbers[number] += 1;
    if (x.cas(own + a, kAvail, kHeld, exec::acquire) != kAvail) ++bad;
    switch (i % 3) {
      case 0:
        x.release(lock, kHeld, kAvail, exec::counted);
        x.release(own + a, kHeld, kAvail);
        break;
      case 1:
        x.release_pair(lock, own + a, kHeld, kAvail, exec::first_counted);
        break;
      default:
        x.release_pair(own + a, lock, kHeld, kAvail, exec::second_counted);
    }
  }
  if (bad && x.leader()) atomicAdd(wrong, bad);
}

__global__ void block_kernel(uint32_t* lock, uint32_t* own, uint32_t* numbers, uint32_t* wrong) {
  __shared__ unsigned long long broadcast[2];
  take_in_turn(cuda_exec::BlockScope(broadcast), blockIdx.x, lock, own, numbers, wrong);
}

__global__ void warp_kernel(uint32_t* lock, uint32_t* own, uint32_t* numbers, uint32_t* wrong) {
  const cuda_exec::WarpScope scope{};
  take_in_turn(scope, scope.actor(), lock, own, numbers, wrong);
}

struct Outcome {
  uint32_t lock = 0, wrong = 0;
  std::vector<uint32_t> numbers, own;
};

template <class Launch>
Outcome run(uint32_t actors, uint32_t start_count, Launch&& launch) {
  const uint32_t holds = actors * kHoldsEach;
  uint32_t *lock, *own, *numbers, *wrong;
  EXPECT_EQ(cudaMalloc(&lock, 4), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&own, 4 * actors), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&numbers, 4 * (start_count + holds)), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&wrong, 4), cudaSuccess);
  const uint32_t start = start_count * exec::kCountedOneHold | kAvail;
  cudaMemcpy(lock, &start, 4, cudaMemcpyHostToDevice);
  cudaMemset(own, 0, 4 * actors);
  cudaMemset(numbers, 0, 4 * (start_count + holds));
  cudaMemset(wrong, 0, 4);
  launch(lock, own, numbers, wrong);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  Outcome o;
  o.numbers.resize(start_count + holds);
  o.own.resize(actors);
  cudaMemcpy(&o.lock, lock, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&o.wrong, wrong, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(o.numbers.data(), numbers, 4 * o.numbers.size(), cudaMemcpyDeviceToHost);
  cudaMemcpy(o.own.data(), own, 4 * actors, cudaMemcpyDeviceToHost);
  cudaFree(lock), cudaFree(own), cudaFree(numbers), cudaFree(wrong);
  return o;
}

void expect_every_hold_numbered_once(const Outcome& o, uint32_t actors, uint32_t start_count) {
  const uint32_t holds = actors * kHoldsEach;
  EXPECT_EQ(o.wrong, 0u);
  EXPECT_EQ(exec::counted_state(o.lock), kAvail);
  EXPECT_EQ(exec::counted_holds(o.lock), start_count + holds);
  uint32_t off = 0;
  for (uint32_t i = 0; i < o.numbers.size(); ++i)
    off += o.numbers[i] != (i < start_count ? 0u : 1u);
  EXPECT_EQ(off, 0u) << "hold numbers not each taken once";
  for (uint32_t v : o.own) EXPECT_EQ(v, kAvail);
}

TEST(CountedWord, BlockActorsNumberEveryHoldOnceAndLeaveTheCount) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  const uint32_t blocks = 264;
  for (const uint32_t start : {0u, 1000u}) {
    SCOPED_TRACE("count at the start " + std::to_string(start));
    const Outcome o = run(blocks, start, [&](uint32_t* l, uint32_t* own, uint32_t* n, uint32_t* w) {
      block_kernel<<<blocks, 256>>>(l, own, n, w);
    });
    expect_every_hold_numbered_once(o, blocks, start);
  }
}

TEST(CountedWord, WarpActorsNumberEveryHoldOnceAndLeaveTheCount) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  const uint32_t blocks = 66, warps = blocks * kWarpsPerBlock;
  const Outcome o = run(warps, 7, [&](uint32_t* l, uint32_t* own, uint32_t* n, uint32_t* w) {
    warp_kernel<<<blocks, 32 * kWarpsPerBlock>>>(l, own, n, w);
  });
  expect_every_hold_numbered_once(o, warps, 7);
}

}  // namespace
}  // namespace gpulin
