// The SSSP frontier loop (apps/sssp/frontier.h) as a run: its options and results,
// the heap history's header, on the GPU (apps/sssp/frontier_gpu.cpp) and in the
// simulator (apps/sssp/sim/sssp_frontier_sim.cpp) alike.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/sssp/graph.h"
#include "cuda/watchdog.h"
#include "histories/pq_batch_header.h"
#include "structures/gheap/config.h"

namespace gpulin::sssp {

struct FrontierOptions {
  bool with_heap = true;                           // false: the plain loop (the baseline)
  gheap::Flavor flavor = gheap::Flavor::TopDown;   // the fixed heaps
  uint32_t threshold = 10000;                      // N, the paper's 10K
  uint32_t k = 1024;                               // the heap's node capacity
  uint32_t blocks = 0, threads = 256;              // GPU: 0 blocks = one per SM
  uint32_t actors = 4, lanes = 2;                  // simulator
  uint64_t max_points = 200'000'000;               // simulator: points before a livelock
  uint64_t heap_keys = 0;                          // keys the heap may hold (0: 8 n + 2 N, at least 64 k)
  bool record = false;
  uint32_t record_events = 1u << 20, record_keys = 1u << 22;  // GPU, per block
  uint64_t spin_bound = cuda_exec::kDefaultSpinBound;
};

struct FrontierResult {
  std::vector<uint32_t> dist;       // kUnreached where none
  uint64_t visited = 0;             // frontier vertices explored, over all rounds
  uint32_t rounds = 0, heap_rounds = 0;
  double seconds = 0;               // GPU: the kernel; simulator: wall time
  double heap_seconds = 0, compute_seconds = 0;  // GPU: the rounds' heap and advance parts
  uint32_t blocks = 0;              // GPU: the grid used
  std::string stopped;              // GPU: the watchdog's report when it stopped the run
  std::string outcome;              // simulator: "completed", or why not
  std::optional<History> history;   // with `record`
};

// "none" (the loop alone), "gheap-td" or "gheap-bu" (the fixed heaps) into the options;
// false for any other name.
inline bool set_frontier_heap(FrontierOptions& o, const std::string& heap) {
  if (heap != "none" && heap != "gheap-td" && heap != "gheap-bu") return false;
  o.with_heap = heap != "none";
  o.flavor = heap == "gheap-bu" ? gheap::Flavor::BottomUp : gheap::Flavor::TopDown;
  return true;
}

// Words of each frontier buffer: a round appends a vertex once (n), a heap round
// takes up to N rounded up to k.
inline uint64_t frontier_queue_words(const FrontierOptions& o, uint32_t n) {
  const uint64_t words = n + (uint64_t{o.threshold} + o.k - 1) / o.k * o.k;
  if (words >= (uint64_t{1} << 32)) throw std::invalid_argument("sssp frontier: the graph is too large");
  return words;
}

inline uint64_t frontier_heap_keys(const FrontierOptions& o, uint32_t n) {
  if (o.heap_keys) return o.heap_keys;
  // Stale entries (a vertex improved again before its entry came out) stay until
  // they are deleted: room for eight entries a vertex, by default.
  const uint64_t keys = 8 * uint64_t{n} + 2 * uint64_t{o.threshold};
  return keys < 64 * uint64_t{o.k} ? 64 * uint64_t{o.k} : keys;
}

// The distances must fit a key's upper half below 2^31 (keys below 2^63).
void check_frontier_graph(const Graph& g, uint32_t source);

inline Header frontier_history_header(const std::string& graph, uint32_t k, const std::string& lp_rule) {
  return pq_batch_header(k, lp_rule, {{"source", "gpulin sssp --method frontier"}, {"graph", graph}});
}

// The GPU run; throws std::invalid_argument for options it cannot run,
// std::runtime_error when the GPU cannot (no device, no memory, a recorder overflow).
FrontierResult frontier_gpu(const Graph& g, const std::string& graph_name, uint32_t source, const FrontierOptions& o);

}  // namespace gpulin::sssp
