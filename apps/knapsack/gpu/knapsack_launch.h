// Host-side entry to the knapsack branch and bound's GPU kernel (knapsack_kernels.cu
// beside it): apps/knapsack/branch_and_bound.h on the CUDA context, one thread block
// an actor, over the fixed generalized heap with 64-bit keys. Plain C++ for host code.
// It lives with the application, not in cuda/, so that cuda/ never includes apps/.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "apps/knapsack/branch_and_bound.h"
#include "cuda/watchdog.h"
#include "histories/device_events.h"

namespace gpulin::knapsack {

// Shared memory a block needs for node capacity k (the heap's scratch and the
// batch's children).
inline size_t knapsack_shared_bytes(uint32_t k) {
  return (gheap::kScratchKeysPerK + 2) * size_t{k} * sizeof(uint64_t) + scratch_words(k) * sizeof(uint32_t);
}

// `blocks` x `threads` over heap memory `h` (device memory, empty), the view's words
// set as branch_and_bound.h says (pending 1, next_node 1, created 1, node 0 the root;
// a stash of `stash_cap` words per block). With
// `recorder` the heap's operations are recorded, with the root's holds alone
// (gheap::root_only_recorder; a recorder set otherwise is cudaErrorInvalidValue);
// `watchdog` as cuda/watchdog.h.
cudaError_t launch_knapsack(gheap::Flavor flavor, Order order, const gheap::HeapMemory<uint64_t>& h, const KnapsackView& v,
                            uint32_t blocks, uint32_t threads, cudaStream_t stream, const DeviceRecorderRef64* recorder,
                            const cuda_exec::WatchdogRef* watchdog);

}  // namespace gpulin::knapsack
