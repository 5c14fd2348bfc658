#include "bench/gheap/heap_runs.h"

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <chrono>
#include <climits>

#include "structures/gheap/bit_reversal.h"
#include "structures/gheap/gpu/gheap_launch.h"
#include "structures/gheap/gpu/device_workload.h"
#include "structures/gheap/gpu/sort_keys.cuh"
#include "structures/gheap/gpu/workload_shape.h"

namespace gpulin::gheap_bench {

using Clock = std::chrono::steady_clock;

// ------------------------------------------------------------------ kernels
namespace {
constexpr uint32_t kGrid = 2048, kBlock = 256;
}  // namespace

struct Counters {
  unsigned long long deleted, unsorted, overfull, mismatched;
};

namespace {

__global__ void check_batches_kernel(const uint32_t* out, const uint32_t* out_n, const uint32_t* fn, uint64_t ops,
                                     uint32_t k, Counters* c) {
  const uint64_t total = ops * k;
  for (uint64_t e = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; e < total; e += uint64_t(gridDim.x) * blockDim.x) {
    const uint64_t i = e / k;
    if (fn[i] != gheap::kFnDel) continue;
    const uint32_t j = static_cast<uint32_t>(e - i * k);
    const uint32_t m = out_n[i];
    if (j == 0) {
      atomicAdd(&c->deleted, static_cast<unsigned long long>(m));
      if (m > k) atomicAdd(&c->overfull, 1ull);
    }
    if (j > 0 && j < m && out[e] < out[e - 1]) atomicAdd(&c->unsorted, 1ull);
  }
}

__global__ void count_mismatch_kernel(const uint32_t* a, const uint32_t* b, uint64_t n, Counters* c) {
  for (uint64_t e = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; e < n; e += uint64_t(gridDim.x) * blockDim.x)
    if (a[e] != b[e]) atomicAdd(&c->mismatched, 1ull);
}

// ------------------------------------------------------------------ CUB
// Sizes and sorts go through stress::sort_keys (sort_keys.cuh): one count type each.

size_t cub_temp_for(uint64_t slots, uint64_t flat) {
  size_t a = 0, b = 0, c = 0, d = 0;
  cub::DoubleBuffer<uint32_t> db(nullptr, nullptr);
  ck(stress::sort_keys(nullptr, b, db, slots, false), "cub size query");
  if (flat) {
    ck(sort_plain(nullptr, a, nullptr, nullptr, flat), "cub size query");
    ck(stress::sort_keys(nullptr, c, db, flat, true), "cub size query");
    ck(stress::sort_keys(nullptr, d, db, flat, false), "cub size query");
  }
  return std::max({a, b, c, d, size_t(256)});
}

// The first n stream keys in `src` order, drawn in `a` (sorted with `b`): the
// buffer that holds them (structures/gheap/gpu/device_workload.h).
const uint32_t* stream_keys(uint32_t* a, uint32_t* b, void* temp, size_t temp_bytes, uint64_t n, Src src,
                            uint64_t seed) {
  const stress::KeyOrder order = src == Src::Ascend    ? stress::KeyOrder::Ascend
                                 : src == Src::Descend ? stress::KeyOrder::Descend
                                                       : stress::KeyOrder::Random;
  return stress::draw_stream<uint32_t>(a, b, temp, temp_bytes, n, order, seed);
}

// ------------------------------------------------------------------ workloads
Plan plan_of(const std::string& spec, uint64_t N, uint32_t k, uint32_t blocks, uint64_t seed) {
  stress::WorkloadShape w = stress::plan_workload(spec, N, k, blocks, seed);
  Plan p;
  p.name = w.name;
  p.k = k;
  p.src = w.order == stress::KeyOrder::Ascend ? Src::Ascend : w.order == stress::KeyOrder::Descend ? Src::Descend : Src::Hash;
  p.flat = p.src == Src::Hash ? 0 : w.stream_keys;
  p.n_keys = w.timed_keys;
  p.inserted = w.stream_keys;
  p.ins_ops = w.ins_ops;
  p.fn = std::move(w.fn);
  p.n = std::move(w.n);
  p.off = std::move(w.off);
  for (const stress::ShapePhase& ph : w.phases) {
    const Col col = !ph.timed ? Col::Untimed : ph.name == "insert" ? Col::Ins : ph.name == "delete" ? Col::Del : Col::Pairs;
    p.phases.push_back({ph.name, ph.begin, ph.end, col});
  }
  return p;
}

}  // namespace

cudaError_t sort_plain(void* temp, size_t& bytes, const uint32_t* in, uint32_t* out, uint64_t n) {
  if (n <= uint64_t(INT_MAX)) return cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, static_cast<int>(n));
  return cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, static_cast<long long>(n));
}

Plan make_full(const std::string& kind, uint64_t N, uint32_t k) {
  if (N < k || N % k) throw std::invalid_argument("N must be a multiple of k");
  return plan_of(kind, N, k, 1, 0);
}

Plan make_partial(uint32_t percent, uint64_t N, uint32_t k, uint64_t seed) {
  return plan_of("partial:" + std::to_string(percent), N, k, 1, seed);
}

Plan make_insdel(uint32_t levels, uint64_t N, uint32_t k, uint32_t blocks) {
  return plan_of("insdel:" + std::to_string(levels), N, k, blocks, 0);
}

void plan_keys(const Plan& p, uint64_t seed, uint32_t* dst) {
  uint32_t* alt = nullptr;
  void* temp = nullptr;
  try {
    size_t bytes = 0;
    if (p.src != Src::Hash) {
      ck(cudaMalloc(&alt, std::max<uint64_t>(p.inserted, 1) * 4), "cudaMalloc plan keys");
      cub::DoubleBuffer<uint32_t> db(nullptr, nullptr);
      ck(stress::sort_keys(nullptr, bytes, db, p.inserted, p.src == Src::Descend), "cub size query");
      ck(cudaMalloc(&temp, std::max<size_t>(bytes, 256)), "cudaMalloc plan keys");
    }
    const uint32_t* made = stream_keys(dst, alt, temp, bytes, p.inserted, p.src, seed);
    if (made != dst) ck(cudaMemcpy(dst, made, p.inserted * 4, cudaMemcpyDeviceToDevice), "copy plan keys");
    ck(cudaDeviceSynchronize(), "plan keys");
  } catch (...) {
    cudaFree(alt);
    cudaFree(temp);
    throw;
  }
  cudaFree(alt);
  cudaFree(temp);
}

// ------------------------------------------------------------------ device memory
size_t heap_bytes(uint32_t k, uint64_t full_nodes) {
  const uint32_t levels = gheap::floor_log2(static_cast<uint32_t>(std::max<uint64_t>(1, full_nodes))) + 1;
  return (size_t(1) << levels) * (k + 1ull) * 4 + (k + 2ull) * 4;
}

size_t Workspace::bytes_for(uint64_t ops, uint32_t k, uint64_t flat) {
  const uint64_t slots = ops * k;
  return ops * 20 + slots * 12 + cub_temp_for(slots, std::max<uint64_t>(flat, 1)) + sizeof(Counters) + 4096;
}

void Workspace::release() {
  for (void* p : {static_cast<void*>(fn), static_cast<void*>(n), static_cast<void*>(out_n), static_cast<void*>(keys),
                  static_cast<void*>(out), static_cast<void*>(alt), static_cast<void*>(off), temp,
                  static_cast<void*>(counters)})
    if (p) cudaFree(p);
  fn = n = out_n = keys = out = alt = nullptr;
  off = nullptr;
  temp = nullptr;
  counters = nullptr;
  ops_cap = slot_cap = flat_cap = 0;
}

void Workspace::allocate(uint64_t ops, uint32_t k, uint64_t flat) {
  release();
  const uint64_t slots = ops * k;
  flat = std::max<uint64_t>(flat, 1);
  temp_bytes = cub_temp_for(slots, flat);
  ck(cudaMalloc(&fn, ops * 4), "cudaMalloc fn");
  ck(cudaMalloc(&n, ops * 4), "cudaMalloc n");
  ck(cudaMalloc(&out_n, ops * 4), "cudaMalloc out_n");
  ck(cudaMalloc(&off, ops * 8), "cudaMalloc off");
  ck(cudaMalloc(&keys, slots * 4), "cudaMalloc keys");
  ck(cudaMalloc(&out, slots * 4), "cudaMalloc out");
  ck(cudaMalloc(&alt, slots * 4), "cudaMalloc alt");
  ck(cudaMalloc(&temp, temp_bytes), "cudaMalloc cub temp");
  ck(cudaMalloc(&counters, sizeof(Counters)), "cudaMalloc counters");
  ops_cap = ops;
  slot_cap = slots;
  flat_cap = flat;
}

void Workspace::upload(const Plan& p) {
  if (p.ops() > ops_cap || p.ops() * p.k > slot_cap || p.flat > flat_cap)
    throw std::runtime_error("workspace too small for " + p.name);
  ck(cudaMemcpy(fn, p.fn.data(), p.ops() * 4, cudaMemcpyHostToDevice), "upload fn");
  ck(cudaMemcpy(n, p.n.data(), p.ops() * 4, cudaMemcpyHostToDevice), "upload n");
  ck(cudaMemcpy(off, p.off.data(), p.ops() * 8, cudaMemcpyHostToDevice), "upload off");
}

// Sorted sources are made in `out` and sorted with `alt`, both free until the run.
void Workspace::generate(const Plan& p, uint64_t seed, const uint32_t* source) {
  const uint32_t* src = source;
  if (!src && p.src != Src::Hash) src = stream_keys(out, alt, temp, temp_bytes, p.flat, p.src, seed);
  stress::fill_op_keys<uint32_t>(keys, n, off, p.ops(), p.k, seed, src);
  ck(cudaDeviceSynchronize(), "generate");
}

// ------------------------------------------------------------------ runs
Runner::Runner() {
  ck(cudaEventCreate(&e0_), "cudaEventCreate");
  ck(cudaEventCreate(&e1_), "cudaEventCreate");
}

Runner::~Runner() {
  cudaEventDestroy(e0_);
  cudaEventDestroy(e1_);
}

RunOut Runner::run(const Plan& p, Workspace& ws, gheap::DeviceHeap<uint32_t>& heap, gheap::Flavor fl, uint32_t blocks,
                   uint32_t threads, uint64_t seed, DeviceRecorder* rec, const uint32_t* keys) {
  RunOut r;
  const auto t0 = Clock::now();
  try {
    heap.reset();
    ws.generate(p, seed, keys);
    ck(cudaMemset(ws.out, 0xff, p.ops() * p.k * 4), "memset out");
    ck(cudaMemset(ws.out_n, 0, p.ops() * 4), "memset out_n");
    if (rec) rec->clear();
    ck(cudaDeviceSynchronize(), "prepare");
    const auto memory = heap.memory();
    const DeviceRecorderRef ref = rec ? rec->ref() : DeviceRecorderRef{};
    for (const PhaseSpec& ph : p.phases) {
      gheap::GpuOpBatch<uint32_t> b;
      b.fn = ws.fn + ph.begin;
      b.n = ws.n + ph.begin;
      b.keys = ws.keys + ph.begin * p.k;
      b.out = ws.out + ph.begin * p.k;
      b.out_n = ws.out_n + ph.begin;
      b.count = ph.end - ph.begin;
      ck(cudaEventRecord(e0_), "cudaEventRecord");
      const cudaError_t e = gheap::launch_heap_batch(fl, gheap::Variant::Fixed, memory, b, blocks, threads, nullptr,
                                                     rec ? &ref : nullptr, static_cast<int64_t>(ph.begin), &waits_);
      if (e != cudaSuccess) throw CudaFailure(e, "heap kernel launch (" + ph.name + ")");
      ck(cudaEventRecord(e1_), "cudaEventRecord");
      if (const cudaError_t s = cudaEventSynchronize(e1_); s != cudaSuccess)
        throw CudaFailure(s, "heap kernel (" + ph.name + ")");
      float ms = 0;
      ck(cudaEventElapsedTime(&ms, e0_, e1_), "cudaEventElapsedTime");
      if (ph.col != Col::Untimed) r.col_s[static_cast<int>(ph.col)] += ms / 1e3;
    }
    std::string bad;
    if (rec) {
      const auto u = rec->usage();
      if (u.overflow)
        bad = "recorder overflow (actor " + std::to_string(u.worst_actor) + ": " + std::to_string(u.worst_events) +
              " events)";
    }
    const std::string c = check(p, ws, heap);
    if (!c.empty()) bad += (bad.empty() ? "" : "; ") + c;
    r.ok = bad.empty();
    r.fail = bad;
  } catch (const std::exception& e) {
    r.fail = e.what();
    r.fatal = context_lost();
  }
  r.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  return r;
}

std::string Runner::check(const Plan& p, Workspace& ws, gheap::DeviceHeap<uint32_t>& heap) {
  const uint64_t slots = p.ops() * p.k;
  ck(cudaMemset(ws.counters, 0, sizeof(Counters)), "memset counters");
  check_batches_kernel<<<kGrid, kBlock>>>(ws.out, ws.out_n, ws.fn, p.ops(), p.k, ws.counters);
  ck(cudaGetLastError(), "check kernel");
  size_t bytes = ws.temp_bytes;
  cub::DoubleBuffer<uint32_t> in(ws.keys, ws.alt);
  ck(stress::sort_keys(ws.temp, bytes, in, slots, false), "check sort (inserted)");
  cub::DoubleBuffer<uint32_t> outb(ws.out, in.Alternate());
  bytes = ws.temp_bytes;
  ck(stress::sort_keys(ws.temp, bytes, outb, slots, false), "check sort (deleted)");
  count_mismatch_kernel<<<kGrid, kBlock>>>(in.Current(), outb.Current(), p.inserted, ws.counters);
  ck(cudaGetLastError(), "compare kernel");
  Counters c{};
  ck(cudaMemcpy(&c, ws.counters, sizeof c, cudaMemcpyDeviceToHost), "download counters");
  const uint32_t last = heap.lastelem();
  std::string bad;
  auto add = [&](const std::string& s) { bad += (bad.empty() ? "" : "; ") + s; };
  if (c.unsorted) add(std::to_string(c.unsorted) + " out-of-order pairs in delete batches");
  if (c.overfull) add(std::to_string(c.overfull) + " deletes returned more than k keys");
  if (c.deleted != p.inserted)
    add("deleted " + std::to_string(c.deleted) + " keys, inserted " + std::to_string(p.inserted));
  if (c.mismatched) add("deleted multiset differs from inserted in " + std::to_string(c.mismatched) + " places");
  if (last != 0) add("heap not empty at the end (lastelem " + std::to_string(last) + ")");
  return bad;
}

}  // namespace gpulin::gheap_bench
