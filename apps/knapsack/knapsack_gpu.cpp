#include "apps/knapsack/knapsack_gpu.h"

#include "apps/knapsack/history_header.h"

#include <array>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "apps/knapsack/gpu/knapsack_launch.h"
#include "common/cuda_support.h"
#include "cuda/watchdog_host.h"
#include "histories/device_recorder.h"
#include "structures/gheap/gpu/device_heap.h"

namespace gpulin::knapsack {

using cuda_support::check;
using cuda_support::DeviceBuffer;

GpuKnapsackResult knapsack_gpu(const Instance& in, const GpuKnapsackOptions& o) {
  const uint64_t total_profit = std::accumulate(in.profit.begin(), in.profit.end(), uint64_t{0});
  if (total_profit >= kKeyTop) throw std::invalid_argument("knapsack: total profit must be below 2^31");
  if (o.blocks < 1 || o.threads < 32 || o.threads % 32 || o.threads > 1024 || o.k < 1 || o.k > 1024 || o.pool < 1)
    throw std::invalid_argument("knapsack gpu: blocks >= 1, threads a multiple of 32 up to 1024, k 1 to 1024");
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) throw std::runtime_error("no CUDA device");
  std::vector<uint64_t> pp(in.size() + 1), pw(in.size() + 1);
  for (uint32_t i = 0; i < in.size(); ++i) pp[i + 1] = pp[i] + in.profit[i], pw[i + 1] = pw[i] + in.weight[i];
  DeviceBuffer<uint32_t> profit(in.profit), weight(in.weight), nodes(4 * uint64_t{o.pool}), words(kKnapsackWords);
  DeviceBuffer<uint64_t> gc_keys(o.gc_threshold ? o.pool : 1);
  DeviceBuffer<uint32_t> stash(uint64_t{o.blocks} * 4 * o.k);
  DeviceBuffer<uint64_t> prefix_profit(pp), prefix_weight(pw);
  nodes.fill_bytes(0);  // node 0, the root: level 0, nothing taken
  const std::array<uint32_t, kKnapsackWords> start = start_words(o.gc_threshold);
  check(cudaMemcpy(words.get(), start.data(), 4 * start.size(), cudaMemcpyHostToDevice), "knapsack: words");
  KnapsackView v;
  v.n = in.size();
  v.capacity = in.capacity;
  v.profit = profit.get();
  v.weight = weight.get();
  v.prefix_profit = prefix_profit.get();
  v.prefix_weight = prefix_weight.get();
  v.node_level = nodes.get();
  v.node_profit = nodes.get() + o.pool;
  v.node_weight = nodes.get() + 2 * uint64_t{o.pool};
  v.node_bound = nodes.get() + 3 * uint64_t{o.pool};
  v.pool = o.pool;
  v.stash = stash.get();
  v.stash_cap = 4 * o.k;
  lay_out_words(v, words.get());
  v.gc_threshold = o.gc_threshold;
  v.gc_keys = gc_keys.get();
  gheap::DeviceHeap<uint64_t> heap(o.k, o.pool / o.k + 2);
  std::unique_ptr<DeviceRecorder64> rec;
  if (o.record) rec = std::make_unique<DeviceRecorder64>(o.blocks, o.record_events, o.record_keys);
  // Both fixed heaps are judged by the root-release rule: the root's holds
  // numbered on the root, each one record after its release (its acq implied), no
  // ticket inside a hold, the other nodes' holds not recorded
  // (histories/device_events.h).
  if (rec) rec->version_holds(gheap::kRootHoldNodes, true);
  const DeviceRecorderRef64 ref = rec ? rec->ref() : DeviceRecorderRef64{};
  const cuda_exec::DeviceWatchdog watchdog(o.blocks, o.spin_bound);
  check(cudaDeviceSynchronize(), "knapsack: upload");
  cuda_support::GpuTimer timer;
  timer.start();
  check(launch_knapsack(o.flavor, o.order, heap.memory(), v, o.blocks, o.threads, nullptr, rec ? &ref : nullptr, &watchdog.ref()),
        "knapsack kernel launch");
  GpuKnapsackResult r;
  r.seconds = timer.stop("knapsack kernel");
  const std::vector<uint32_t> end = cuda_support::download(words.get(), kKnapsackWords);
  r.created = end[4];
  r.best = end[1];
  r.explored = end[3];
  r.collected = end[7];
  r.sweeps = end[8];
  if (const cuda_exec::WatchdogReport stop = watchdog.read(); stop.stopped)
    r.stopped = cuda_exec::describe(stop, [&](uint64_t a) {
      if (a == reinterpret_cast<uint64_t>(v.epoch)) return std::string("the count of batches ended");
      if (a == reinterpret_cast<uint64_t>(v.gc_flag)) return std::string("the garbage collector's flag (a sweep)");
      return heap.word_name(a);
    }, "block", [&](uint64_t a, uint32_t value) { return heap.value_name(a, value); });
  if (rec)  // both fixed heaps' rule (structures/gheap/sim/heap_config.h's lp_rule_for)
    r.history = expand(rec->download(history_header(in, o.k, "root-release"), {"ins", "del"}, "<gpu knapsack>"));
  return r;
}

}  // namespace gpulin::knapsack
