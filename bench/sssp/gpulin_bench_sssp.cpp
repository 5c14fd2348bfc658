// gpulin_bench_sssp: the bucket heap paper's SSSP experiment (§4.2) in one run -
// PARDIJKSTRA on the parallel bucket heap (a persistent block per level), the GPU
// near-far Delta-stepping baseline (Davidson et al., as Gunrock runs it) and the
// Boost Graph Library's Dijkstra, on random DAGs of n vertices (diameter n - 1)
// from sparse to complete. Every run's distances are checked against BGL's.
//
// Each cell is the median of --reps runs (GPU time by cudaEvents, the graph's upload
// not counted; BGL's search without building its graph). A method whose single run
// took longer than --budget seconds runs once at the larger sizes, and the table
// says so; nothing is left out silently. The last lines name the crossover (the
// smallest m from which PARDIJKSTRA beats near-far at every larger size measured)
// and the peak ratio.
//
// --profile: at each size, one more PARDIJKSTRA run, profiled (pardijkstra_run.h):
// where a round's time goes on level 0 (EXTRACTMIN, the relaxation, BULKUPDATE,
// RESOLVE(0)'s wait and its work) and how long the other levels wait and resolve,
// beside the cost of one grid-wide hand-off measured first (handoff.h).
//
//   gpulin_bench_sssp [--quick] [--n N] [--edges M,M,...] [--reps R] [--threads T]
//                     [--budget S] [--csv FILE] [--profile]
// Exit status: 0 every distance right (or no CUDA device: a message), 1 a wrong
// distance, 2 usage.
#include <CLI/CLI.hpp>
#include <cuda_runtime_api.h>
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "apps/sssp/cpu_dijkstra.h"
#include "apps/sssp/graph.h"
#include "apps/sssp/near_far.h"
#include "apps/sssp/pardijkstra.h"
#include "apps/sssp/pardijkstra_run.h"
#include "bench/sssp/handoff.h"

namespace {

using namespace gpulin::sssp;

struct Cell {
  std::vector<double> seconds;
  std::string skipped;  // why it did not run at this size
  uint32_t wrong = 0;  // runs whose distances differ from BGL's
  bool single = false; // over the budget at a smaller size: one run
  double median() const {
    std::vector<double> s = seconds;
    std::sort(s.begin(), s.end());
    return s.empty() ? 0 : s.size() % 2 ? s[s.size() / 2] : (s[s.size() / 2 - 1] + s[s.size() / 2]) / 2;
  }
  std::string show() const {
    if (!skipped.empty()) return "skipped";
    if (seconds.empty()) return "-";
    return fmt::format("{:.4f}{}{}", median(), single ? " (1 run)" : "", wrong ? " WRONG" : "");
  }
};

struct Row {
  uint64_t m = 0;
  uint32_t d = 0, levels = 0, threads = 0;  // threads: PARDIJKSTRA's level blocks
  double generate_seconds = 0;
  Cell cpu, near_far, pardijkstra;
};

// Runs `once` reps times (once when `over` says a smaller size went past the budget),
// each run's distances against `want`.
// A method past `skip_after` seconds in one run is not run at the larger sizes.
struct Limits {
  double budget = 20, skip_after = 0;  // 0: never skipped
};
struct MethodState {
  bool over = false;
  std::string skip;  // set once a run took longer than skip_after
};
void measure(Cell& c, uint32_t reps, MethodState& st, const Limits& lim, uint64_t m, const std::vector<uint32_t>& want,
             const std::function<std::vector<uint32_t>(double*)>& once) {
  if (!st.skip.empty()) {
    c.skipped = st.skip;
    return;
  }
  bool& over = st.over;
  const double budget = lim.budget;
  c.single = over;
  for (uint32_t r = 0; r < (over ? 1 : reps); ++r) {
    double s = 0;
    if (once(&s) != want) ++c.wrong;
    c.seconds.push_back(s);
    if (s > budget) over = true;
    if (lim.skip_after > 0 && s > lim.skip_after)
      st.skip = fmt::format("a run took {:.1f} s at m = {} (over --skip-after {})", s, m, lim.skip_after);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"PARDIJKSTRA against near-far Delta-stepping and BGL's Dijkstra on the paper's random DAGs"};
  bool quick = false;
  uint32_t n = 30000, reps = 3, threads = 0;
  Limits lim;
  uint64_t seed = 1;
  std::vector<uint64_t> edges;
  std::string csv;
  bool profile = false;
  app.add_flag("--profile", profile, "also one profiled PARDIJKSTRA run a size: where a round's time goes");
  app.add_flag("--quick", quick, "a smoke run: n = 2000, three small sizes, one run each");
  app.add_option("--n", n, "vertices (the paper: 30 000)")->check(CLI::Range(2u, 1u << 20));
  app.add_option("--edges", edges, "edge counts m, comma-separated (default: 10^6 up to the complete DAG)")->delimiter(',');
  app.add_option("--reps", reps, "runs a cell (the median is shown)")->check(CLI::Range(1u, 100u));
  app.add_option("--threads", threads, "PARDIJKSTRA: threads of a level block (default: by d, pardijkstra_threads)")
      ->check(CLI::Range(32u, 1024u));
  app.add_option("--budget", lim.budget, "seconds: a method slower than this at one size runs once at the larger ones");
  app.add_option("--skip-after", lim.skip_after,
                 "seconds: a method slower than this at one size is not run at the larger ones (0: always run)");
  app.add_option("--seed", seed, "the graphs' seed");
  app.add_option("--csv", csv, "write the table as CSV here");
  CLI11_PARSE(app, argc, argv);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("gpulin_bench_sssp: no CUDA device, nothing measured\n");
    return 0;
  }
  if (quick) n = 2000, reps = 1, edges = {2000, 100000, 1000000};
  const uint64_t complete = uint64_t{n} * (n - 1) / 2;
  if (edges.empty())
    edges = {1'000'000, 3'000'000, 10'000'000, 30'000'000, 80'000'000, 150'000'000, 300'000'000, complete};
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  fmt::print("SSSP on random DAGs of {} vertices (bucket heap paper §4.2), {} ({} SMs); median of {} runs; "
             "PARDIJKSTRA level blocks of {}\n", n, prop.name, prop.multiProcessorCount, reps,
             threads ? fmt::format("{} threads", threads) : std::string("512 threads up to d = 8192, 1024 past it"));
  double handoff = 0;
  if (profile) {
    const uint32_t handoff_threads = threads ? threads : 1024;
    handoff = handoff_seconds(100000, handoff_threads);
    fmt::print("one grid-wide hand-off (two blocks of {} threads, the bucket heap's signal and wait, 10^5 round trips): "
               "{:.2f} us\n", handoff_threads, handoff * 1e6);
  }
  std::vector<Row> rows;
  MethodState cpu_st, nf_st, pd_st;
  for (uint64_t m : edges) {
    if (m < n - 1 || m > complete) {
      fmt::print(stderr, "gpulin_bench_sssp: --edges {}: a DAG of {} vertices has {} to {} edges\n", m, n, n - 1, complete);
      return 2;
    }
    Row r;
    r.m = m;
    const auto g0 = std::chrono::steady_clock::now();
    const Graph g = random_dag(n, m, seed);
    r.generate_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - g0).count();
    r.d = max_out_degree(g);
    r.levels = pardijkstra_levels(g.n, r.d);
    r.threads = threads ? threads : pardijkstra_threads(r.d);
    double s0 = 0;
    const std::vector<uint32_t> want = cpu_dijkstra(g, 0, &s0);
    measure(r.cpu, reps, cpu_st, lim, m, want, [&](double* s) { return cpu_dijkstra(g, 0, s); });
    measure(r.near_far, reps, nf_st, lim, m, want, [&](double* s) {
      NearFarStats st;
      auto d = near_far_sssp(g, 0, 0, &st);
      *s = st.seconds;
      return d;
    });
    measure(r.pardijkstra, reps, pd_st, lim, m, want, [&](double* s) {
      PardijkstraStats st;
      auto d = pardijkstra_gpu(g, 0, &st, r.threads);
      *s = st.seconds;
      return d;
    });
    fmt::print("  m {:>11}: d {:>6}, {} levels; BGL {} s, near-far {} s, PARDIJKSTRA {} s ({} threads; graph made in "
               "{:.1f} s)\n", m, r.d, r.levels, r.cpu.show(), r.near_far.show(), r.pardijkstra.show(), r.threads,
               r.generate_seconds);
    if (profile) {
      PardijkstraStats st;
      if (pardijkstra_gpu(g, 0, &st, r.threads, true) != want) fmt::print("  profiled run: WRONG distances\n");
      const double rounds = g.n;
      double parts = 0;
      for (double p : st.round_parts) parts += p;
      fmt::print("    profile: {:.4f} s profiled, {:.2f} us a round (level 0, {} rounds):", st.seconds,
                 st.seconds / rounds * 1e6, g.n);
      for (uint32_t p = 0; p < kRoundParts; ++p)
        fmt::print(" {} {:.2f} us ({:.0f} %);", kRoundPartNames[p], st.round_parts[p] / rounds * 1e6,
                   100 * st.round_parts[p] / std::max(parts, 1e-12));
      fmt::print(" = {:.1f} hand-offs a round\n", st.seconds / rounds / std::max(handoff, 1e-12));
      fmt::print("      RESOLVE(0)'s steps, us a round:");
      for (uint32_t p = 0; p < gpulin::bucket_heap::kResolveSteps; ++p)
        fmt::print(" {} {:.2f};", gpulin::bucket_heap::kResolveStepNames[p], st.resolve_steps[p] / rounds * 1e6);
      fmt::print("\n");
      for (size_t i = 0; i < st.level_wait_resolve.size(); ++i)
        fmt::print("      level {}: waits {:.4f} s, resolves {:.4f} s\n", i + 1, st.level_wait_resolve[i].first,
                   st.level_wait_resolve[i].second);
    }
    std::fflush(stdout);
    rows.push_back(r);
  }

  fmt::print("\n{:>11} {:>6} {:>6} {:>16} {:>16} {:>16} {:>14} {:>12}\n", "edges m", "d", "levels", "BGL Dijkstra s",
             "near-far s", "PARDIJKSTRA s", "near-far/PARD", "BGL/PARD");
  bool wrong = false;
  std::optional<uint64_t> crossover;
  double peak = 0;
  uint64_t peak_m = 0;
  for (const Row& r : rows) {
    if (!r.pardijkstra.skipped.empty() || !r.near_far.skipped.empty()) {
      fmt::print("{:>11} {:>6} {:>6} {:>16} {:>16} {:>16} {:>14} {:>12}\n", r.m, r.d, r.levels, r.cpu.show(),
                 r.near_far.show(), r.pardijkstra.show(), "-", "-");
      continue;
    }
    const double ratio = r.near_far.median() / r.pardijkstra.median();
    fmt::print("{:>11} {:>6} {:>6} {:>16} {:>16} {:>16} {:>14.3f} {:>12.3f}\n", r.m, r.d, r.levels, r.cpu.show(),
               r.near_far.show(), r.pardijkstra.show(), ratio, r.cpu.median() / r.pardijkstra.median());
    wrong |= r.cpu.wrong || r.near_far.wrong || r.pardijkstra.wrong;
    if (ratio > 1 && !crossover) crossover = r.m;
    if (ratio <= 1) crossover.reset();
    if (ratio > peak) peak = ratio, peak_m = r.m;
  }
  if (crossover)
    fmt::print("crossover: PARDIJKSTRA faster than near-far from m = {} on (every larger size measured)\n", *crossover);
  else
    fmt::print("crossover: none - near-far is faster at the largest size measured\n");
  fmt::print("peak near-far/PARDIJKSTRA: {:.3f} at m = {}\n", peak, peak_m);
  for (const Row& r : rows)
    for (const Cell* c : {&r.cpu, &r.near_far, &r.pardijkstra})
      if (!c->skipped.empty()) fmt::print("skipped at m = {}: {}\n", r.m, c->skipped);
  fmt::print("distances: {}\n", wrong ? "WRONG in some run (see the cells marked)" : "every run equal to BGL's Dijkstra");
  if (!csv.empty()) {
    std::FILE* f = std::fopen(csv.c_str(), "w");
    if (!f) {
      fmt::print(stderr, "gpulin_bench_sssp: cannot write {}\n", csv);
      return 2;
    }
    fmt::print(f, "gpu,n,m,d,levels,threads,method,median_s,runs,wrong,single_run_over_budget,skipped\n");
    for (const Row& r : rows)
      for (const auto& [name, c] : {std::pair<const char*, const Cell*>{"bgl_dijkstra", &r.cpu},
                                    {"near_far", &r.near_far}, {"pardijkstra", &r.pardijkstra}})
        fmt::print(f, "{},{},{},{},{},{},{},{:.6f},{},{},{},{}\n", prop.name, n, r.m, r.d, r.levels, r.threads, name,
                   c->median(), c->seconds.size(), c->wrong, c->single ? 1 : 0, c->skipped.empty() ? 0 : 1);
    std::fclose(f);
  }
  return wrong ? 1 : 0;
}
