// gpulin sssp: single-source shortest paths on a generated graph by one method,
// its distances checked against the Boost Graph Library's Dijkstra with --check.
#include <fmt/core.h>

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>

#include "apps/sssp/cpu_dijkstra.h"
#include "apps/sssp/frontier_run.h"
#include "apps/sssp/graph.h"
#include "apps/sssp/near_far.h"
#include "apps/sssp/pardijkstra_run.h"
#include "common/wall_clock.h"
#include "sim/strategies/random_strategy.h"
#include "tools/commands.h"
#include "apps/sssp/sim/pardijkstra_sim.h"
#include "apps/sssp/sim/sssp_frontier_sim.h"
#include "tools/heap_history_report.h"

namespace gpulin::cli {

namespace {

struct SsspArgs {
  std::string graph = "dag:30000:1000000", method = "delta", backend = "gpu";
  std::optional<uint32_t> source;  // unset: sssp::default_source
  uint32_t delta = 0, threads = 0;  // threads 0: pardijkstra's choice by d, the frontier's 1024
  uint64_t seed = 1, max_points = 100'000'000;
  bool check = false;
  // --method frontier (the heap paper's §5.7.1): the heap, or none (the baseline).
  std::string heap = "gheap-td", out_dir;
  sssp::FrontierOptions frontier;
};

// The frontier loop on the GPU or in the simulator, its history judged when recorded;
// false when the run did not finish or its history is not linearizable.
bool run_frontier(const SsspArgs& a, const sssp::Graph& g, std::vector<uint32_t>& dist) {
  sssp::FrontierOptions o = a.frontier;
  sssp::set_frontier_heap(o, a.heap);  // checked by the option
  o.record &= o.with_heap;              // no heap, no history
  sssp::FrontierResult r;
  bool ok = true;
  const std::string what = o.with_heap ? fmt::format("with {} (k {}) above {} active vertices", a.heap, o.k, o.threshold)
                                       : std::string("without a heap");
  if (a.backend == "sim") {
    sim::RandomStrategy random(a.seed);
    explore::FrontierSimResult s = explore::frontier_sim(g, a.graph, *a.source, o, random);
    r = std::move(s.result);
    fmt::print("  frontier loop {} in the simulator ({} actors, a random schedule): {} ({} scheduling points, {:.2f} s)\n",
               what, o.actors, r.outcome, s.run.points, r.seconds);
    ok = s.run.outcome == sim::Outcome::Completed;
  } else {
    r = sssp::frontier_gpu(g, a.graph, *a.source, o);
    fmt::print("  frontier loop {} on the GPU ({} blocks x {} threads): {:.4f} s of GPU time (heap {:.4f} s, advance "
               "{:.4f} s)\n",
               what, r.blocks, o.threads, r.seconds, r.heap_seconds, r.compute_seconds);
    if (!r.stopped.empty()) ok = false, fmt::print("  FAIL: {}\n", r.stopped);
  }
  fmt::print("  {} rounds ({} through the heap), {} vertices explored\n", r.rounds, r.heap_rounds, r.visited);
  if (!ok) fmt::print("  FAIL: the run did not complete\n");
  if (r.history) ok &= report_heap_history(*r.history, a.out_dir, "sssp-frontier-" + a.heap + "-" + a.backend);
  dist = std::move(r.dist);
  return ok;
}

int run_sssp(SsspArgs a) {
  sssp::Graph g;
  const auto g0 = std::chrono::steady_clock::now();
  try {
    g = sssp::make_graph(a.graph, a.seed);
    if (!a.source) a.source = sssp::default_source(g);
    if (*a.source >= g.n) throw std::invalid_argument("--source " + std::to_string(*a.source) + ": the graph has " +
                                                     std::to_string(g.n) + " vertices");
    if (a.threads % 32 != 0) throw std::invalid_argument("--threads must be a multiple of 32 (whole warps)");
    if (a.method == "cpu" && a.backend != "cpu") throw std::invalid_argument("--method cpu runs on --backend cpu");
    if (a.method == "delta" && a.backend != "gpu") throw std::invalid_argument("--method delta runs on --backend gpu");
    if ((a.method == "pardijkstra" || a.method == "frontier") && a.backend == "cpu")
      throw std::invalid_argument("--method " + a.method + " runs on --backend gpu or sim");
    if (a.method == "frontier") sssp::check_frontier_graph(g, *a.source);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "gpulin sssp: {}\n", e.what());
    return int(kBadInput);
  }
  fmt::print("sssp {} on {}: {} vertices, {} edges (generated in {:.2f} s), source {}\n", a.method, a.graph, g.n,
             g.edges(), seconds_since(g0), *a.source);
  std::vector<uint32_t> dist;
  if (a.method == "cpu") {
    const auto t0 = std::chrono::steady_clock::now();
    dist = sssp::cpu_dijkstra(g, *a.source);
    fmt::print("  Boost Graph Library Dijkstra: {:.4f} s\n", seconds_since(t0));
  } else if (a.method == "frontier") {
    try {
      if (!run_frontier(a, g, dist)) return int(kViolation);
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "gpulin sssp: {}\n", e.what());
      return int(kBadInput);
    }
  } else if (a.method == "pardijkstra" && a.backend == "sim") {
    sim::RandomStrategy random(a.seed);
    sim::RunResult run;
    const auto t0 = std::chrono::steady_clock::now();
    dist = explore::pardijkstra_sim(g, *a.source, random, a.max_points, &run);
    fmt::print("  PARDIJKSTRA in the simulator (levels as actors, a random schedule): {} ({} scheduling points, {:.2f} s)\n",
               sim::to_string(run.outcome), run.points, seconds_since(t0));
    if (run.outcome != sim::Outcome::Completed) {
      fmt::print("  FAIL: the run did not complete: {}\n", run.message);
      return int(kViolation);
    }
  } else if (a.method == "pardijkstra") {
    sssp::PardijkstraStats st;
    dist = sssp::pardijkstra_gpu(g, *a.source, &st, a.threads);
    fmt::print("  PARDIJKSTRA on the bucket heap (d {}, {} levels, level blocks of {} threads): {:.4f} s of GPU time\n",
               st.d, st.levels, st.threads, st.seconds);
    if (!st.stopped.empty()) {
      fmt::print("  FAIL: {}\n", st.stopped);
      return int(kViolation);
    }
  } else {
    sssp::NearFarStats st;
    dist = sssp::near_far_sssp(g, *a.source, a.delta, &st);
    fmt::print("  near-far Delta-stepping (Delta {}): {:.4f} s of GPU time, {} rounds, {} phases\n", st.delta, st.seconds,
               st.rounds, st.phases);
  }
  uint64_t reached = 0, far = 0;
  for (uint32_t d : dist)
    if (d != sssp::kUnreached) ++reached, far = std::max<uint64_t>(far, d);
  fmt::print("  {} vertices reached, the farthest at {}\n", reached, far);
  if (!a.check) return int(kPass);
  const auto c0 = std::chrono::steady_clock::now();
  const std::vector<uint32_t> ref = a.method == "cpu" ? dist : sssp::cpu_dijkstra(g, *a.source);
  uint64_t wrong = 0;
  uint32_t first = 0;
  for (uint32_t v = 0; v < g.n; ++v)
    if (dist[v] != ref[v] && wrong++ == 0) first = v;
  if (wrong) {
    fmt::print("  FAIL: {} distances differ from the Boost Graph Library's Dijkstra; vertex {}: {} instead of {}\n",
               wrong, first, dist[first], ref[first]);
    return int(kViolation);
  }
  fmt::print("  check: every distance equals the Boost Graph Library's Dijkstra ({:.2f} s)\n", seconds_since(c0));
  return int(kPass);
}

}  // namespace

void add_sssp(CLI::App& app, std::function<int()>& run) {
  auto a = std::make_shared<SsspArgs>();
  CLI::App* sub = app.add_subcommand("sssp", "single-source shortest paths on a generated graph, checked");
  sub->add_option("--graph", a->graph, "dag:N:M (the bucket heap paper's random DAG: N vertices, M edges)");
  CLI::Option* method =
      sub->add_option("--method", a->method,
                      "pardijkstra (the bucket heap paper's, on the parallel bucket heap), frontier (the heap paper's "
                      "advance/filter loop, with --heap), delta (GPU near-far Delta-stepping) or cpu (Boost Graph "
                      "Library Dijkstra); default delta, or frontier when --heap is given")
          ->check(CLI::IsMember({"pardijkstra", "frontier", "delta", "cpu"}));
  CLI::Option* heap =
      sub->add_option("--heap", a->heap, "frontier: gheap-td, gheap-bu (the fixed heaps) or none (the loop alone)")
          ->check(CLI::IsMember({"gheap-td", "gheap-bu", "none"}));
  sub->add_option("--threshold", a->frontier.threshold, "frontier: more active vertices than this go through the heap")
      ->check(CLI::Range(1u, 1u << 30));
  sub->add_option("--heap-keys", a->frontier.heap_keys, "frontier: keys the heap may hold (0: 8 n + 2 threshold)");
  sub->add_option("--k", a->frontier.k, "frontier: the heap's node capacity")->check(CLI::Range(1, 1024));
  sub->add_option("--blocks", a->frontier.blocks, "frontier on the GPU: thread blocks (0: one an SM)");
  sub->add_option("--actors", a->frontier.actors, "frontier in the simulator: actors (simulated blocks)")
      ->check(CLI::Range(1, 64));
  sub->add_option("--lanes", a->frontier.lanes, "frontier in the simulator: lanes per simulated block")
      ->check(CLI::Range(1, 1024));
  sub->add_flag("--record", a->frontier.record, "frontier: record the heap's operations and judge the history");
  sub->add_option("--out", a->out_dir, "frontier --record: write the heap's history as JSON Lines to this folder");
  sub->add_option("--backend", a->backend, "gpu, sim (pardijkstra or frontier in the simulator) or cpu")
      ->check(CLI::IsMember({"gpu", "sim", "cpu"}));
  sub->add_option("--max-points", a->max_points, "sim: scheduling points before a run counts as a livelock");
  sub->add_option("--source", a->source,
                  "source vertex (0-based; default 0, or the vertex of most out-edges when 0 has none)");
  sub->add_option("--delta", a->delta, "Delta-stepping's bucket width (0: Davidson et al.'s choice)");
  sub->add_option("--seed", a->seed, "seed of the graph (and of the simulator's schedule)");
  sub->add_option("--threads", a->threads,
                  "on the GPU: threads of a block (pardijkstra's level block, default by d; frontier's actor, default 1024)")
      ->check(CLI::Range(32, 1024));
  sub->add_flag("--check", a->check, "compare every distance with the Boost Graph Library's Dijkstra");
  sub->callback([a, method, heap, &run] {
    if (heap->count() && !method->count()) a->method = "frontier";
    a->frontier.threads = a->threads ? a->threads : 1024;
    a->frontier.max_points = a->max_points;
    run = [a] { return run_sssp(*a); };
  });
}

}  // namespace gpulin::cli
