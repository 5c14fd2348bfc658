#include "apps/sssp/near_far.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <stdexcept>

#include "common/cuda_support.h"

namespace gpulin::sssp {

namespace {

using cuda_support::check;
using cuda_support::DeviceBuffer;

// Both queues hold a vertex at most once: near_mark[v] is the id of the last near list
// v joined, in_far[v] whether v waits in the far pile. So n entries each suffice.
struct Queues {
  uint32_t* near_next;
  uint32_t* far;
  uint32_t* counts;  // [0] near_next, [1] far, [2] overflow
  uint32_t cap;
  uint32_t* near_mark;
  uint32_t* in_far;
  uint32_t list;     // the id of the near list being made
};

// Appends v to the queue `which` (0 near, 1 far) for every lane whose `want` is that
// queue, one atomic a warp.
__device__ void push(const Queues& q, uint32_t which, bool want, uint32_t v) {
  const unsigned mask = __ballot_sync(0xffffffffu, want);
  if (mask == 0) return;
  const uint32_t lane = threadIdx.x & 31, leader = __ffs(mask) - 1;
  uint32_t base = 0;
  if (lane == leader) base = atomicAdd(&q.counts[which], __popc(mask));
  base = __shfl_sync(0xffffffffu, base, leader);
  if (!want) return;
  const uint32_t at = base + __popc(mask & ((1u << lane) - 1));
  if (at >= q.cap) {
    atomicOr(&q.counts[2], 1u);
    return;
  }
  (which == 0 ? q.near_next : q.far)[at] = v;
}

// A warp per frontier vertex, its lanes over the vertex's edges.
__global__ void relax(const uint64_t* offsets, const uint32_t* targets, const uint32_t* weights, const uint32_t* frontier,
                      uint32_t count, uint32_t* dist, uint32_t threshold, Queues q) {
  const uint64_t warps = uint64_t{gridDim.x} * blockDim.x / 32;
  const uint32_t lane = threadIdx.x & 31;
  for (uint64_t w = (uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; w < count; w += warps) {
    const uint32_t u = frontier[w];
    const uint32_t du = *reinterpret_cast<volatile uint32_t*>(dist + u);
    const uint64_t end = offsets[u + 1];
    for (uint64_t base = offsets[u]; base < end; base += 32) {
      const uint64_t e = base + lane;
      bool near = false, far = false;
      uint32_t v = 0;
      if (e < end) {
        v = targets[e];
        const uint32_t nd = du + weights[e];
        if (nd < atomicMin(dist + v, nd)) {
          if (nd < threshold) near = atomicExch(q.near_mark + v, q.list) != q.list;
          else far = atomicExch(q.in_far + v, 1u) == 0;
        }
      }
      push(q, 0, near, v);
      push(q, 1, far, v);
    }
  }
}

// The far pile split at [lo, hi): those there join the near frontier, those past
// stay, those below were settled in an earlier phase and go.
__global__ void split(const uint32_t* far, uint32_t count, const uint32_t* dist, uint32_t lo, uint32_t hi, Queues q) {
  const uint32_t stride = gridDim.x * blockDim.x;
  for (uint32_t base = blockIdx.x * blockDim.x; base < count; base += stride) {
    const uint32_t i = base + threadIdx.x;
    uint32_t v = 0, d = 0;
    if (i < count) v = far[i], d = dist[v];
    const bool stays = i < count && d >= hi;
    bool near = false;
    if (i < count && !stays) {
      q.in_far[v] = 0;
      near = d >= lo && atomicExch(q.near_mark + v, q.list) != q.list;
    }
    push(q, 0, near, v);
    push(q, 1, stays, v);
  }
}

}  // namespace

std::vector<uint32_t> near_far_sssp(const Graph& g, uint32_t source, uint32_t delta, NearFarStats* stats) {
  NearFarStats st;
  if (delta == 0) {
    const double avg_w = g.edges() ? std::accumulate(g.weights.begin(), g.weights.end(), 0.0) / g.edges() : 1;
    const double avg_d = g.n ? double(g.edges()) / g.n : 1;
    delta = static_cast<uint32_t>(std::max(1.0, avg_w * 32 / std::max(avg_d, 1.0)));
  }
  st.delta = delta;
  DeviceBuffer<uint64_t> offsets(g.offsets);
  DeviceBuffer<uint32_t> targets(g.targets), weights(g.weights), dist(g.n);
  const uint32_t cap = g.n;  // each queue holds a vertex at most once
  DeviceBuffer<uint32_t> near_a(cap), near_b(cap), far_a(cap), far_b(cap), counts(3), near_mark(g.n), in_far(g.n);
  near_mark.fill_bytes(0xff);
  in_far.fill_bytes(0);
  uint32_t list = 0;  // the source's list
  std::vector<uint32_t> init(g.n, kUnreached);
  init[source] = 0;
  check(cudaMemcpy(dist.get(), init.data(), g.n * 4ull, cudaMemcpyHostToDevice), "sssp: distances");
  check(cudaMemcpy(near_a.get(), &source, 4, cudaMemcpyHostToDevice), "sssp: source");
  uint32_t* near = near_a.get();
  uint32_t* near_next = near_b.get();
  uint32_t* far = far_a.get();
  uint32_t* far_next = far_b.get();
  uint32_t near_n = 1, far_n = 0, lo = 0, hi = delta;
  uint32_t host_counts[3];
  cuda_support::GpuTimer timer;
  timer.start();
  for (;;) {
    while (near_n > 0) {
      check(cudaMemcpy(counts.get(), std::array<uint32_t, 3>{0, far_n, 0}.data(), 12, cudaMemcpyHostToDevice), "sssp");
      const Queues q{near_next, far, counts.get(), cap, near_mark.get(), in_far.get(), ++list};
      relax<<<std::min<uint32_t>((near_n + 7) / 8, 1u << 16), 256>>>(offsets.get(), targets.get(), weights.get(), near,
                                                                      near_n, dist.get(), hi, q);
      check(cudaMemcpy(host_counts, counts.get(), 12, cudaMemcpyDeviceToHost), "sssp: relax");
      if (host_counts[2]) throw std::runtime_error("sssp: a queue outgrew its " + std::to_string(cap) + " entries");
      std::swap(near, near_next);
      near_n = host_counts[0];
      far_n = host_counts[1];
      ++st.rounds;
    }
    if (far_n == 0) break;
    lo = hi;
    hi = hi > 0xffffffffu - delta ? 0xffffffffu : hi + delta;
    check(cudaMemset(counts.get(), 0, 12), "sssp");
    const Queues q{near, far_next, counts.get(), cap, near_mark.get(), in_far.get(), ++list};
    split<<<std::min<uint32_t>((far_n + 255) / 256, 1u << 16), 256>>>(far, far_n, dist.get(), lo, hi, q);
    check(cudaMemcpy(host_counts, counts.get(), 12, cudaMemcpyDeviceToHost), "sssp: split");
    if (host_counts[2]) throw std::runtime_error("sssp: a queue outgrew its " + std::to_string(cap) + " entries");
    std::swap(far, far_next);
    near_n = host_counts[0];
    far_n = host_counts[1];
    ++st.phases;
  }
  st.seconds = timer.stop("sssp: near-far");
  if (stats) *stats = st;
  return cuda_support::download(dist.get(), g.n);
}

}  // namespace gpulin::sssp
