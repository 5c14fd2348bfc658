// gpulin_bench_cpu: CPU-side throughput of the testbed, each number beside its
// baseline from the same run (design.md, bench/).
//
//   sim      scheduling points per second of the fiber simulator on the generalized
//            heap (TD, BU; PCT, 4 actors x 8 ops, k = 4, search skipped), on a
//            trivial body (4 actors doing M SimContext::load calls, no structure
//            work), and the baseline: a bare Boost.Context fiber switch.
//   witness  check_witness on a generated pq-batch history (1M ops), and the JSONL
//            reader on the same history written to a file; read + witness from
//            that file end to end as `gpulin check` runs it (the keys-only reader
//            and the per-key check) against read_history_file + check_witness.
//   search   check_search on every Jepsen etcd log, and on the Porcupine kv logs
//            with partitioning on and off.
//
// Every number is the median of several runs (min and max beside it). Flags:
//   --quick        small sizes, for a smoke run (ctest bench_smoke)
//   --csv FILE     also write the rows as CSV
//   --runs N       runs per number (default 3)
//   --shared DIR   the shared folder holding external/porcupine (default: ../shared)
//   --only GROUP   one of sim, explore, witness, search (default: every group)
#include <CLI/CLI.hpp>

#include <algorithm>
#include <boost/context/fiber.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "histories/history.h"
#include "histories/import_jepsen_etcd.h"
#include "histories/import_porcupine_kv.h"
#include "histories/jsonl_reader.h"
#include "histories/jsonl_writer.h"
#include "histories/key_history_reader.h"
#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "sim/strategies/pct_strategy.h"
#include "sim/strategies/random_strategy.h"
#include "structures/gheap/sim/heap_explore.h"
#include "verify/pq_linear/lean_witness.h"
#include "verify/search_checker.h"
#include "verify/testing/generate_pq_history.h"
#include "verify/witness_checker.h"

#ifndef GPULIN_SHARED_DIR
#define GPULIN_SHARED_DIR "../shared"
#endif

using namespace gpulin;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct Stats {
  double median = 0, min = 0, max = 0;
  size_t n = 0;
};

Stats stats_of(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.n = v.size();
  s.min = v.front();
  s.max = v.back();
  s.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  return s;
}

// One line of the table and the CSV.
struct Row {
  std::string group, name, metric, unit;
  Stats s;
  std::string note;
};

std::vector<Row> g_rows;

void add_row(std::string group, std::string name, std::string metric, std::string unit, const std::vector<double>& v,
             std::string note = "") {
  Row r{std::move(group), std::move(name), std::move(metric), std::move(unit), stats_of(v), std::move(note)};
  std::fprintf(stderr, "  %-8s %-26s %-14s %12.4g %s  %s\n", r.group.c_str(), r.name.c_str(), r.metric.c_str(),
               r.s.median, r.unit.c_str(), r.note.c_str());
  g_rows.push_back(std::move(r));
}

std::string fmt_num(double x) {
  char buf[64];
  const double a = std::abs(x);
  if (a == 0) std::snprintf(buf, sizeof buf, "0");
  else if (a >= 1e9) std::snprintf(buf, sizeof buf, "%.3f G", x / 1e9);
  else if (a >= 1e6) std::snprintf(buf, sizeof buf, "%.3f M", x / 1e6);
  else if (a >= 1e4) std::snprintf(buf, sizeof buf, "%.1f k", x / 1e3);
  else if (a >= 100) std::snprintf(buf, sizeof buf, "%.1f", x);
  else if (a >= 1) std::snprintf(buf, sizeof buf, "%.3f", x);
  else std::snprintf(buf, sizeof buf, "%.4g", x);
  return buf;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

struct Machine {
  std::string cpu = "unknown", host = "unknown", load_start, load_end;
  unsigned logical = 0;
};

Machine machine() {
  Machine m;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  unsigned procs = 0;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0 && m.cpu == "unknown") {
      auto p = line.find(':');
      if (p != std::string::npos) m.cpu = line.substr(line.find_first_not_of(" \t", p + 1));
    }
    if (line.rfind("processor", 0) == 0) ++procs;
  }
  m.logical = procs ? procs : std::thread::hardware_concurrency();
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) m.host = host;
  return m;
}

std::string loadavg() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a.empty() ? "?" : a + " " + b + " " + c;
}

struct Options {
  bool quick = false;
  std::string csv;
  int runs = 3;
  std::string shared = GPULIN_SHARED_DIR;
  std::string only;  // one group (--only), or every group
};

// ---------------------------------------------------------------- simulator

// Baseline: the bare cost of one Boost.Context fiber switch. The main context and
// one fiber ping-pong; each resume is two switches (there and back).
double fiber_switch_ns(uint64_t round_trips) {
  namespace ctx = boost::context;
  bool stop = false;
  uint64_t count = 0;
  ctx::fiber f{[&](ctx::fiber&& main) {
    while (!stop) {
      ++count;
      main = std::move(main).resume();
    }
    return std::move(main);
  }};
  f = std::move(f).resume();  // warm: the first entry allocates and starts
  const auto t0 = Clock::now();
  for (uint64_t i = 0; i < round_trips; ++i) f = std::move(f).resume();
  const double s = seconds_since(t0);
  stop = true;
  f = std::move(f).resume();  // lets the fiber return
  if (count != round_trips + 1) {
    std::fprintf(stderr, "fiber ping-pong miscounted\n");
    std::exit(1);
  }
  return s * 1e9 / (2.0 * static_cast<double>(round_trips));
}

struct TrivialRun {
  double points_per_s = 0;
  double switches_per_point = 0;  // actor changes seen by the body, per point
  double points_per_run = 0;
};

// The simulator with no structure work: `actors` actors each do `loads`
// SimContext::load calls on their own word, `runs` runs under the strategy.
TrivialRun trivial_sim(sim::Strategy& strategy, uint32_t actors, uint32_t loads, uint64_t runs) {
  sim::Simulator simulator;
  std::vector<uint32_t> words(actors, 1);
  uint32_t last = ~0u;
  uint64_t switches = 0, points = 0;
  uint64_t sink = 0;
  const sim::Simulator::Body body = [&](uint32_t a) {
    sim::SimContext x(simulator, a, nullptr, 1);
    for (uint32_t i = 0; i < loads; ++i) {
      sink += x.load(&words[a]);
      if (a != last) {
        ++switches;
        last = a;
      }
    }
  };
  const auto t0 = Clock::now();
  for (uint64_t r = 0; r < runs; ++r) {
    strategy.begin_run(actors);
    sim::RunResult res = simulator.run(actors, body, strategy, 1'000'000'000);
    strategy.end_run(res.picks.size());
    if (res.outcome != sim::Outcome::Completed) {
      std::fprintf(stderr, "trivial run did not complete: %s\n", res.message.c_str());
      std::exit(1);
    }
    points += res.points;
  }
  const double s = seconds_since(t0);
  if (sink == 0) std::fprintf(stderr, "(sink)\n");
  TrivialRun t;
  t.points_per_s = static_cast<double>(points) / s;
  t.switches_per_point = static_cast<double>(switches) / static_cast<double>(std::max<uint64_t>(points, 1));
  t.points_per_run = static_cast<double>(points) / static_cast<double>(runs);
  return t;
}

void bench_sim(const Options& o) {
  std::fprintf(stderr, "[sim]\n");
  const uint64_t round_trips = o.quick ? 200'000 : 5'000'000;
  std::vector<double> sw;
  fiber_switch_ns(round_trips / 4);  // warm-up, not counted
  for (int r = 0; r < o.runs; ++r) sw.push_back(fiber_switch_ns(round_trips));
  const double switch_ns = stats_of(sw).median;
  add_row("sim", "fiber-switch (baseline)", "ns/switch", "ns", sw,
          "boost::context::fiber ping-pong, " + std::to_string(round_trips) + " round trips");

  const uint64_t schedules = o.quick ? 30 : 2000;
  // Each heap under sc and under the ptx memory mode (the same programs and schedule
  // seeds; under ptx a stale read is one more decision, so the schedules differ),
  // the two interleaved run by run, so that a change in the machine's load between
  // runs falls on both: the ptx row's note gives the median of the runs' ratios.
  for (auto flavor : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp}) {
    struct Mode {
      sim::memory::MemoryMode memory;
      bool coverage = false;  // each run logged and its trace named (explore's default)
      std::vector<double> pps, per_sched;
      std::map<std::string, uint64_t> failures;  // by kind, over all runs
      uint64_t stale = 0;
    };
    Mode modes[3] = {{sim::memory::MemoryMode::Sc, false, {}, {}, {}, 0},
                     {sim::memory::MemoryMode::Ptx, false, {}, {}, {}, 0},
                     {sim::memory::MemoryMode::Sc, true, {}, {}, {}, 0}};
    std::vector<double> ratios, coverage_ratios;
    for (int r = 0; r < o.runs; ++r) {
      for (Mode& m : modes) {
        explore::HeapExploreOptions eo;
        eo.config.flavor = flavor;
        eo.config.variant = gheap::Variant::Fixed;
        eo.config.k = 4;
        eo.config.memory = m.memory;
        eo.shape.actors = 4;
        eo.shape.ops = 8;
        eo.shape.k = 4;
        eo.strategy = "pct";
        eo.schedules = schedules;
        eo.seed = 1;
        eo.judge.search_max_ops = 0;
        eo.shrink = false;
        eo.coverage = m.coverage;
        const explore::ExploreSummary sum = explore::run_heap_explore(eo);
        m.pps.push_back(static_cast<double>(sum.points) / sum.sim_seconds);
        m.per_sched.push_back(static_cast<double>(sum.points) / static_cast<double>(sum.schedules));
        m.stale += sum.stale_reads;
        for (auto& [k, n] : sum.counts) m.failures[explore::to_string(k)] += n;
      }
      ratios.push_back(modes[1].pps.back() / modes[0].pps.back());
      coverage_ratios.push_back(modes[2].pps.back() / modes[0].pps.back());
    }
    for (const Mode& m : modes) {
      const bool ptx = m.memory == sim::memory::MemoryMode::Ptx;
      const double pps_med = stats_of(m.pps).median;
      char note[300];
      std::snprintf(note, sizeof note,
                    "pct, 4 actors x 8 ops, k=4, %llu schedules, %.0f points/schedule, %.1f ns/point = %.1f bare switches",
                    static_cast<unsigned long long>(schedules), stats_of(m.per_sched).median, 1e9 / pps_med,
                    (1e9 / pps_med) / switch_ns);
      std::string extra;
      if (m.coverage) {
        const Stats rs = stats_of(coverage_ratios);
        char ratio[200];
        std::snprintf(ratio, sizeof ratio, "; coverage on (every run logged, its trace named): %.3fx the sc row's points/s (%.3f..%.3f)",
                      rs.median, rs.min, rs.max);
        extra = ratio;
      } else if (ptx) {
        const Stats rs = stats_of(ratios);
        char ratio[200];
        std::snprintf(ratio, sizeof ratio,
                      "; %.3fx the sc row's points/s (median of the runs' ratios, %.3f..%.3f); %llu stale reads in %d runs",
                      rs.median, rs.min, rs.max, static_cast<unsigned long long>(m.stale), o.runs);
        extra = ratio;
      }
      // Judged with the witness only (search skipped): the failures the judge reports.
      std::string judged;
      for (auto& [k, n] : m.failures) judged += (judged.empty() ? "; judged: " : ", ") + k + " " + std::to_string(n);
      add_row("sim", explore::structure_name(flavor) + " fixed" + (ptx ? " ptx" : "") + (m.coverage ? " coverage" : ""),
              "points/s", "1/s", m.pps, note + extra + judged);
    }
  }

  // Trivial body: as many points per run as a heap schedule has, roughly.
  const uint32_t loads = 256;
  const uint64_t runs = o.quick ? 30 : 2000;
  for (std::string strat : {"pct", "random"}) {
    std::vector<double> pps, spp;
    double per_run = 0;
    for (int r = 0; r < o.runs; ++r) {
      std::unique_ptr<sim::Strategy> s;
      if (strat == "pct") s = std::make_unique<sim::PctStrategy>(1 + r, 3);
      else s = std::make_unique<sim::RandomStrategy>(1 + r);
      const TrivialRun t = trivial_sim(*s, 4, loads, runs);
      pps.push_back(t.points_per_s);
      spp.push_back(t.switches_per_point);
      per_run = t.points_per_run;
    }
    const double pps_med = stats_of(pps).median;
    char note[200];
    std::snprintf(note, sizeof note, "4 actors x %u loads, %llu runs, %.0f points/run, %.3f actor changes/point, %.1f ns/point = %.1f bare switches",
                  loads, static_cast<unsigned long long>(runs), per_run, stats_of(spp).median, 1e9 / pps_med,
                  (1e9 / pps_med) / switch_ns);
    add_row("sim", "trivial-body " + strat, "points/s", "1/s", pps, note);
  }
}

// ---------------------------------------------------------------- explore

// The whole exploration (simulator, checkers, counting), judging every schedule's
// history (the baseline, in the same run) and passing a repeat of a history that
// passed unchecked (the default, tools/explore/passed_histories.h), on two
// workloads: the DFS the scale-out docs use (3 actors x 3 ops, bound 2, 80 644
// schedules, few distinct histories), and PCT over a fresh program every schedule
// (4 actors x 8 ops, every history distinct: what the lookups cost where nothing
// repeats).
void bench_explore(const Options& o) {
  std::fprintf(stderr, "[explore]\n");
  for (const std::string strategy : {"dfs", "pct"}) {
    for (bool remember : {false, true}) {
      std::vector<double> secs;
      explore::ExploreSummary last;
      explore::HeapExploreOptions eo;
      eo.config.flavor = gheap::Flavor::TopDown;
      eo.config.variant = gheap::Variant::Fixed;
      eo.config.k = 4;
      eo.shape.k = 4;
      eo.strategy = strategy;
      if (strategy == "dfs") {
        eo.shape.actors = 3;
        eo.shape.ops = o.quick ? 2 : 3;
        eo.preemptions = 2;
        eo.schedules = 100'000'000;
      } else {
        eo.shape.actors = 4;
        eo.shape.ops = 8;
        eo.schedules = o.quick ? 300 : 20'000;
      }
      eo.remember_passed = remember;
      eo.shrink = false;
      eo.coverage = false;  // as measured before coverage existed: the sim rows give its cost
      for (int r = 0; r < o.runs; ++r) {
        last = explore::run_heap_explore(eo);
        secs.push_back(last.total_seconds);
      }
      char note[240];
      std::snprintf(note, sizeof note, "%s %u actors x %u ops%s, gheap-td fixed k=4: %llu schedules, %llu distinct, %llu searched",
                    strategy.c_str(), eo.shape.actors, eo.shape.ops, strategy == "dfs" ? ", bound 2" : ", a program each",
                    static_cast<unsigned long long>(last.schedules),
                    static_cast<unsigned long long>(last.distinct_histories), static_cast<unsigned long long>(last.searched));
      add_row("explore", strategy + (remember ? ", passed remembered" : ", every history (baseline)"), "seconds", "s",
              secs, note);
    }
  }
}

// ---------------------------------------------------------------- witness, JSONL

void bench_witness(const Options& o) {
  std::fprintf(stderr, "[witness]\n");
  const size_t ops = o.quick ? 20'000 : 1'000'000;
  auto t0 = Clock::now();
  const History h = generate_pq_batch_history(ops, 4, 1);
  const double gen_s = seconds_since(t0);
  const double events = static_cast<double>(h.events.size());
  std::fprintf(stderr, "  generated %zu ops, %zu events in %.2f s\n", h.ops.size(), h.events.size(), gen_s);

  std::vector<double> secs, eps;
  for (int r = 0; r < o.runs; ++r) {
    t0 = Clock::now();
    const WitnessResult w = check_witness(h);
    const double s = seconds_since(t0);
    if (w.verdict != Verdict::Linearizable) {
      std::fprintf(stderr, "witness check failed on a generated history: %s\n",
                   w.violation ? w.violation->message.c_str() : "?");
      std::exit(1);
    }
    secs.push_back(s);
    eps.push_back(events / s);
  }
  const std::string size = std::to_string(h.ops.size()) + " ops, " + std::to_string(h.events.size()) + " events";
  add_row("witness", "check_witness pq-batch", "events/s", "1/s", eps, "root-release, k=4, " + size);
  add_row("witness", "check_witness pq-batch", "seconds", "s", secs, size);

  const fs::path path = fs::temp_directory_path() / ("gpulin_bench_" + std::to_string(getpid()) + ".jsonl");
  t0 = Clock::now();
  write_history_file(path.string(), h);
  const double write_s = seconds_since(t0);
  const double mb = static_cast<double>(fs::file_size(path)) / 1e6;
  // Read + witness from the file, end to end, the two ways in turns within each
  // run: as `gpulin check FILE` runs it on a pq-batch history with an lp_rule
  // (tools/check_keyed.cpp: the keys-only reader on every core, the ops against
  // the model, the per-key check; lean_witness.h), and the old path, the
  // baseline: read_history_file, then check_witness.
  std::vector<double> lean_s, lean_eps, old_s, old_eps, read_s, reps, rmbs;
  for (int r = 0; r < o.runs; ++r) {
    t0 = Clock::now();
    const bool passes = pq_witness_passes(read_key_history_file(path.string()));
    lean_s.push_back(seconds_since(t0));
    t0 = Clock::now();
    const History back = read_history_file(path.string());
    const double read = seconds_since(t0);
    const WitnessResult w = check_witness(back);
    old_s.push_back(seconds_since(t0));
    if (back.events.size() != h.events.size() || !passes || w.verdict != Verdict::Linearizable) {
      std::fprintf(stderr, "JSONL round trip lost events, or a path failed the generated history\n");
      std::exit(1);
    }
    lean_eps.push_back(events / lean_s.back());
    old_eps.push_back(events / old_s.back());
    read_s.push_back(read);
    reps.push_back(events / read);
    rmbs.push_back(mb / read);
  }
  fs::remove(path);
  const double lean_med = stats_of(lean_s).median, old_med = stats_of(old_s).median;
  char note[240];
  std::snprintf(note, sizeof note, "%.1f MB file: %.0f MB/s, %.3f s (%.3f..%.3f); %.1fx the old path", mb,
                mb / lean_med, lean_med, stats_of(lean_s).min, stats_of(lean_s).max, old_med / lean_med);
  add_row("jsonl", "read + witness, lean", "events/s", "1/s", lean_eps, note);
  std::snprintf(note, sizeof note, "baseline, same runs: %.0f MB/s, %.3f s (%.3f..%.3f), of it read_history_file %.3f s",
                mb / old_med, old_med, stats_of(old_s).min, stats_of(old_s).max, stats_of(read_s).median);
  add_row("jsonl", "read + witness, old path", "events/s", "1/s", old_eps, note);
  std::snprintf(note, sizeof note, "%.1f MB file, %.0f MB/s; write (once) %.0f k events/s", mb, stats_of(rmbs).median,
                events / write_s / 1e3);
  add_row("jsonl", "read_history_file", "events/s", "1/s", reps, note);
}

// ---------------------------------------------------------------- search suites

std::vector<fs::path> files_matching(const fs::path& dir, const std::function<bool(const std::string&)>& keep) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && keep(e.path().filename().string())) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

void bench_etcd(const Options& o) {
  std::fprintf(stderr, "[etcd]\n");
  const fs::path dir = fs::path(o.shared) / "external/porcupine/jepsen";
  auto files = files_matching(dir, [](const std::string& n) {
    return n.rfind("etcd_", 0) == 0 && n.size() > 4 && n.substr(n.size() - 4) == ".log";
  });
  if (files.empty()) {
    std::fprintf(stderr, "  no etcd logs under %s; skipped\n", dir.c_str());
    return;
  }
  if (o.quick && files.size() > 4) files.resize(4);

  std::vector<double> totals, import_totals;
  std::map<std::string, std::vector<double>> per_file;  // import + check
  std::map<Verdict, int> verdicts;
  for (int r = 0; r < o.runs; ++r) {
    double total = 0, imp = 0;
    verdicts.clear();
    for (const auto& f : files) {
      auto t0 = Clock::now();
      const History h = import_jepsen_etcd(f.string());
      const double ti = seconds_since(t0);
      const SearchResult res = check_search(h);
      const double t = seconds_since(t0);
      per_file[f.filename().string()].push_back(t);
      total += t;
      imp += ti;
      ++verdicts[res.verdict];
    }
    totals.push_back(total);
    import_totals.push_back(imp);
  }
  std::string slowest;
  double slowest_s = -1;
  for (auto& [name, v] : per_file) {
    const double m = stats_of(v).median;
    if (m > slowest_s) slowest_s = m, slowest = name;
  }
  char note[300];
  std::snprintf(note, sizeof note, "%zu files: %d linearizable, %d not, %d undecided; import %.4f s of it",
                files.size(), verdicts[Verdict::Linearizable], verdicts[Verdict::NotLinearizable],
                verdicts[Verdict::Undecided], stats_of(import_totals).median);
  add_row("search", "etcd suite (import+check)", "seconds", "s", totals, note);
  add_row("search", "etcd slowest: " + slowest, "seconds", "s", per_file[slowest], "import + check_search");
}

void bench_kv(const Options& o) {
  std::fprintf(stderr, "[kv]\n");
  const fs::path dir = fs::path(o.shared) / "external/porcupine/kv";
  auto files = files_matching(dir, [&](const std::string& n) {
    if (n.size() < 8 || n[0] != 'c') return false;
    const bool ok = n.size() > 7 && (n.substr(n.size() - 7) == "-ok.txt" || n.substr(n.size() - 8) == "-bad.txt");
    return ok && (!o.quick || n.rfind("c01-", 0) == 0);
  });
  if (files.empty()) {
    std::fprintf(stderr, "  no kv logs under %s; skipped\n", dir.c_str());
    return;
  }
  std::vector<History> hs;
  for (const auto& f : files) hs.push_back(import_porcupine_kv(f.string()));
  for (bool partition : {true, false}) {
    std::vector<double> totals;
    std::map<std::string, std::vector<double>> per_file;
    std::string wrong;
    int undecided = 0;
    // A suite run that takes longer than kSlowSuite seconds is not repeated: its one
    // time is the number (the table's runs column says so).
    constexpr double kSlowSuite = 60;
    for (int r = 0; r < o.runs; ++r) {
      if (r > 0 && totals.back() > kSlowSuite) break;
      double total = 0;
      undecided = 0;
      wrong.clear();
      for (size_t i = 0; i < files.size(); ++i) {
        const std::string name = files[i].filename().string();
        SearchOptions so;
        so.partition = partition;
        const auto t0 = Clock::now();
        const SearchResult res = check_search(hs[i], so);
        const double t = seconds_since(t0);
        total += t;
        per_file[name].push_back(t);
        std::fprintf(stderr, "    %s, %s: %s, %.3f s, %llu states\n", name.c_str(), partition ? "partition" : "no partition",
                     to_string(res.verdict), t, static_cast<unsigned long long>(res.states_explored));
        const bool expect_ok = name.find("-ok.") != std::string::npos;
        if (res.verdict == Verdict::Undecided) ++undecided;
        else if ((res.verdict == Verdict::Linearizable) != expect_ok) wrong += " " + name;
      }
      totals.push_back(total);
    }
    const std::string mode = partition ? "partition on" : "partition off";
    std::string note = std::to_string(files.size()) + " files";
    if (undecided) note += ", " + std::to_string(undecided) + " undecided";
    if (!wrong.empty()) note += ", WRONG VERDICT:" + wrong;
    if (wrong.empty() && !undecided) note += ", verdicts as expected";
    if (totals.size() < static_cast<size_t>(o.runs)) note += "; 1 run only (over 60 s)";
    add_row("search", "kv suite, " + mode, "seconds", "s", totals, note);
    std::string slowest;
    double slowest_s = -1;
    for (auto& [name, v] : per_file) {
      const double med = stats_of(v).median;
      if (med > slowest_s) slowest_s = med, slowest = name;
    }
    add_row("search", "kv slowest: " + slowest, "seconds", "s", per_file[slowest], "check_search, " + mode);
  }
}

void print_table(std::ostream& out, const Machine& m, const Options& o) {
  out << "gpulin_bench_cpu" << (o.quick ? " --quick" : "") << "  (median of " << o.runs << " runs; min..max)\n";
  out << "machine: " << m.host << ", " << m.cpu << ", " << m.logical << " logical cores; load average "
      << m.load_start << " at start, " << m.load_end << " at end\n\n";
  char buf[512];
  std::snprintf(buf, sizeof buf, "%-8s %-34s %-10s %12s %25s  %s\n", "group", "benchmark", "metric", "median",
                "min..max", "note");
  out << buf;
  std::string group;
  for (const Row& r : g_rows) {
    if (!group.empty() && r.group != group) out << "\n";
    group = r.group;
    std::snprintf(buf, sizeof buf, "%-8s %-34s %-10s %12s %25s  %s\n", r.group.c_str(), r.name.c_str(),
                  r.metric.c_str(), fmt_num(r.s.median).c_str(),
                  (fmt_num(r.s.min) + " .. " + fmt_num(r.s.max)).c_str(), r.note.c_str());
    out << buf;
  }
}

void write_csv(const std::string& path, const Machine& m, const Options& o) {
  std::ofstream out(path);
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::exit(2);
  }
  out << "group,benchmark,metric,unit,median,min,max,runs,note,machine,cpu,cores,quick\n";
  for (const Row& r : g_rows) {
    char nums[128];
    std::snprintf(nums, sizeof nums, "%.6g,%.6g,%.6g,%zu", r.s.median, r.s.min, r.s.max, r.s.n);
    out << csv_field(r.group) << ',' << csv_field(r.name) << ',' << csv_field(r.metric) << ',' << csv_field(r.unit)
        << ',' << nums << ',' << csv_field(r.note) << ',' << csv_field(m.host) << ',' << csv_field(m.cpu) << ','
        << m.logical << ',' << (o.quick ? 1 : 0) << '\n';
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"gpulin_bench_cpu: the testbed's CPU-side throughput, each number beside its baseline"};
  app.add_flag("--quick", o.quick, "small sizes, for a smoke run");
  app.add_option("--csv", o.csv, "also write the rows as CSV");
  app.add_option("--runs", o.runs, "runs a number (the median is shown)")->check(CLI::Range(1, 1000));
  app.add_option("--shared", o.shared, "the shared folder holding external/porcupine")->check(CLI::ExistingDirectory);
  app.add_option("--only", o.only, "one group (default: every group)")
      ->check(CLI::IsMember({"sim", "explore", "witness", "search"}));
  CLI11_PARSE(app, argc, argv);
  Machine m = machine();
  m.load_start = loadavg();
  std::fprintf(stderr, "machine: %s, %s, %u logical cores\n", m.host.c_str(), m.cpu.c_str(), m.logical);

  try {
    const auto group = [&o](const char* name) { return o.only.empty() || o.only == name; };
    if (group("sim")) bench_sim(o);
    if (group("explore")) bench_explore(o);
    if (group("witness")) bench_witness(o);
    if (group("search")) {
      bench_etcd(o);
      bench_kv(o);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "benchmark failed: %s\n", e.what());
    return 1;
  }

  m.load_end = loadavg();
  print_table(std::cout, m, o);
  if (!o.csv.empty()) write_csv(o.csv, m, o);
  return 0;
}
