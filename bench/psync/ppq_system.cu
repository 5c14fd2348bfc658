#include "bench/psync/ppq_system.h"

#include <cub/device/device_radix_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>
#include <thrust/tabulate.h>

#include <algorithm>
#include <cmath>

#include "bench/psync/think_time.h"
#include "common/cuda_support.h"
#include "structures/psync/gpu/psync_launch.h"
#include "structures/psync/controller.h"
#include "structures/psync/device_psync_heap.h"
#include "structures/psync/sim/psync_at_rest.h"

namespace gpulin::psync_bench {

namespace {

using cuda_support::check;
using cuda_support::DeviceBuffer;

// The application kernel (paper §IV-E): a thread per key handed out, each
// thinking `t` iterations and writing its new keys compactly (pos: the exclusive
// prefix of the counts over the whole run). It also checks what the heap
// guarantees here: a cycle's keys come out sorted, and its smallest is at least
// the previous cycle's smallest (every key left or made since is at least that).
__global__ void app_kernel(const uint32_t* out, uint32_t out_count, uint64_t base, const uint8_t* counts,
                           const uint32_t* pos, uint32_t t, uint32_t* fresh, uint32_t* last, uint32_t parity,
                           uint32_t* error) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= out_count) return;
  const uint32_t key = out[i];
  const uint32_t before = i == 0 ? last[parity] : out[i - 1];  // last[parity]: the previous cycle's smallest
  if (key < before) atomicOr(error, 1u);
  const uint32_t v = think(key, t);
  uint32_t* dst = fresh + (pos[base + i] - pos[base]);
  for (uint32_t j = 0; j < counts[base + i]; ++j) dst[j] = next_key(key, v, j);
  if (i == 0) last[parity ^ 1u] = key;
}

__global__ void initial_key(uint32_t* keys, uint64_t n, uint64_t seed) {
  GPULIN_GRID_STRIDE(i, n) {
    uint64_t z = (i + 1) * 0x9e3779b97f4a7c15ull ^ seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    keys[i] = static_cast<uint32_t>((z ^ (z >> 31)) >> 34);  // below 2^30: room for the run's later keys
  }
}

}  // namespace

struct PpqSystem::Impl {
  PpqConfig c;
  uint32_t max_nodes;
  std::vector<uint32_t> pos_host;
  DeviceBuffer<uint8_t> counts;
  DeviceBuffer<uint32_t> pos, initial, fresh, last, error;
  std::unique_ptr<psync::DevicePsyncHeap> heap;
  cuda_support::CubTemp temp;
  cudaStream_t heap_stream = nullptr, app_stream = nullptr;
  cudaEvent_t root_done = nullptr, app_done = nullptr;
};

PpqSystem::PpqSystem(const PpqConfig& c, const std::vector<uint8_t>& counts) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.c = c;
  // The relaxed hold keeps the size near n: a random walk of about sqrt(s) keys.
  m.max_nodes = static_cast<uint32_t>((c.n + 8 * std::sqrt(double(c.s)) + 4 * c.r) / c.r + 2);
  m.pos_host.assign(c.s + 1, 0);
  for (uint64_t i = 0; i < c.s; ++i) m.pos_host[i + 1] = m.pos_host[i] + counts[i];
  m.counts.resize(c.s);
  check(cudaMemcpy(m.counts.get(), counts.data(), c.s, cudaMemcpyHostToDevice), "counts");
  m.pos.resize(c.s + 1);
  check(cudaMemcpy(m.pos.get(), m.pos_host.data(), (c.s + 1) * 4, cudaMemcpyHostToDevice), "prefix");
  m.initial.resize(c.n);
  initial_key<<<cuda_support::grid_for(c.n), 256>>>(m.initial.get(), c.n, c.seed);
  thrust::sort(thrust::device, m.initial.get(), m.initial.get() + c.n);
  check(cudaDeviceSynchronize(), "initial keys");
  m.fresh.resize(2 * uint64_t{c.r});
  m.last.resize(2);
  m.error.resize(1);
  m.heap = std::make_unique<psync::DevicePsyncHeap>(c.r, m.max_nodes, 4 * uint64_t{c.r}, 2 * uint64_t{c.r});
  check(cudaStreamCreateWithFlags(&m.heap_stream, cudaStreamNonBlocking), "stream");
  check(cudaStreamCreateWithFlags(&m.app_stream, cudaStreamNonBlocking), "stream");
  check(cudaEventCreateWithFlags(&m.root_done, cudaEventDisableTiming), "event");
  check(cudaEventCreateWithFlags(&m.app_done, cudaEventDisableTiming), "event");
}

PpqSystem::~PpqSystem() {
  cudaEventDestroy(impl_->root_done);
  cudaEventDestroy(impl_->app_done);
  cudaStreamDestroy(impl_->heap_stream);
  cudaStreamDestroy(impl_->app_stream);
}

std::vector<uint32_t> PpqSystem::initial_keys() const { return cuda_support::download(impl_->initial.get(), impl_->c.n); }

PpqRun PpqSystem::run(bool check_at_rest) {
  Impl& m = *impl_;
  const PpqConfig& c = m.c;
  const psync::View<uint32_t>& h = m.heap->view();
  check(cudaMemcpy(h.nodes, m.initial.get(), c.n * 4, cudaMemcpyDeviceToDevice), "reset");
  check(cudaMemset(h.delete_table, 0, psync::delete_slots_for(m.max_nodes) * 4), "reset");
  check(cudaMemset(m.last.get(), 0, 8), "reset");
  check(cudaMemset(m.error.get(), 0, 4), "reset");
  check(cudaDeviceSynchronize(), "reset");
  psync::Controller ctl(c.r, m.max_nodes);
  ctl.start_full(c.n);
  void* temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceRadixSort::SortKeys(temp, temp_bytes, m.fresh.get(), h.new_keys, 2 * c.r);
  temp = m.temp.get(temp_bytes);
  PpqRun run;
  cudaStream_t hs = m.heap_stream, as = c.concurrent ? m.app_stream : m.heap_stream;
  auto steps = [&] {
    check(psync::launch_psync_step(h, ctl.step(), hs), "psync step 2");
    check(psync::launch_psync_step(h, ctl.step(), hs), "psync step 3");
  };
  cuda_support::GpuTimer timer;
  timer.start(hs);
  uint32_t k = 0;  // the new keys the application made for the next cycle
  uint64_t base = 0, inserted = 0;
  for (uint64_t cycle = 0; base < c.s; ++cycle) {
    psync::CyclePlan plan = ctl.begin_cycle(k, static_cast<int64_t>(cycle));
    inserted += k;
    plan.root.new_offset = (cycle % 2) * 2 * uint64_t{c.r};
    plan.root.out_offset = (cycle % 2) * uint64_t{c.r};
    check(psync::launch_psync_root(h, plan.root, hs), "psync root");
    for (const psync::RefillTask& t : plan.refills) check(psync::launch_psync_refill(h, t, hs), "psync refill");
    const auto out = static_cast<uint32_t>(std::min<uint64_t>(plan.root.out_count, c.s - base));
    if (out == 0) {
      run.failure = "the heap ran empty after " + std::to_string(base) + " keys";
      break;
    }
    // The application thinks about this cycle's keys while the heap's update steps
    // run (concurrent), or after them (sequential); the next cycle waits for both.
    if (c.concurrent) {
      check(cudaEventRecord(m.root_done, hs), "event");
      check(cudaStreamWaitEvent(as, m.root_done), "event");
    } else {
      steps();
    }
    app_kernel<<<(out + 255) / 256, 256, 0, as>>>(h.out + plan.root.out_offset, out, base, m.counts.get(), m.pos.get(),
                                                  c.t, m.fresh.get(), m.last.get(), static_cast<uint32_t>(cycle % 2),
                                                  m.error.get());
    check(cudaGetLastError(), "app kernel");
    k = m.pos_host[base + out] - m.pos_host[base];
    if (k)
      check(cub::DeviceRadixSort::SortKeys(temp, temp_bytes, m.fresh.get(),
                                           h.new_keys + ((cycle + 1) % 2) * 2 * uint64_t{c.r}, static_cast<int>(k), 0,
                                           32, as),
            "sort");
    if (c.concurrent) {
      steps();
      check(cudaEventRecord(m.app_done, as), "event");
      check(cudaStreamWaitEvent(hs, m.app_done), "event");
    }
    base += out;
    run.handed_out += out;
    run.cycles = cycle + 1;
  }
  run.seconds = timer.stop("ppq run", hs);
  if (cuda_support::read_at(m.error.get()) != 0 && run.failure.empty())
    run.failure = "the application saw keys out of order";
  if (check_at_rest && run.failure.empty()) {
    while (ctl.in_flight()) steps();
    check(cudaStreamSynchronize(hs), "drain");
    const std::vector<uint32_t> nodes = m.heap->nodes(ctl.arrived_end());
    if (auto bad = explore::psync_heap_property(nodes.data(), c.r, ctl.arrived_end(), {})) run.failure = *bad;
    const uint64_t expected = c.n + inserted - run.handed_out;  // the last cycle's new keys never went in
    if (run.failure.empty() && ctl.arrived_end() != expected)
      run.failure = "the heap holds " + std::to_string(ctl.arrived_end()) + " keys, not " + std::to_string(expected);
  }
  return run;
}

}  // namespace gpulin::psync_bench
