#include "bench/sssp/handoff.h"

#include "common/cuda_support.h"
#include "cuda/cuda_context.cuh"
#include "structures/bucket_heap/schedule.h"

namespace gpulin::sssp {

namespace {

using X = cuda_exec::CudaContext<cuda_exec::BlockScope, false>;

// Block 0 signals k and waits for block 1's k; block 1 waits for block 0's k and
// signals it back. Each block's count on a line of its own.
__global__ void handoff_kernel(uint32_t* words, uint32_t trips) {
  __shared__ unsigned long long broadcast[2];
  X x{cuda_exec::BlockScope(broadcast), {}, {}};
  uint32_t* mine = words + 32 * blockIdx.x;
  uint32_t* theirs = words + 32 * (1 - blockIdx.x);
  for (uint32_t k = 1; k <= trips; ++k) {
    if (blockIdx.x == 1) bucket_heap::wait_until_at_least(x, theirs, k);
    x.store(mine, k);
    if (blockIdx.x == 0) bucket_heap::wait_until_at_least(x, theirs, k);
  }
}

}  // namespace

double handoff_seconds(uint32_t round_trips, uint32_t threads) {
  cuda_support::DeviceBuffer<uint32_t> words(64);
  words.fill_bytes(0);
  cuda_support::GpuTimer timer;
  timer.start();
  handoff_kernel<<<2, threads>>>(words.get(), round_trips);
  cuda_support::check(cudaGetLastError(), "hand-off kernel");
  timer.record_stop();
  return timer.stop("hand-off kernel") / (2.0 * round_trips);
}

}  // namespace gpulin::sssp
