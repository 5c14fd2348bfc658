#include <memory>
#include <stdexcept>
#include <vector>

#include "apps/sssp/frontier_run.h"
#include "apps/sssp/gpu/sssp_frontier_launch.h"
#include "common/cuda_support.h"
#include "cuda/watchdog_host.h"
#include "histories/device_recorder.h"
#include "structures/gheap/gpu/device_heap.h"

namespace gpulin::sssp {

using cuda_support::check;
using cuda_support::DeviceBuffer;

FrontierResult frontier_gpu(const Graph& g, const std::string& graph_name, uint32_t source, const FrontierOptions& o) {
  check_frontier_graph(g, source);
  if (o.threads < 32 || o.threads % 32 || o.threads > 1024 || o.k < 1 || o.k > 1024 || o.threshold < 1)
    throw std::invalid_argument("sssp frontier gpu: threads a multiple of 32 up to 1024, k 1 to 1024, threshold >= 1");
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) throw std::runtime_error("no CUDA device");
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "sssp frontier: device");
  const uint32_t blocks = o.blocks ? o.blocks : static_cast<uint32_t>(sms);
  if (blocks > static_cast<uint32_t>(sms))
    throw std::invalid_argument("sssp frontier gpu: at most one block an SM (" + std::to_string(sms) +
                                "): the blocks wait for each other at every step");
  const uint64_t queue_cap = frontier_queue_words(o, g.n);
  DeviceBuffer<uint64_t> offsets(g.offsets);
  DeviceBuffer<uint32_t> targets(g.targets), weights(g.weights), dist(g.n), mark(g.n), queues(2 * queue_cap);
  DeviceBuffer<uint32_t> words(kFrontierWords);
  DeviceBuffer<FrontierRounds> rounds(1);
  dist.fill_bytes(0xff);
  mark.fill_bytes(0);
  words.fill_bytes(0);
  const uint32_t zero = 0;
  check(cudaMemcpy(dist.get() + source, &zero, 4, cudaMemcpyHostToDevice), "sssp frontier: source");
  check(cudaMemcpy(queues.get(), &source, 4, cudaMemcpyHostToDevice), "sssp frontier: source");
  FrontierView v = lay_out_frontier(GraphView{g.n, offsets.get(), targets.get(), weights.get(), false}, dist.get(),
                                    mark.get(), queues.get(), static_cast<uint32_t>(queue_cap), words.get(), blocks);
  v.threshold = o.threshold;
  v.with_heap = o.with_heap;
  const uint64_t heap_keys = frontier_heap_keys(o, g.n);
  gheap::DeviceHeap<uint64_t> heap(o.k, (heap_keys + o.k - 1) / o.k + 1);
  v.heap_capacity = heap_keys;
  std::unique_ptr<DeviceRecorder64> rec;
  if (o.record) rec = std::make_unique<DeviceRecorder64>(blocks, o.record_events, o.record_keys);
  // Both fixed heaps are judged by the root-release rule: the root's holds
  // numbered on the root, each one record after its release (its acq implied), no
  // ticket inside a hold, the other nodes' holds not recorded
  // (histories/device_events.h).
  if (rec) rec->version_holds(gheap::kRootHoldNodes, true);
  const DeviceRecorderRef64 ref = rec ? rec->ref() : DeviceRecorderRef64{};
  const cuda_exec::DeviceWatchdog watchdog(blocks, o.spin_bound);
  check(cudaDeviceSynchronize(), "sssp frontier: upload");
  cuda_support::GpuTimer timer;
  timer.start();
  check(launch_frontier_sssp(o.flavor, heap.memory(), v, rounds.get(), blocks, o.threads, nullptr, rec ? &ref : nullptr,
                             &watchdog.ref()),
        "sssp frontier kernel launch");
  FrontierResult r;
  r.seconds = timer.stop("sssp frontier kernel");
  r.blocks = blocks;
  const FrontierRounds fr = cuda_support::download(rounds.get(), 1)[0];
  r.rounds = fr.rounds;
  r.heap_rounds = fr.heap_rounds;
  r.heap_seconds = fr.heap_ns * 1e-9;
  r.compute_seconds = fr.compute_ns * 1e-9;
  r.visited = cuda_support::download(v.visited, 1)[0];
  if (const cuda_exec::WatchdogReport stop = watchdog.read(); stop.stopped)
    r.stopped = cuda_exec::describe(stop, [&](uint64_t a) {
      if (a == reinterpret_cast<uint64_t>(v.barrier.generation)) return std::string("the actors' barrier");
      return heap.word_name(a);
    }, "block", [&](uint64_t a, uint32_t value) { return heap.value_name(a, value); });
  r.dist = cuda_support::download(dist.get(), g.n);
  if (rec)  // both fixed heaps' rule (structures/gheap/sim/heap_config.h's lp_rule_for)
    r.history = expand(rec->download(frontier_history_header(graph_name, o.k, "root-release"), {"ins", "del"},
                                     "<gpu sssp frontier>"));
  return r;
}

}  // namespace gpulin::sssp
