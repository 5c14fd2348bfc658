#include "apps/sssp/pardijkstra_run.h"

#include <algorithm>
#include <stdexcept>

#include "apps/sssp/gpu/pardijkstra_launch.h"
#include "common/cuda_support.h"
#include "cuda/watchdog_host.h"
#include "structures/bucket_heap/device_bucket_heap.h"

namespace gpulin::sssp {

using cuda_support::check;
using cuda_support::DeviceBuffer;

std::vector<uint32_t> pardijkstra_gpu(const Graph& g, uint32_t source, PardijkstraStats* stats, uint32_t threads,
                                      bool profile) {
  if (threads % 32 != 0 || threads > 1024)
    throw std::invalid_argument("pardijkstra: a level block's threads must be a multiple of 32, at most 1024");
  PardijkstraStats st;
  st.d = max_out_degree(g);
  st.threads = threads = threads ? threads : pardijkstra_threads(st.d);
  st.levels = pardijkstra_levels(g.n, st.d);
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "pardijkstra: device");
  if (st.levels > static_cast<uint32_t>(sms))
    throw std::runtime_error("pardijkstra: " + std::to_string(st.levels) + " levels, more than the " +
                             std::to_string(sms) + " SMs (the level blocks would not all run at once)");
  DeviceBuffer<uint64_t> offsets(g.offsets);
  DeviceBuffer<uint32_t> targets(g.targets), weights(g.weights), dist(g.n);
  dist.fill_bytes(0xff);
  DeviceBuffer<bucket_heap::Element> updates(st.d);
  DeviceBuffer<uint32_t> words(2 * uint64_t{st.d});
  DeviceBuffer<uint64_t> keys(bucket_heap::next_pow2(st.d));
  const RoundScratch r{updates.get(), keys.get(), {words.get(), words.get() + st.d}};
  bucket_heap::DeviceBucketHeap heap(st.d, st.levels);
  const GraphView gv{g.n, offsets.get(), targets.get(), weights.get(), rows_sorted(g.n, g.offsets.data(), g.targets.data())};
  const cuda_exec::DeviceWatchdog watchdog(st.levels);
  DeviceBuffer<unsigned long long> profile_words(profile ? pardijkstra_profile_words(st.levels) : 0);
  if (profile) profile_words.fill_bytes(0);
  cuda_support::GpuTimer timer;
  timer.start();
  check(launch_pardijkstra(heap.view(), gv, source, dist.get(), r, threads, nullptr, &watchdog.ref(),
                           profile ? profile_words.get() : nullptr),
        "pardijkstra");
  st.seconds = timer.stop("pardijkstra");
  if (profile) {
    const std::vector<unsigned long long> w = cuda_support::download(profile_words.get(), profile_words.size());
    for (uint32_t p = 0; p < kRoundParts; ++p) st.round_parts.push_back(static_cast<double>(w[p]) * 1e-9);
    for (uint32_t s = 0; s < bucket_heap::kResolveSteps; ++s)
      st.resolve_steps.push_back(static_cast<double>(w[pardijkstra_profile_step(s)]) * 1e-9);
    // The steps' time was marked apart from the RESOLVE(0) part: it is part of it.
    for (double t : st.resolve_steps) st.round_parts[kResolve] += t;
    for (uint32_t level = 1; level < st.levels; ++level)
      st.level_wait_resolve.emplace_back(static_cast<double>(w[pardijkstra_profile_level(level)]) * 1e-9,
                                         static_cast<double>(w[pardijkstra_profile_level(level) + 1]) * 1e-9);
  }
  // A level that waited past its bound stopped the run: the distances are partial.
  if (const cuda_exec::WatchdogReport stop = watchdog.read(); stop.stopped)
    st.stopped = cuda_exec::describe(stop, [&](uint64_t a) { return heap.word_name(a); });
  if (stats) *stats = st;
  return cuda_support::download(dist.get(), g.n);
}

}  // namespace gpulin::sssp
