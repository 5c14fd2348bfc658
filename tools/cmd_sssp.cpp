// gpulin sssp: single-source shortest paths on a generated graph by one method,
// its distances checked against the Boost Graph Library's Dijkstra with --check.
#include <fmt/core.h>

#include <chrono>
#include <memory>
#include <stdexcept>

#include "apps/sssp/cpu_dijkstra.h"
#include "apps/sssp/graph.h"
#include "apps/sssp/near_far.h"
#include "apps/sssp/pardijkstra_run.h"
#include "sim/strategies/random_strategy.h"
#include "tools/explore/pardijkstra_sim.h"
#include "tools/commands.h"

namespace gpulin::cli {

namespace {

struct SsspArgs {
  std::string graph = "dag:30000:1000000", method = "delta", backend = "gpu";
  uint32_t source = 0, delta = 0, threads = 1024;
  uint64_t seed = 1, max_points = 100'000'000;
  bool check = false;
};

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int run_sssp(const SsspArgs& a) {
  sssp::Graph g;
  const auto g0 = std::chrono::steady_clock::now();
  try {
    g = sssp::make_graph(a.graph, a.seed);
    if (a.source >= g.n) throw std::invalid_argument("--source " + std::to_string(a.source) + ": the graph has " +
                                                     std::to_string(g.n) + " vertices");
    if (a.threads % 32 != 0) throw std::invalid_argument("--threads must be a multiple of 32 (whole warps)");
    if (a.method == "cpu" && a.backend != "cpu") throw std::invalid_argument("--method cpu runs on --backend cpu");
    if (a.method == "delta" && a.backend != "gpu") throw std::invalid_argument("--method delta runs on --backend gpu");
    if (a.method == "pardijkstra" && a.backend == "cpu")
      throw std::invalid_argument("--method pardijkstra runs on --backend gpu or sim");
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "gpulin sssp: {}\n", e.what());
    return int(kBadInput);
  }
  fmt::print("sssp {} on {}: {} vertices, {} edges (generated in {:.2f} s), source {}\n", a.method, a.graph, g.n,
             g.edges(), since(g0), a.source);
  std::vector<uint32_t> dist;
  if (a.method == "cpu") {
    const auto t0 = std::chrono::steady_clock::now();
    dist = sssp::cpu_dijkstra(g, a.source);
    fmt::print("  Boost Graph Library Dijkstra: {:.4f} s\n", since(t0));
  } else if (a.method == "pardijkstra" && a.backend == "sim") {
    sim::RandomStrategy random(a.seed);
    sim::RunResult run;
    const auto t0 = std::chrono::steady_clock::now();
    dist = explore::pardijkstra_sim(g, a.source, random, a.max_points, &run);
    fmt::print("  PARDIJKSTRA in the simulator (levels as actors, a random schedule): {} ({} scheduling points, {:.2f} s)\n",
               sim::to_string(run.outcome), run.points, since(t0));
    if (run.outcome != sim::Outcome::Completed) {
      fmt::print("  FAIL: the run did not complete: {}\n", run.message);
      return int(kViolation);
    }
  } else if (a.method == "pardijkstra") {
    sssp::PardijkstraStats st;
    dist = sssp::pardijkstra_gpu(g, a.source, &st, a.threads);
    fmt::print("  PARDIJKSTRA on the bucket heap (d {}, {} levels): {:.4f} s of GPU time\n", st.d, st.levels, st.seconds);
    if (!st.stopped.empty()) {
      fmt::print("  FAIL: {}\n", st.stopped);
      return int(kViolation);
    }
  } else {
    sssp::NearFarStats st;
    dist = sssp::near_far_sssp(g, a.source, a.delta, &st);
    fmt::print("  near-far Delta-stepping (Delta {}): {:.4f} s of GPU time, {} rounds, {} phases\n", st.delta, st.seconds,
               st.rounds, st.phases);
  }
  uint64_t reached = 0, far = 0;
  for (uint32_t d : dist)
    if (d != sssp::kUnreached) ++reached, far = std::max<uint64_t>(far, d);
  fmt::print("  {} vertices reached, the farthest at {}\n", reached, far);
  if (!a.check) return int(kPass);
  const auto c0 = std::chrono::steady_clock::now();
  const std::vector<uint32_t> ref = a.method == "cpu" ? dist : sssp::cpu_dijkstra(g, a.source);
  uint64_t wrong = 0;
  uint32_t first = 0;
  for (uint32_t v = 0; v < g.n; ++v)
    if (dist[v] != ref[v] && wrong++ == 0) first = v;
  if (wrong) {
    fmt::print("  FAIL: {} distances differ from the Boost Graph Library's Dijkstra; vertex {}: {} instead of {}\n",
               wrong, first, dist[first], ref[first]);
    return int(kViolation);
  }
  fmt::print("  check: every distance equals the Boost Graph Library's Dijkstra ({:.2f} s)\n", since(c0));
  return int(kPass);
}

}  // namespace

void add_sssp(CLI::App& app, std::function<int()>& run) {
  auto a = std::make_shared<SsspArgs>();
  CLI::App* sub = app.add_subcommand("sssp", "single-source shortest paths on a generated graph, checked");
  sub->add_option("--graph", a->graph, "dag:N:M (the bucket heap paper's random DAG: N vertices, M edges)");
  sub->add_option("--method", a->method,
                  "pardijkstra (the bucket heap paper's, on the parallel bucket heap), delta (GPU near-far "
                  "Delta-stepping) or cpu (Boost Graph Library Dijkstra)")
      ->check(CLI::IsMember({"pardijkstra", "delta", "cpu"}));
  sub->add_option("--backend", a->backend, "gpu, sim (pardijkstra in the simulator) or cpu")
      ->check(CLI::IsMember({"gpu", "sim", "cpu"}));
  sub->add_option("--max-points", a->max_points, "sim: scheduling points before a run counts as a livelock");
  sub->add_option("--source", a->source, "source vertex (0-based)");
  sub->add_option("--delta", a->delta, "Delta-stepping's bucket width (0: Davidson et al.'s choice)");
  sub->add_option("--seed", a->seed, "seed of the graph (and of the simulator's schedule)");
  sub->add_option("--threads", a->threads, "pardijkstra on the GPU: threads of a level block")->check(CLI::Range(32, 1024));
  sub->add_flag("--check", a->check, "compare every distance with the Boost Graph Library's Dijkstra");
  sub->callback([a, &run] { run = [a] { return run_sssp(*a); }; });
}

}  // namespace gpulin::cli
