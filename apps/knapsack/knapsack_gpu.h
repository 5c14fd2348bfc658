// The knapsack branch and bound on the GPU (apps/knapsack/gpu/knapsack_kernels.cu): the instance
// and a node pool uploaded, the fixed heap with 64-bit keys, a block an actor,
// optionally recorded, under the GPU watchdog. Plain C++ (cudart).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "apps/knapsack/instance.h"
#include "apps/knapsack/order.h"
#include "cuda/watchdog.h"
#include "histories/history.h"
#include "structures/gheap/config.h"

namespace gpulin::knapsack {

struct GpuKnapsackOptions {
  gheap::Flavor flavor = gheap::Flavor::TopDown;
  Order order = Order::Bound;  // the heap's key: the bound, or the profit (the paper's)
  uint32_t blocks = 64, threads = 256, k = 1024;
  uint32_t pool = 1u << 24;  // node slots (nodes alive at once)
  uint32_t gc_threshold = 0;  // garbage collection past this many nodes pending (0: none)
  bool record = false;
  uint32_t record_events = 1u << 18, record_keys = 1u << 20;  // per block
  uint64_t spin_bound = cuda_exec::kDefaultSpinBound;
};

struct GpuKnapsackResult {
  uint64_t best = 0, explored = 0, created = 0;
  uint64_t collected = 0, sweeps = 0;  // garbage collection: dominated nodes dropped, sweeps
  double seconds = 0;           // the kernel (GPU time)
  std::string stopped;          // the watchdog's report, when it stopped the run
  std::optional<History> history;  // with `record`
};

// Throws std::invalid_argument for options or instances it cannot run (total
// profit 2^31 or more), std::runtime_error when the GPU cannot (no device, no memory,
// a recorder overflow: its message gives the sizes needed).
GpuKnapsackResult knapsack_gpu(const Instance& in, const GpuKnapsackOptions& o);

}  // namespace gpulin::knapsack
