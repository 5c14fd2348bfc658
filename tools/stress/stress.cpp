#include "tools/stress/stress.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "histories/device_recorder.h"
#include "histories/jsonl_writer.h"
#include "structures/gheap/bit_reversal.h"
#include "structures/gheap/device_heap.h"
#include "structures/gheap/gpu_heap.h"
#include "tools/explore/heap_config.h"
#include "tools/stress/workload.h"
#include "tools/explore/heap_at_rest.h"
#include "verify/pq_batch_witness.h"

namespace gpulin::stress {

namespace {

// LSD radix sort of 32-bit keys (four 8-bit passes): the conservation check sorts
// up to 2^29 keys, where std::sort or a hash map would take minutes.
void radix_sort(std::vector<uint32_t>& v) {
  std::vector<uint32_t> tmp(v.size());
  for (int shift = 0; shift < 32; shift += 8) {
    size_t count[257] = {};
    for (uint32_t x : v) ++count[((x >> shift) & 0xff) + 1];
    for (int i = 0; i < 256; ++i) count[i + 1] += count[i];
    for (uint32_t x : v) tmp[count[(x >> shift) & 0xff]++] = x;
    v.swap(tmp);
  }
}

void check(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess) throw std::runtime_error(what + ": " + cudaGetErrorString(e));
}

template <class T>
T* upload(const std::vector<T>& v) {
  T* d = nullptr;
  check(cudaMalloc(&d, std::max<size_t>(1, v.size()) * sizeof(T)), "cudaMalloc");
  check(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
  return d;
}

}  // namespace

StressResult run_stress(const StressOptions& o) {
  // Stages on standard error as they finish, so that a long run shows where it is.
  const auto started = std::chrono::steady_clock::now();
  auto stage = [&](const std::string& what) {
    std::fprintf(stderr, "[stress %7.1f s] %s\n",
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), what.c_str());
  };
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) throw std::runtime_error("no CUDA device");
  const Workload w = make_workload(o.workload, o.keys, o.k, o.seed);
  stage("workload generated");
  StressResult r;
  gheap::DeviceHeap heap(o.k, w.total_inserts + 1);
  const auto view = heap.view(o.variant);

  std::unique_ptr<DeviceRecorder> rec;
  if (o.record) {
    // Room per block: its share of operations, each with inv, ret and two events a
    // held node on at most the path's length plus a delete's children.
    uint64_t ops = 0;
    for (const auto& p : w.phases) ops = std::max<uint64_t>(ops, p.fn.size());
    uint64_t total_ops = 0;
    for (const auto& p : w.phases) total_ops += p.fn.size();
    const uint64_t per_block = (total_ops + o.blocks - 1) / o.blocks + 1;
    const uint32_t levels = gheap::floor_log2(heap.capacity()) + 1;
    const uint64_t events = per_block * (2 + 2 * (2 * levels + 4));
    const uint64_t keys = per_block * o.k;
    if (events > 0xffffffffull || keys > 0xffffffffull) throw std::runtime_error("recording buffers too large");
    rec = std::make_unique<DeviceRecorder>(o.blocks, static_cast<uint32_t>(events), static_cast<uint32_t>(keys));
  }

  // Conservation: the keys inserted equal the keys deleted plus the keys left in
  // the heap, as multisets (compared sorted).
  std::vector<uint32_t> inserted, removed;
  int64_t op_base = 0;
  for (const Phase& p : w.phases) {
    for (size_t i = 0; i < p.fn.size(); ++i)
      inserted.insert(inserted.end(), p.keys.begin() + i * o.k, p.keys.begin() + i * o.k + p.n[i]);
    gheap::GpuOpBatch b;
    b.count = p.fn.size();
    auto* fn = upload(p.fn);
    auto* n = upload(p.n);
    auto* keys = upload(p.keys);
    uint32_t *out = nullptr, *out_n = nullptr;
    check(cudaMalloc(&out, std::max<size_t>(1, p.keys.size()) * 4), "cudaMalloc out");
    check(cudaMalloc(&out_n, std::max<size_t>(1, p.fn.size()) * 4), "cudaMalloc out_n");
    check(cudaMemset(out_n, 0, std::max<size_t>(1, p.fn.size()) * 4), "memset");
    b.fn = fn;
    b.n = n;
    b.keys = keys;
    b.out = out;
    b.out_n = out_n;
    const DeviceRecorderRef ref = rec ? rec->ref() : DeviceRecorderRef{};
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    cudaEventRecord(t0);
    const int e = gheap::run_heap_batch_on_gpu(o.flavor, view, b, o.blocks, o.threads, rec ? &ref : nullptr, op_base);
    cudaEventRecord(t1);
    check(static_cast<cudaError_t>(e), "heap kernel (" + p.name + ")");
    cudaEventSynchronize(t1);
    float ms = 0;
    cudaEventElapsedTime(&ms, t0, t1);
    r.phases.push_back({p.name, p.fn.size(), ms / 1000.0});
    r.ops += p.fn.size();
    r.inserted_keys += p.inserted_keys;
    // Every delete's batch sorted; every deleted key one that was inserted.
    std::vector<uint32_t> h_out(p.keys.size()), h_n(p.fn.size());
    check(cudaMemcpy(h_out.data(), out, h_out.size() * 4, cudaMemcpyDeviceToHost), "download");
    check(cudaMemcpy(h_n.data(), out_n, h_n.size() * 4, cudaMemcpyDeviceToHost), "download");
    for (size_t i = 0; i < p.fn.size(); ++i) {
      if (p.fn[i] != gheap::kFnDel) continue;
      const uint32_t* d = h_out.data() + i * o.k;
      r.deleted_keys += h_n[i];
      if (h_n[i] > o.k && r.failures.size() < 10)
        r.failures.push_back("delete " + std::to_string(op_base + i) + " returned more than k keys");
      for (uint32_t j = 0; j < h_n[i] && j < o.k; ++j) {
        if (j && d[j] < d[j - 1] && r.failures.size() < 10)
          r.failures.push_back("delete " + std::to_string(op_base + i) + " returned an unsorted batch");
        removed.push_back(d[j]);
      }
    }
    for (void* ptr : {static_cast<void*>(fn), static_cast<void*>(n), static_cast<void*>(keys), static_cast<void*>(out),
                      static_cast<void*>(out_n)})
      cudaFree(ptr);
    op_base += static_cast<int64_t>(p.fn.size());
    stage("phase '" + p.name + "' done");
  }
  // What the heap still holds must be exactly what was inserted and not deleted.
  const gheap::HeapImage img = heap.download();
  for (uint32_t i = 1; i <= img.lastelem; ++i) {
    const uint32_t x = gheap::node_of(i);
    removed.insert(removed.end(), img.keys.begin() + size_t(x) * o.k, img.keys.begin() + size_t(x + 1) * o.k);
  }
  removed.insert(removed.end(), img.pbuffer.begin(), img.pbuffer.begin() + img.psize);
  radix_sort(inserted);
  radix_sort(removed);
  if (inserted != removed) {
    const auto [a, b] = std::mismatch(inserted.begin(), inserted.end(), removed.begin(), removed.end());
    r.failures.push_back("keys not conserved: " + std::to_string(inserted.size()) + " inserted, " +
                         std::to_string(removed.size()) + " deleted or left in the heap; first difference at " +
                         (a == inserted.end() ? std::string("end") : "inserted key " + std::to_string(*a)) + " / " +
                         (b == removed.end() ? std::string("end") : "key out " + std::to_string(*b)));
  }
  if (auto bad = explore::check_heap_at_rest(img, gheap::Mutant::None)) r.failures.push_back("invariant: " + *bad);
  stage("conservation and invariant checked");

  if (rec) {
    Header header;
    header.model = "pq-batch";
    header.params = Value::object({{"k", Value::integer(o.k)}});
    header.lp_rule = explore::lp_rule_for(o.flavor, o.variant);
    header.extra.emplace_back("source", "\"gpulin stress\"");
    std::string gpu = "\"unknown\"";
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
      gpu.clear();
      append_json_string(gpu, prop.name);
    }
    header.extra.emplace_back("gpu", gpu);
    const auto d0 = std::chrono::steady_clock::now();
    const KeyHistory c = rec->download(std::move(header), {"ins", "del"}, "<gpu run>");
    r.events = c.events.size();
    const auto c0 = std::chrono::steady_clock::now();
    r.download_seconds = std::chrono::duration<double>(c0 - d0).count();
    stage("history downloaded and assembled");
    const WitnessResult wr = check_witness_pq_batch(c);
    r.check_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
    stage("witness checked");
    if (wr.verdict != Verdict::Linearizable)
      r.failures.push_back("witness (" + c.header.lp_rule + "): " +
                           (wr.violation ? wr.violation->message : "failed"));
    // The JSON Lines form costs about 100 bytes of memory a key: written when asked
    // for and small enough (the compact check above covers any size).
    if (!o.out_dir.empty() && c.keys.size() <= (uint64_t(64) << 20)) {
      const History h = expand(c);
      std::filesystem::create_directories(o.out_dir);
      r.history_path = o.out_dir + "/" + explore::structure_name(o.flavor) + "-" + explore::variant_name(o.variant) +
                       "-gpu.jsonl";
      write_history_file(r.history_path, h);
    }
  }
  return r;
}

}  // namespace gpulin::stress
