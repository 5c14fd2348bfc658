// gpulin knapsack: 0/1 knapsack by best-first branch and bound over the generalized
// heap (the heap paper's §5.7.2) on a generated instance; with --check the answer is
// compared with the optimum by dynamic programming, and the heap's recorded history
// is judged by the witness of its rule.
#include <fmt/core.h>

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>

#include "apps/knapsack/instance.h"
#include "apps/knapsack/knapsack_gpu.h"
#include "apps/knapsack/sequential.h"
#include "common/wall_clock.h"
#include "sim/strategies/random_strategy.h"
#include "tools/commands.h"
#include "structures/gheap/sim/heap_config.h"
#include "apps/knapsack/sim/knapsack_sim.h"
#include "tools/heap_history_report.h"

namespace gpulin::cli {

namespace {

// A recorded GPU search of a paper-sized instance makes ~10^6 events a block: room
// for 2^21 of each (the library's default is smaller; an overflow says what it needed).
knapsack::GpuKnapsackOptions roomy_recorder() {
  knapsack::GpuKnapsackOptions o;
  o.record_events = o.record_keys = 1u << 21;
  return o;
}

struct KnapsackArgs {
  std::string instance = "strongly:16:100", backend = "sim", heap = "gheap-td", out_dir;
  uint64_t seed = 1;
  explore::KnapsackSimOptions sim;
  knapsack::GpuKnapsackOptions gpu = roomy_recorder();
  bool check = false, sequential = false, record = false;
  uint32_t blocks = 64, threads = 256;
  // Unset: the backend's own default (the simulator's small k and pool, the GPU's k = 1024).
  std::optional<uint32_t> k, pool;
  uint32_t gc_threshold = 0;
  std::string order = "bound";
};

// The answer against the optimum, and the recorded history by the witness of its
// rule; true when either fails.
bool judge_run(const KnapsackArgs& a, uint64_t best, uint64_t optimum, const std::optional<History>& history) {
  bool failed = false;
  if (a.check && best != optimum) failed = true, fmt::print("  FAIL: the search found {}, not the optimum\n", best);
  if (history && !report_heap_history(*history, a.out_dir, "knapsack-" + a.heap + "-" + a.backend)) failed = true;
  return failed;
}

int run_knapsack(KnapsackArgs a) {
  knapsack::Instance in;
  try {
    in = knapsack::make_instance(a.instance, a.seed);
    a.sim.flavor = a.gpu.flavor = *explore::parse_structure(a.heap);
    a.sim.record = a.gpu.record = a.record;
    if (a.k) a.gpu.k = a.sim.k = *a.k;
    if (a.pool) a.gpu.pool = a.sim.pool = *a.pool;
    a.gpu.blocks = a.blocks;
    a.sim.gc_threshold = a.gpu.gc_threshold = a.gc_threshold;
    a.sim.order = a.gpu.order = a.order == "profit" ? knapsack::Order::Profit : knapsack::Order::Bound;
    a.gpu.threads = a.threads;
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "gpulin knapsack: {}\n", e.what());
    return int(kBadInput);
  }
  fmt::print("knapsack {} (seed {}): {} items, capacity {}\n", in.name, a.seed, in.size(), in.capacity);
  bool failed = false;
  uint64_t optimum = 0;
  if (a.check) {
    const auto t0 = std::chrono::steady_clock::now();
    optimum = knapsack::optimum_by_dp(in);
    fmt::print("  optimum by dynamic programming: {} ({:.3f} s)\n", optimum, seconds_since(t0));
  }
  if (a.sequential) {
    const auto t0 = std::chrono::steady_clock::now();
    const knapsack::SequentialResult s = knapsack::best_first_sequential(in, a.sim.order);
    fmt::print("  sequential best-first (std::priority_queue): {} ({} nodes explored, {:.3f} s)\n", s.best, s.explored,
               seconds_since(t0));
    if (a.check && s.best != optimum) failed = true, fmt::print("  FAIL: the sequential search found {}\n", s.best);
  }
  if (a.backend == "gpu") {
    knapsack::GpuKnapsackResult g;
    try {
      g = knapsack::knapsack_gpu(in, a.gpu);
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "gpulin knapsack: {}\n", e.what());
      return int(kBadInput);
    }
    fmt::print("  {} fixed on the GPU ({} blocks x {} threads, k={}): best {} ({} nodes explored, {} created, {:.4f} s "
               "of GPU time)\n",
               a.heap, a.gpu.blocks, a.gpu.threads, a.gpu.k, g.best, g.explored, g.created, g.seconds);
    if (a.gc_threshold) fmt::print("  garbage collection: {} sweeps dropped {} dominated nodes\n", g.sweeps, g.collected);
    if (!g.stopped.empty()) failed = true, fmt::print("  FAIL: {}\n", g.stopped);
    failed |= judge_run(a, g.best, optimum, g.history);
    fmt::print("  verdict: {}\n", failed ? "FAIL" : "pass");
    return failed ? int(kViolation) : int(kPass);
  }
  sim::RandomStrategy random(a.seed);
  const auto t0 = std::chrono::steady_clock::now();
  explore::KnapsackSimResult r;
  try {
    r = explore::knapsack_sim(in, a.sim, random);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "gpulin knapsack: {}\n", e.what());
    return int(kBadInput);
  }
  fmt::print("  {} fixed in the simulator ({} actors, k={}, a random schedule): {}; best {} ({} nodes explored, {} "
             "created, {} scheduling points, {:.2f} s)\n",
             a.heap, a.sim.actors, a.sim.k, sim::to_string(r.run.outcome), r.best, r.explored, r.created, r.run.points,
             seconds_since(t0));
  if (a.gc_threshold) fmt::print("  garbage collection: {} sweeps dropped {} dominated nodes\n", r.sweeps, r.collected);
  if (r.run.outcome != sim::Outcome::Completed) failed = true, fmt::print("  FAIL: {}\n", r.run.message);
  failed |= judge_run(a, r.best, optimum, r.history);
  fmt::print("  verdict: {}\n", failed ? "FAIL" : "pass");
  return failed ? int(kViolation) : int(kPass);
}

}  // namespace

void add_knapsack(CLI::App& app, std::function<int()>& run) {
  auto a = std::make_shared<KnapsackArgs>();
  CLI::App* sub = app.add_subcommand("knapsack", "0/1 knapsack by branch and bound over the heap, checked");
  sub->add_option("--instance", a->instance,
                  "TYPE:N[:R]: strongly, almost, evenodd or subset (Martello-Pisinger-Toth types), N items, weights "
                  "in [1, R] (default 1000)");
  sub->add_option("--seed", a->seed, "seed of the instance and of the simulator's schedule");
  sub->add_option("--backend", a->backend, "sim (the simulator, default) or gpu")->check(CLI::IsMember({"sim", "gpu"}));
  sub->add_option("--blocks", a->blocks, "gpu: thread blocks searching")->check(CLI::Range(1, 1 << 16));
  sub->add_option("--threads", a->threads, "gpu: threads a block")->check(CLI::Range(32, 1024));
  sub->add_flag("--record", a->record, "record the heap's operations and judge the history by the witness of its rule");
  sub->add_option("--heap", a->heap, "gheap-td or gheap-bu (the fixed heaps)")->check(CLI::IsMember({"gheap-td", "gheap-bu"}));
  sub->add_option("--actors", a->sim.actors, "sim: actors (simulated blocks) searching")->check(CLI::Range(1, 64));
  sub->add_option("--k", a->k, "the heap's node capacity (default: 8 in the simulator, 1024 on the GPU)")
      ->check(CLI::Range(1, 1024));
  sub->add_option("--lanes", a->sim.threads, "sim: lanes per simulated block")->check(CLI::Range(1, 1024));
  sub->add_option("--pool", a->pool, "node slots (nodes alive at once; default: 2^20 in the simulator, 2^24 on the GPU)")
      ->check(CLI::Range(1u, 1u << 28));
  sub->add_option("--record-events", a->gpu.record_events, "gpu --record: events each block may record")
      ->check(CLI::Range(1u << 10, 1u << 26));
  sub->add_option("--record-keys", a->gpu.record_keys, "gpu --record: keys each block may record")
      ->check(CLI::Range(1u << 10, 1u << 26));
  sub->add_option("--order", a->order,
                  "the heap's key: bound (the node of largest Dantzig bound first, default) or profit (largest profit "
                  "so far first, the paper's key; the sequential search too)")
      ->check(CLI::IsMember({"bound", "profit"}));
  sub->add_option("--gc", a->gc_threshold,
                  "garbage collection: sweep the dominated nodes out of the heap past this many nodes pending (0: "
                  "none)");
  sub->add_option("--max-points", a->sim.max_points, "scheduling points before a run counts as a livelock");
  sub->add_option("--out", a->out_dir, "write the heap's history as JSON Lines to this folder");
  sub->add_flag("--check", a->check, "compare the answer with the optimum by dynamic programming");
  sub->add_flag("--sequential", a->sequential, "also run the sequential best-first search (the paper's CPU baseline)");
  sub->callback([a, &run] { run = [a] { return run_knapsack(*a); }; });
}

}  // namespace gpulin::cli
