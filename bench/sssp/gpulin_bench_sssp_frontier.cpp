// gpulin_bench_sssp_frontier: Table 3 of the heap paper (§5.7.1) on graphs
// generated like its own (rgg_n_2_20, kron_g500-logn20, delaunay_n22): the
// advance/filter frontier loop without the heap (the baseline; the paper's was
// Gunrock) and with each fixed heap above the paper's threshold N = 10K - time,
// the heap's and the advance's share of it, vertices explored, the speedup. Every
// run's distances are checked against the Boost Graph Library's Dijkstra, and one
// recorded run per graph and heap is judged by the witness of the heap's rule
// (its time shown beside the unrecorded median: the recording's cost).
//
//   gpulin_bench_sssp_frontier [--quick] [--graphs G,G,...] [--reps R]
//                              [--thresholds N,N,...] [--k K] [--threads T] [--csv FILE]
// The paper's N = 10K first; a smaller N after it (fewer deletes a round, the
// heap's root holds being what a heap round costs).
// Exit status: 0 every distance right and every history linearizable (or no CUDA
// device: a message), 1 otherwise, 2 usage.
#include <CLI/CLI.hpp>
#include <cuda_runtime_api.h>
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/sssp/cpu_dijkstra.h"
#include "apps/sssp/frontier_run.h"
#include "apps/sssp/graph.h"
#include "structures/gheap/sim/heap_run.h"
#include "bench/median.h"

namespace {

using namespace gpulin::sssp;

using gpulin::bench::median;

struct Measured {
  std::vector<double> total, heap, compute;
  uint64_t visited = 0;
  uint32_t rounds = 0, heap_rounds = 0, wrong = 0;
  std::string stopped;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gpulin_bench_sssp_frontier: the heap paper's Table 3 on generated graphs"};
  std::vector<std::string> graphs = {"rgg:20", "kron:20", "delaunay:22"};
  uint32_t reps = 5;
  bool quick = false;
  std::string csv;
  FrontierOptions base;
  std::vector<uint32_t> thresholds = {10000, 2000};
  app.add_option("--graphs", graphs, "graphs: rgg:LOGN, kron:LOGN, delaunay:LOGN, dag:N:M")->delimiter(',');
  app.add_option("--reps", reps, "runs per measurement (the median is shown)")->check(CLI::Range(1, 100));
  app.add_option("--thresholds", thresholds, "N: more active vertices than this go through the heap (one row each)")
      ->delimiter(',')
      ->check(CLI::Range(1u, 1u << 30));
  app.add_option("--k", base.k, "the heap's node capacity")->check(CLI::Range(1, 1024));
  app.add_option("--threads", base.threads, "threads a block (one block an SM)")->check(CLI::Range(32, 1024));
  app.add_option("--csv", csv, "also write the table as CSV here");
  app.add_flag("--quick", quick, "small graphs, one run each (a smoke run)");
  CLI11_PARSE(app, argc, argv);
  if (quick) graphs = {"rgg:14", "kron:12", "delaunay:13"}, reps = 1, thresholds = {1000};
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("gpulin_bench_sssp_frontier: no CUDA device, nothing measured\n");
    return 0;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  fmt::print("device: {}, {} SMs; one block an SM x {} threads; k = {}\n", prop.name, prop.multiProcessorCount,
             base.threads, base.k);
  fmt::print("medians of {} runs (GPU time, the graph's upload not counted); every run's distances against the Boost "
             "Graph Library's Dijkstra; `rec` is one recorded run, its history judged by the witness of the rule\n\n",
             reps);
  fmt::print("{:<13} {:>9} {:>10} {:<8} {:>6} {:>9} {:>9} {:>9} {:>10} {:>7} {:>7} {:>8} {:>9}  {}\n", "graph", "vertices",
             "edges", "heap", "N", "total_ms", "heap_ms", "adv_ms", "explored", "rounds", "hrounds", "speedup", "rec_ms",
             "check");
  std::ofstream out;
  if (!csv.empty()) {
    out.open(csv);
    out << "graph,vertices,edges,heap,threshold,total_ms,heap_ms,advance_ms,explored,rounds,heap_rounds,speedup,recorded_ms,check\n";
  }
  bool failed = false;
  for (const std::string& spec : graphs) {
    Graph g;
    try {
      g = make_graph(spec, 1);
      check_frontier_graph(g, default_source(g));
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "gpulin_bench_sssp_frontier: {}\n", e.what());
      return 2;
    }
    const uint32_t source = default_source(g);  // kron: vertex 0 is isolated
    const std::vector<uint32_t> expected = cpu_dijkstra(g, source);
    double baseline_ms = 0;
    std::vector<std::pair<std::string, uint32_t>> runs = {{"none", 0}};
    for (uint32_t n : thresholds) runs.push_back({"gheap-td", n}), runs.push_back({"gheap-bu", n});
    for (const auto& [heap_name, threshold] : runs) {
      const char* heap = heap_name.c_str();
      FrontierOptions o = base;
      set_frontier_heap(o, heap_name);
      if (o.with_heap) o.threshold = threshold;
      Measured m;
      for (uint32_t r = 0; r <= reps; ++r) {  // run 0 warms up (not counted)
        const FrontierResult res = frontier_gpu(g, spec, source, o);
        if (!res.stopped.empty()) m.stopped = res.stopped;
        if (res.dist != expected) ++m.wrong;
        if (r == 0) continue;
        m.total.push_back(res.seconds * 1e3), m.heap.push_back(res.heap_seconds * 1e3),
            m.compute.push_back(res.compute_seconds * 1e3);
        m.visited = res.visited, m.rounds = res.rounds, m.heap_rounds = res.heap_rounds;
      }
      std::string rec_ms = "-", verdict = m.wrong ? fmt::format("{} WRONG", m.wrong) : "ok";
      if (!m.stopped.empty()) verdict = "STOPPED: " + m.stopped;
      if (o.with_heap) {
        o.record = true;
        o.record_keys = 1u << 23;  // a block inserts up to ~6 M keys on delaunay:22 at N = 2000
        try {
          const FrontierResult res = frontier_gpu(g, spec, source, o);
          rec_ms = fmt::format("{:.2f}", res.seconds * 1e3);
          const gpulin::explore::Judgement j =
              gpulin::explore::judge_history(*res.history, gpulin::explore::JudgeOptions{});
          const bool ok = j.failure == gpulin::explore::Failure::None && res.dist == expected && res.stopped.empty();
          verdict +=
              fmt::format("; recorded: {} ops, {}", res.history->ops.size(), ok ? "linearizable" : "FAIL " + j.message);
          failed |= !ok;
        } catch (const std::runtime_error& e) {  // a recorder overflow: say so, go on
          verdict += fmt::format("; recorded run FAILED: {}", e.what());
          failed = true;
        }
      }
      failed |= m.wrong > 0 || !m.stopped.empty();
      const double total = median(m.total);
      if (!o.with_heap) baseline_ms = total;
      const std::string speedup = o.with_heap ? fmt::format("{:.2f}", baseline_ms / std::max(total, 1e-9)) : "1";
      const std::string n_shown = o.with_heap ? std::to_string(o.threshold) : "-";
      fmt::print("{:<13} {:>9} {:>10} {:<8} {:>6} {:>9.2f} {:>9.2f} {:>9.2f} {:>10} {:>7} {:>7} {:>8} {:>9}  {}\n", spec, g.n,
                 g.edges(), heap, n_shown, total, median(m.heap), median(m.compute), m.visited, m.rounds, m.heap_rounds, speedup,
                 rec_ms, verdict);
      std::fflush(stdout);
      if (out)
        out << spec << ',' << g.n << ',' << g.edges() << ',' << heap << ',' << n_shown << ',' << total << ',' << median(m.heap) << ','
            << median(m.compute) << ',' << m.visited << ',' << m.rounds << ',' << m.heap_rounds << ',' << speedup << ','
            << rec_ms << ',' << (verdict.find("FAIL") == std::string::npos && !m.wrong ? "ok" : "fail") << '\n';
    }
  }
  return failed ? 1 : 0;
}
