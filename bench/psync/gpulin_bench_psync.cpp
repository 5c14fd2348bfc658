// gpulin_bench_psync: the P-Sync parallel heap system (bench/psync/ppq_system.h: the
// heap's kernels from structures/psync, the application kernel, the host controller)
// measured as in the paper's §V (../shared/papers/parallel-heap-psync.txt, issue 11),
// the sequential baseline SeqHeap (bench/psync/seq_heap.h) in the same run, under the
// relaxed hold model (each key handed out brings 0, 1 or 2 new keys, drawn once per
// run and shared by both):
//
//   fig8   s = 2^14, n = 2^17, r = 2^8, think time t swept: the application kernel
//          concurrent with the heap's update steps (its own stream) against after
//          them (one stream).
//   fig9   t = 6000, s = 2^22, n = 2^26, r = 2^8 .. 2^17: the system's time.
//   fig10  s = 2^22, n = 2^26, r = 2^17, t swept: the system against SeqHeap; the
//          speedups are Fig. 11's.
//   fig12  t = 6000, s = 2^22, n = 2^26, r swept: the speedup over SeqHeap.
//   table1 the generalized heap paper's Table 1 workload (bench/psync/insert_delete_all.h):
//          N = 2^26 random, ascending, descending keys inserted into an empty heap,
//          then all deleted, r = 2^10, 2^13, 2^17 (its paper: P-Sync about 2x
//          slower than the generalized heap). gpulin_bench_p1 runs both heaps on
//          the same keys in one run (finding P1); the keys here are drawn apart.
//
// SeqHeap processes --seq-items keys (default 2^17) from the same initial heap of n
// keys, --runs times, and its median is scaled to s linearly (its cost per key is
// steady: the hold model keeps the heap at n keys); the rows say so. Fig. 12 uses
// fig10's SeqHeap at t = 6000 when both run. Every GPU run is checked: each cycle's keys
// sorted and no smaller than the previous cycle's smallest (the application kernel
// checks), and after the last timed run the heap drained and checked at rest (the
// parallel heap property, the number of keys).
//
//   gpulin_bench_psync [--runs N] [--only fig8,fig9,fig10,fig12,table1] [--csv FILE] [--quick]
//                      [--seq-items N] [--seed S]
//
// CSV: section,gpu,r,n,s,t,method,median_s,min_s,max_s,runs,note. Exit codes: 0 every
// check passed (or no CUDA device: a message), 1 a failed check, 2 usage.
#include <cuda_runtime.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "bench/psync/insert_delete_all.h"
#include "bench/psync/ppq_system.h"
#include "bench/psync/seq_heap.h"

namespace {

using namespace gpulin::psync_bench;

struct Options {
  int runs = 3;
  std::string only = "fig8,fig9,fig10,fig12,table1", csv;
  bool quick = false;
  uint64_t seq_items = 1 << 17;
  uint64_t seed = 1;
};

struct Times {
  std::vector<double> v;
  double median() const {
    std::vector<double> s = v;
    std::sort(s.begin(), s.end());
    return s[s.size() / 2];
  }
  double min() const { return *std::min_element(v.begin(), v.end()); }
  double max() const { return *std::max_element(v.begin(), v.end()); }
};

class Bench {
 public:
  explicit Bench(const Options& o) : o_(o) {
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, 0);
    gpu_ = p.name;
    if (!o.csv.empty()) {
      csv_ = std::fopen(o.csv.c_str(), "w");
      std::fprintf(csv_, "section,gpu,r,n,s,t,method,median_s,min_s,max_s,runs,note\n");
    }
    std::printf("gpulin_bench_psync on %s (%d SMs), %d timed runs after one warm-up, medians\n", p.name,
                p.multiProcessorCount, o.runs);
  }
  ~Bench() {
    if (csv_) std::fclose(csv_);
  }
  bool failed() const { return failed_; }

  // The relaxed hold model's counts for s keys (one draw per seed).
  std::vector<uint8_t> counts(uint64_t s) const {
    std::mt19937_64 rng(o_.seed * 7919 + s);
    std::vector<uint8_t> c(s);
    for (auto& x : c) x = static_cast<uint8_t>(rng() % 3);
    return c;
  }

  // The parallel heap system: a warm-up, then o.runs timed runs; the last checked at rest.
  Times ppq(const std::string& section, PpqSystem& sys, const PpqConfig& c, const char* method) {
    Times t;
    for (int i = 0; i <= o_.runs; ++i) {
      const PpqRun r = sys.run(i == o_.runs);
      if (!r.failure.empty()) {
        fail(section, c, method, r.failure);
        return t;
      }
      if (i > 0) t.v.push_back(r.seconds);
    }
    row(section, c, method, t, "");
    return t;
  }

  // Insert all, then delete all (the generalized heap's Table 1), o.runs timed runs.
  void table1(uint64_t n, uint32_t r, const std::string& workload) {
    Times ins, del, total;
    for (int i = 0; i <= o_.runs; ++i) {
      const InsertDeleteAllRun run = insert_delete_all(n, r, workload, o_.seed);
      if (!run.failure.empty()) {
        PpqConfig c;
        c.r = r, c.n = n, c.s = n;
        fail("table1", c, workload.c_str(), run.failure);
        return;
      }
      if (i == 0) continue;
      ins.v.push_back(run.insert_seconds);
      del.v.push_back(run.delete_seconds);
      total.v.push_back(run.insert_seconds + run.delete_seconds);
    }
    std::printf("  table1     %-8s r=2^%-2d N=2^%-2d insert %8.4f s  delete %8.4f s  total %8.4f s [%.4f, %.4f]  %.1f M keys/s\n",
                workload.c_str(), log2(r), log2(n), ins.median(), del.median(), total.median(), total.min(), total.max(),
                n / total.median() / 1e6);
    if (csv_)
      std::fprintf(csv_, "table1,%s,%u,%llu,%llu,0,%s,%.6f,%.6f,%.6f,%zu,insert %.6f s delete %.6f s\n", gpu_.c_str(), r,
                   (unsigned long long)n, (unsigned long long)n, workload.c_str(), total.median(), total.min(),
                   total.max(), total.v.size(), ins.median(), del.median());
    std::fflush(stdout);
  }

  // SeqHeap on the same initial keys and counts: seq_items keys timed (o.runs runs,
  // each from a fresh copy of the heap), the median scaled to s.
  double seq(const std::string& section, const std::vector<uint32_t>& initial, const std::vector<uint8_t>& counts,
             const PpqConfig& c) {
    const uint64_t items = std::min<uint64_t>(o_.seq_items, c.s);
    Times measured, scaled;
    for (int i = 0; i < o_.runs; ++i) {
      SeqHeap heap(initial);
      const auto t0 = std::chrono::steady_clock::now();
      sink_ += heap.hold(items, counts.data(), c.t);
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      measured.v.push_back(secs);
      scaled.v.push_back(secs * double(c.s) / double(items));
    }
    row(section, c, "seqheap", scaled,
        "measured " + std::to_string(items) + " keys in " + fmt_s(measured.median()) + " s (median), scaled to s");
    return scaled.median();
  }

  void speedup(const std::string& section, const PpqConfig& c, double seq_s, double ppq_s) {
    std::printf("  %-10s r=2^%-2d t=%-6u speedup over SeqHeap %.1fx\n", section.c_str(), log2(c.r), c.t, seq_s / ppq_s);
    if (csv_)
      std::fprintf(csv_, "%s,%s,%u,%llu,%llu,%u,speedup,%.4f,,,,seqheap/ppq\n", section.c_str(), gpu_.c_str(), c.r,
                   (unsigned long long)c.n, (unsigned long long)c.s, c.t, seq_s / ppq_s);
  }

 private:
  static int log2(uint64_t x) { return 63 - __builtin_clzll(x); }
  static std::string fmt_s(double s) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3f", s);
    return b;
  }
  void row(const std::string& section, const PpqConfig& c, const char* method, const Times& t, const std::string& note) {
    std::printf("  %-10s r=2^%-2d n=2^%-2d s=2^%-2d t=%-6u %-12s %9.4f s [%.4f, %.4f] %s\n", section.c_str(), log2(c.r),
                log2(c.n), log2(c.s), c.t, method, t.median(), t.min(), t.max(), note.c_str());
    if (csv_)
      std::fprintf(csv_, "%s,%s,%u,%llu,%llu,%u,%s,%.6f,%.6f,%.6f,%zu,%s\n", section.c_str(), gpu_.c_str(), c.r,
                   (unsigned long long)c.n, (unsigned long long)c.s, c.t, method, t.median(), t.min(), t.max(),
                   t.v.size(), note.c_str());
    std::fflush(stdout);
  }
  void fail(const std::string& section, const PpqConfig& c, const char* method, const std::string& why) {
    failed_ = true;
    std::printf("  %-10s r=2^%-2d t=%-6u %-12s FAIL: %s\n", section.c_str(), log2(c.r), c.t, method, why.c_str());
    if (csv_)
      std::fprintf(csv_, "%s,%s,%u,%llu,%llu,%u,%s,FAIL: %s,,,,\n", section.c_str(), gpu_.c_str(), c.r,
                   (unsigned long long)c.n, (unsigned long long)c.s, c.t, method, why.c_str());
  }

  const Options& o_;
  std::string gpu_;
  std::FILE* csv_ = nullptr;
  bool failed_ = false;
  uint64_t sink_ = 0;
};

bool wants(const Options& o, const char* section) { return ("," + o.only + ",").find(std::string(",") + section + ",") != std::string::npos; }

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app("gpulin_bench_psync: the P-Sync parallel heap system against SeqHeap (paper §V)");
  app.add_option("--runs", o.runs, "timed runs per measurement (after one warm-up)")->check(CLI::Range(1, 100));
  app.add_option("--only", o.only, "sections: fig8,fig9,fig10,fig12,table1");
  app.add_option("--csv", o.csv, "write the rows as CSV");
  app.add_option("--seq-items", o.seq_items, "keys SeqHeap processes (scaled to s)")->check(CLI::Range(1, 1 << 30));
  app.add_option("--seed", o.seed, "seed of the keys and the relaxed hold's counts");
  app.add_flag("--quick", o.quick, "a smoke run: small sizes, one run");
  CLI11_PARSE(app, argc, argv);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("gpulin_bench_psync: no CUDA device, nothing measured\n");
    return 0;
  }
  if (o.quick) o.runs = 1;
  Bench b(o);
  const uint64_t big_n = o.quick ? 1 << 16 : 1 << 26, big_s = o.quick ? 1 << 12 : 1 << 22;
  if (wants(o, "fig8")) {
    std::printf("== fig8: concurrent against sequential kernels (s = 2^14, n = 2^17, r = 2^8)\n");
    PpqConfig c;
    c.r = 256, c.n = o.quick ? 1 << 12 : 1 << 17, c.s = o.quick ? 1 << 10 : 1 << 14, c.seed = o.seed;
    const auto counts = b.counts(c.s);
    for (uint32_t t : o.quick ? std::vector<uint32_t>{0, 4000} : std::vector<uint32_t>{0, 4000, 8000, 12000, 16000, 24000}) {
      c.t = t;
      for (bool concurrent : {true, false}) {
        c.concurrent = concurrent;
        PpqSystem sys(c, counts);
        b.ppq("fig8", sys, c, concurrent ? "concurrent" : "sequential");
      }
    }
  }
  std::map<uint32_t, double> ppq_at_r;  // fig9's times, for fig12
  std::vector<uint32_t> rs;
  for (uint32_t r = 1u << 8; r <= (o.quick ? 1u << 10 : 1u << 17); r <<= (o.quick ? 2 : 1)) rs.push_back(r);
  std::vector<uint8_t> big_counts = b.counts(big_s);
  if (wants(o, "fig9") || wants(o, "fig12")) {
    std::printf("== fig9: the system's time against r (t = 6000, s = 2^%d, n = 2^%d)\n", o.quick ? 12 : 22, o.quick ? 16 : 26);
    for (uint32_t r : rs) {
      PpqConfig c;
      c.r = r, c.n = big_n, c.s = big_s, c.t = 6000, c.seed = o.seed;
      PpqSystem sys(c, big_counts);
      const Times t = b.ppq("fig9", sys, c, "ppq");
      if (!t.v.empty()) ppq_at_r[r] = t.median();
    }
  }
  std::vector<uint32_t> initial;
  auto initial_keys = [&](const PpqConfig& c) {
    if (initial.empty()) {
      PpqSystem sys(c, big_counts);
      initial = sys.initial_keys();
    }
    return initial;
  };
  double seq_at_6000 = 0;  // fig10's SeqHeap at t = 6000, fig12's baseline too
  if (wants(o, "fig10")) {
    std::printf("== fig10/11: the system against SeqHeap over think time (r = 2^%d)\n", o.quick ? 10 : 17);
    PpqConfig c;
    c.r = o.quick ? 1 << 10 : 1 << 17, c.n = big_n, c.s = big_s, c.seed = o.seed;
    for (uint32_t t : o.quick ? std::vector<uint32_t>{0, 6000} : std::vector<uint32_t>{0, 1000, 2000, 4000, 6000, 8000, 12000}) {
      c.t = t;
      PpqSystem sys(c, big_counts);
      const Times p = b.ppq("fig10", sys, c, "ppq");
      const double s = b.seq("fig10", initial_keys(c), big_counts, c);
      if (t == 6000) seq_at_6000 = s;
      if (!p.v.empty()) b.speedup("fig11", c, s, p.median());
    }
  }
  if (wants(o, "fig12")) {
    std::printf("== fig12: speedup over SeqHeap against r (t = 6000)\n");
    PpqConfig c;
    c.n = big_n, c.s = big_s, c.t = 6000, c.seed = o.seed;
    c.r = rs.back();
    const double s = seq_at_6000 > 0 ? seq_at_6000 : b.seq("fig12", initial_keys(c), big_counts, c);
    for (const auto& [r, secs] : ppq_at_r) {
      c.r = r;
      b.speedup("fig12", c, s, secs);
    }
  }
  if (wants(o, "table1")) {
    std::printf("== table1: insert N keys into an empty heap, then delete them all (the generalized heap paper's Table 1)\n");
    const uint64_t n = o.quick ? 1 << 16 : 1 << 26;
    for (const char* workload : {"random", "ascend", "descend"})
      for (uint32_t r : o.quick ? std::vector<uint32_t>{1 << 10} : std::vector<uint32_t>{1 << 10, 1 << 13, 1 << 17})
        b.table1(n, r, workload);
  }
  return b.failed() ? 1 : 0;
}
