// gpulin_bench_knapsack: Table 5 of the heap paper (§5.7.2) on instances generated
// like its Table 4 (Martello-Pisinger-Toth types at the paper's sizes): the
// sequential best-first search (std::priority_queue, the paper's CPU baseline) and
// the parallel search over the generalized heap on the GPU, time and nodes explored,
// the speedup; every answer checked against the optimum by dynamic programming (exit
// 1 otherwise). Medians of --reps runs. Without a GPU only the CPU columns are
// measured, and the table says so.
#include <CLI/CLI.hpp>
#include <cuda_runtime.h>
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "apps/knapsack/instance.h"
#include "apps/knapsack/knapsack_gpu.h"
#include "apps/knapsack/sequential.h"

namespace {

using namespace gpulin::knapsack;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bool have_gpu() {
  int n = 0;
  const bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  (void)cudaGetLastError();
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gpulin_bench_knapsack: the heap paper's Table 5 on generated instances"};
  // The paper's Table 4, as TYPE:N:R.
  std::vector<std::string> instances = {
      "strongly:700:18000", "strongly:800:18000", "strongly:200:7000", "almost:750:16000",
      "almost:1300:6000",   "almost:500:7000",    "evenodd:900:18000", "evenodd:1200:13000",
      "evenodd:400:8000",   "subset:100:18000",   "subset:1250:12000", "subset:1300:14000"};
  uint32_t reps = 3;
  uint64_t seed = 1;
  bool quick = false;
  std::string csv;
  GpuKnapsackOptions gpu;
  app.add_option("--instances", instances, "instances, TYPE:N:R (default: the paper's Table 4)");
  app.add_option("--reps", reps, "runs per measurement (the median is shown)")->check(CLI::Range(1, 100));
  app.add_option("--seed", seed, "seed of the instances");
  app.add_option("--blocks", gpu.blocks, "GPU: thread blocks")->check(CLI::Range(1, 1 << 16));
  app.add_option("--threads", gpu.threads, "GPU: threads a block")->check(CLI::Range(32, 1024));
  app.add_option("--k", gpu.k, "GPU: the heap's node capacity")->check(CLI::Range(1, 1024));
  app.add_option("--pool", gpu.pool, "GPU: node slots");
  app.add_option("--csv", csv, "also write the table as CSV here");
  app.add_flag("--quick", quick, "three small instances, one run each (a smoke run)");
  CLI11_PARSE(app, argc, argv);
  if (quick) instances = {"strongly:60:1000", "almost:80:1000", "subset:60:1000"}, reps = 1;
  const bool gpu_here = have_gpu();
  std::string device = "no CUDA device: the GPU columns are not measured";
  if (gpu_here) {
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    device = fmt::format("{}, {} SMs; {} blocks x {} threads, k = {}", prop.name, prop.multiProcessorCount, gpu.blocks,
                         gpu.threads, gpu.k);
  }
  fmt::print("device: {}\nmedians of {} runs; every answer against the optimum by dynamic programming\n\n", device, reps);
  fmt::print("{:<20} {:>10} {:>12} {:>12} {:>12} {:>12} {:>8}  {}\n", "instance", "optimum", "cpu_ms", "cpu_nodes",
             "gpu_ms", "gpu_nodes", "speedup", "check");
  std::ofstream out;
  if (!csv.empty()) {
    out.open(csv);
    out << "instance,optimum,cpu_ms,cpu_nodes,gpu_ms,gpu_nodes,speedup,check\n";
  }
  bool failed = false;
  for (const std::string& spec : instances) {
    const Instance in = make_instance(spec, seed);
    const uint64_t optimum = optimum_by_dp(in);
    std::vector<double> cpu_s, gpu_s;
    uint64_t cpu_nodes = 0, gpu_nodes = 0;
    bool ok = true;
    for (uint32_t r = 0; r < reps; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      const SequentialResult s = best_first_sequential(in);
      cpu_s.push_back(since(t0));
      cpu_nodes = s.explored;
      ok &= s.best == optimum;
      if (gpu_here) {
        const GpuKnapsackResult g = knapsack_gpu(in, gpu);
        gpu_s.push_back(g.seconds);
        gpu_nodes = g.explored;
        ok &= g.best == optimum && g.stopped.empty();
        if (!g.stopped.empty()) fmt::print(stderr, "{}: {}\n", spec, g.stopped);
      }
    }
    failed |= !ok;
    const double cpu_ms = median(cpu_s) * 1e3, gpu_ms = median(gpu_s) * 1e3;
    const std::string g_ms = gpu_here ? fmt::format("{:.2f}", gpu_ms) : "-";
    const std::string g_n = gpu_here ? std::to_string(gpu_nodes) : "-";
    const std::string sp = gpu_here ? fmt::format("{:.2f}", cpu_ms / std::max(gpu_ms, 1e-9)) : "-";
    fmt::print("{:<20} {:>10} {:>12.2f} {:>12} {:>12} {:>12} {:>8}  {}\n", spec, optimum, cpu_ms, cpu_nodes, g_ms, g_n,
               sp, ok ? "ok" : "WRONG");
    std::fflush(stdout);
    if (out) out << spec << ',' << optimum << ',' << cpu_ms << ',' << cpu_nodes << ',' << g_ms << ',' << g_n << ','
                 << sp << ',' << (ok ? "ok" : "wrong") << '\n';
  }
  return failed ? 1 : 0;
}
