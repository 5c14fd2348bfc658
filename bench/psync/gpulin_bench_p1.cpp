// gpulin_bench_p1: finding P1 of docs/findings.md measured in one program run on one
// GPU: the generalized heap (structures/gheap, Variant::Fixed, TD and BU; the run of
// bench/gheap/heap_runs.h, as gpulin_bench_gheap's table1) against the P-Sync heap
// (structures/psync; the run of bench/psync/insert_delete_all.h, as
// gpulin_bench_psync's table1) on the generalized heap paper's Table 1 workload:
// insert N keys into an empty heap, then delete them all.
//
// Both structures get the same key array, on the device, made once per workload:
// random (the hash stream of gpulin_bench_gheap, never 0xffffffff), ascend (those
// keys sorted) and descend (sorted the other way), N = 2^26 unless --log2n says
// otherwise, inserted in the array's order. Both are timed the same way: a CUDA
// event before and after the insert phase and the delete phase, on an idle GPU (each
// run prepares its memory and keys first, untimed); the total is the sum of the two.
// Each configuration gets one warm-up run, then --runs timed runs (default 5);
// medians. Every run is checked, untimed; a failed check prints FAIL and the
// program exits 1.
//
// How the two structures' operations differ (what "insert all, delete all" means
// for each):
//   generalized heap  nodes of k keys (default 1024). An operation is a batch:
//                     insert up to k keys, or delete the k smallest. Operations are
//                     taken round-robin by `blocks` thread blocks of `threads`
//                     threads (default 128 x 512), which run them concurrently
//                     under per-node locks: the insert phase is ONE kernel launch of
//                     N/k inserts, the delete phase ONE launch of N/k + 1 deletes
//                     (the last finds the heap empty). Each delete's batch comes out
//                     sorted; concurrent deletes are linearizable, so the batches are
//                     not one sorted sequence in launch order. Checked: each batch
//                     sorted, as many keys deleted as inserted, the same multiset,
//                     the heap empty at the end.
//   P-Sync heap       nodes of r keys. The host controller runs cycles; a cycle
//                     takes up to r new keys and hands out up to r smallest: a root
//                     step (one block; a refill block when the root runs short) and
//                     two update steps (§III-B steps 2 and 3: one block per level
//                     with work, one update process a level), each its own kernel
//                     launch, in order on one stream. Here the insert phase is N/r
//                     cycles of r keys that hand out none (each cycle's keys sorted
//                     by one segmented radix sort at the phase's start, timed with
//                     it), the delete phase cycles of no keys that hand out r (each
//                     refills the root from the end of the heap): some 3N/r launches
//                     a phase, issued by the host inside the timed phase. The keys
//                     come out as one sorted sequence. Checked: exactly the keys
//                     inserted, in sorted order.
// So one generalized-heap operation (k keys, one block) and one P-Sync cycle (r
// keys, every level's block at once) are different units; the comparison is of
// the whole phases, each structure at its best settings: the generalized heap at
// k = 1024, 128 x 512 (bench/results/gheap-h200.txt: Fig. 13 is flat in the block
// count, Fig. 14's best is k = 1024 at 256-512 threads; the paper's Table 1
// setting), P-Sync at r = 2^10, 2^13, 2^17 and its best of them (2^13 or 2^17 in
// bench/results/psync-h100.txt).
//
// The GPU, driver, runtime and the commit are printed first; the commit is
// $GPULIN_COMMIT when set, else `git rev-parse --short HEAD` when CMake configured
// the build (GPULIN_BUILD_COMMIT; stale if the tree changed since), else 'unknown'.
//
//   gpulin_bench_p1 [--runs N] [--log2n L] [--quick] [--csv FILE] [--seed S]
//                   [--k K] [--blocks B] [--threads T] [--r-log2 10,13,17]
//
// CSV: gpu,commit,workload,n,structure,setting,runs,ins_s,del_s,total_s,total_min_s,
// total_max_s,check,note. Exit codes: 0 every check passed (or no CUDA device: a
// message), 1 a failed check or a CUDA error, 2 usage.
#include <cuda_runtime.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bench/gheap/heap_runs.h"
#include "bench/psync/insert_delete_all.h"
#include "common/cuda_support.h"
#include "bench/median.h"

#ifndef GPULIN_BUILD_COMMIT
#define GPULIN_BUILD_COMMIT ""
#endif

namespace {

using namespace gpulin;
namespace gb = gpulin::gheap_bench;

struct Options {
  int runs = 5, log2n = 26;
  bool quick = false;
  std::string csv;
  uint64_t seed = 1;
  uint32_t k = 1024, blocks = 128, threads = 512;
  std::vector<int> r_log2 = {10, 13, 17};
};

std::string commit() {
  if (const char* e = std::getenv("GPULIN_COMMIT"); e && *e) return std::string(e) + " (GPULIN_COMMIT)";
  if (*GPULIN_BUILD_COMMIT) return std::string(GPULIN_BUILD_COMMIT) + " (git at configure time)";
  return "unknown";
}

using gpulin::bench::median;

std::string fmt(const char* f, double x) {
  char b[64];
  std::snprintf(b, sizeof b, f, x);
  return b;
}

const char* flavor_name(gheap::Flavor f) { return f == gheap::Flavor::TopDown ? "TD" : "BU"; }

// One configuration's runs: the phases of each timed run and the verdict.
struct Measured {
  std::string workload, structure, setting;  // structure: "gheap TD", "gheap BU", "psync"
  uint32_t r = 0;                            // P-Sync's node capacity
  std::vector<double> ins, del, tot;
  std::string failure;  // empty: every run passed
  bool ok() const { return failure.empty() && !tot.empty(); }
  double total() const { return ok() ? median(tot) : NAN; }
};

class Bench {
 public:
  Bench(const Options& o, std::string gpu, std::string rev) : o_(o), gpu_(std::move(gpu)), commit_(std::move(rev)) {
    if (!o.csv.empty()) {
      csv_ = std::fopen(o.csv.c_str(), "w");
      if (!csv_) throw std::runtime_error("cannot write " + o.csv);
      std::fprintf(csv_, "gpu,commit,workload,n,structure,setting,runs,ins_s,del_s,total_s,total_min_s,total_max_s,"
                         "check,note\n");
    }
    std::printf("  %-8s %-9s %-17s %4s %9s %9s %9s %-21s %8s %s\n", "keys", "structure", "setting", "runs", "insert_s",
                "delete_s", "total_s", "[min, max]", "Mkeys/s", "check");
  }
  ~Bench() {
    if (csv_) std::fclose(csv_);
  }
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;

  bool failed = false, fatal = false;  // fatal: the CUDA context is lost, nothing more runs
  std::vector<Measured> rows;

  // The generalized heap on `keys` (the plan's stream keys): a warm-up, then o.runs.
  void run_gheap(const gb::Plan& p, const uint32_t* keys, gb::Workspace& ws, gheap::DeviceHeap<uint32_t>& heap,
             gheap::Flavor fl) {
    Measured m;
    m.workload = p.name;
    m.structure = std::string("gheap ") + flavor_name(fl);
    m.setting = "k=" + std::to_string(o_.k) + " " + std::to_string(o_.blocks) + "x" + std::to_string(o_.threads);
    for (int i = 0; i <= o_.runs && !fatal; ++i) {
      const gb::RunOut r = runner_.run(p, ws, heap, fl, o_.blocks, o_.threads, o_.seed, nullptr, keys);
      if (!r.ok) {
        m.failure = r.fail + (i == 0 ? " (warm-up run)" : "");
        if (r.fatal) fatal = true;
        break;
      }
      if (i == 0) continue;
      m.ins.push_back(r.col_s[static_cast<int>(gb::Col::Ins)]);
      m.del.push_back(r.col_s[static_cast<int>(gb::Col::Del)]);
      m.tot.push_back(m.ins.back() + m.del.back());
    }
    add(std::move(m), p.n_keys);
  }

  // The P-Sync heap at node capacity r on the same keys: a warm-up, then o.runs.
  void run_psync(const std::string& workload, const uint32_t* keys, uint64_t n, uint32_t r) {
    Measured m;
    m.workload = workload;
    m.structure = "psync";
    m.r = r;
    m.setting = "r=2^" + std::to_string(log2(r));
    for (int i = 0; i <= o_.runs && !fatal; ++i) {
      psync_bench::InsertDeleteAllRun run;
      try {
        run = psync_bench::insert_delete_all(keys, n, r);
      } catch (const std::exception& e) {
        run.failure = e.what();
        if (gb::context_lost()) fatal = true;
      }
      if (!run.failure.empty()) {
        m.failure = run.failure + (i == 0 ? " (warm-up run)" : "");
        break;
      }
      if (i == 0) continue;
      m.ins.push_back(run.insert_seconds);
      m.del.push_back(run.delete_seconds);
      m.tot.push_back(run.insert_seconds + run.delete_seconds);
    }
    add(std::move(m), n);
  }

  static int log2(uint64_t x) { return 63 - __builtin_clzll(x); }

 private:
  void add(Measured m, uint64_t n) {
    if (m.failure.empty() && m.tot.empty()) m.failure = "not run: the CUDA context was lost earlier";
    if (!m.failure.empty()) {
      failed = true;
      std::printf("  %-8s %-9s %-17s FAIL: %s\n", m.workload.c_str(), m.structure.c_str(), m.setting.c_str(),
                  m.failure.c_str());
      if (csv_)
        std::fprintf(csv_, "%s,%s,%s,%llu,%s,%s,0,,,,,,FAIL,\"%s\"\n", gpu_.c_str(), commit_.c_str(),
                     m.workload.c_str(), static_cast<unsigned long long>(n), m.structure.c_str(), m.setting.c_str(),
                     quoted(m.failure).c_str());
    } else {
      const double ins = median(m.ins), del = median(m.del), tot = median(m.tot);
      const double lo = *std::min_element(m.tot.begin(), m.tot.end()), hi = *std::max_element(m.tot.begin(), m.tot.end());
      std::printf("  %-8s %-9s %-17s %4zu %9.4f %9.4f %9.4f [%.4f, %.4f] %8.1f PASS\n", m.workload.c_str(),
                  m.structure.c_str(), m.setting.c_str(), m.tot.size(), ins, del, tot, lo, hi, n / tot / 1e6);
      if (csv_)
        std::fprintf(csv_, "%s,%s,%s,%llu,%s,%s,%zu,%.6f,%.6f,%.6f,%.6f,%.6f,PASS,median of %zu after a warm-up\n",
                     gpu_.c_str(), commit_.c_str(), m.workload.c_str(), static_cast<unsigned long long>(n),
                     m.structure.c_str(), m.setting.c_str(), m.tot.size(), ins, del, tot, lo, hi, m.tot.size());
    }
    std::fflush(stdout);
    if (csv_) std::fflush(csv_);
    rows.push_back(std::move(m));
  }
  static std::string quoted(const std::string& s) {
    std::string o;
    for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o;
  }

  const Options& o_;
  std::string gpu_, commit_;
  std::FILE* csv_ = nullptr;
  gb::Runner runner_;
};

// The table of docs/findings.md's P1: a row per workload, seconds (medians), the
// best P-Sync r against the generalized heap's best flavor.
void summary(const Options& o, const std::vector<Measured>& rows, uint64_t n, const char* gpu, const std::string& commit) {
  auto find = [&](const std::string& wl, const std::string& structure, uint32_t r) -> const Measured* {
    for (const Measured& m : rows)
      if (m.workload == wl && m.structure == structure && m.r == r) return &m;
    return nullptr;
  };
  auto cell = [](const Measured* m) { return !m ? std::string("-") : m->ok() ? fmt("%.3f s", m->total()) : "FAIL"; };
  std::printf("\n== P1: N = 2^%d keys inserted into an empty heap, then all deleted; medians of %d; %s; commit %s\n",
              Bench::log2(n), o.runs, gpu, commit.c_str());
  std::printf("| keys | generalized heap TD | generalized heap BU |");
  for (int r : o.r_log2) std::printf(" P-Sync r = 2^%d |", r);
  std::printf(" P-Sync, best r | ratio |\n|");
  for (size_t i = 0; i < o.r_log2.size() + 5; ++i) std::printf(" --- |");
  std::printf("\n");
  const char* names[][2] = {{"random", "random"}, {"ascend", "ascending"}, {"descend", "descending"}};
  for (const auto& [wl, label] : names) {
    const Measured* td = find(wl, "gheap TD", 0);
    const Measured* bu = find(wl, "gheap BU", 0);
    if (!td && !bu) continue;
    std::printf("| %s | %s | %s |", label, cell(td).c_str(), cell(bu).c_str());
    const Measured* best = nullptr;
    for (int lr : o.r_log2) {
      const Measured* m = find(wl, "psync", 1u << lr);
      std::printf(" %s |", cell(m).c_str());
      if (m && m->ok() && (!best || m->total() < best->total())) best = m;
    }
    const Measured* gbest = nullptr;
    for (const Measured* m : {td, bu})
      if (m && m->ok() && (!gbest || m->total() < gbest->total())) gbest = m;
    if (!best) {
      std::printf(" - | - |\n");
      continue;
    }
    std::printf(" %.3f s (r = 2^%d) |", best->total(), Bench::log2(best->r));
    if (!gbest) {
      std::printf(" - |\n");
      continue;
    }
    const double ratio = best->total() / gbest->total();
    std::printf(" P-Sync %.2fx %s than %s |\n", ratio >= 1 ? ratio : 1 / ratio, ratio >= 1 ? "slower" : "faster",
                gbest->structure == "gheap TD" ? "TD" : "BU");
  }
  std::printf("(ratio: P-Sync's best r against the generalized heap's better flavor, total seconds)\n");
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app("gpulin_bench_p1: the generalized heap against the P-Sync heap, insert all then delete all, one run");
  app.add_option("--runs", o.runs, "timed runs per configuration (after one warm-up); medians")->check(CLI::Range(1, 100));
  app.add_option("--log2n", o.log2n, "N = 2^L keys per workload (default 26; --quick 20)")->check(CLI::Range(10, 30));
  app.add_option("--csv", o.csv, "write the rows as CSV");
  app.add_option("--seed", o.seed, "seed of the key stream");
  app.add_option("--k", o.k, "the generalized heap's node capacity k")->check(CLI::Range(1u, 1u << 14));
  app.add_option("--blocks", o.blocks, "the generalized heap's thread blocks")->check(CLI::Range(1u, 1u << 16));
  app.add_option("--threads", o.threads, "the generalized heap's threads a block")->check(CLI::Range(32u, 1024u));
  app.add_option("--r-log2", o.r_log2, "P-Sync's node capacities r = 2^X, comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(1, 20));
  app.add_flag("--quick", o.quick, "a smoke run: N = 2^20 (unless --log2n), one timed run");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help: 0
  }
  if (o.quick) {
    o.runs = 1;
    if (!app.count("--log2n")) o.log2n = 20;
  }
  const uint64_t n = uint64_t{1} << o.log2n;
  if (n % o.k) {
    std::fprintf(stderr, "gpulin_bench_p1: N = 2^%d is not a multiple of k = %u\n", o.log2n, o.k);
    return 2;
  }
  for (int r : o.r_log2)
    if (r > o.log2n) {
      std::fprintf(stderr, "gpulin_bench_p1: r = 2^%d is more than N = 2^%d\n", r, o.log2n);
      return 2;
    }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("gpulin_bench_p1: no CUDA device, nothing measured\n");
    return 0;
  }
  try {
    cudaDeviceProp p{};
    gb::ck(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    const std::string rev = commit();
    std::printf("gpulin_bench_p1 on %s (%d SMs, %.1f GiB; driver %d.%d, runtime %d.%d), commit %s\n", p.name,
                p.multiProcessorCount, p.totalGlobalMem / 1073741824.0, driver / 1000, driver % 1000 / 10,
                runtime / 1000, runtime % 1000 / 10, rev.c_str());
    std::printf("N = 2^%d keys a workload, the same device array for both structures; a warm-up, then %d timed "
                "run%s a configuration, medians; CUDA events around the insert and the delete phase\n",
                o.log2n, o.runs, o.runs == 1 ? "" : "s");
    std::printf("generalized heap: Variant::Fixed, TD and BU, k = %u, %u blocks x %u threads; P-Sync heap: r =", o.k,
                o.blocks, o.threads);
    for (size_t i = 0; i < o.r_log2.size(); ++i) std::printf("%s 2^%d", i ? "," : "", o.r_log2[i]);
    std::printf("\n\n");
    std::fflush(stdout);

    Bench b(o, p.name, rev);
    const gb::Plan shape = gb::make_full("random", n, o.k);
    gb::Workspace ws;
    ws.allocate(shape.ops(), o.k, shape.n_keys);
    gheap::DeviceHeap<uint32_t> heap(o.k, shape.ins_ops + 1);
    cuda_support::DeviceBuffer<uint32_t> keys(n);
    for (const char* wl : {"random", "ascend", "descend"}) {
      if (b.fatal) break;
      const gb::Plan plan = gb::make_full(wl, n, o.k);
      gb::plan_keys(plan, o.seed, keys.get());
      ws.upload(plan);
      for (gheap::Flavor fl : {gheap::Flavor::TopDown, gheap::Flavor::BottomUp})
        if (!b.fatal) b.run_gheap(plan, keys.get(), ws, heap, fl);
      for (int lr : o.r_log2)
        if (!b.fatal) b.run_psync(wl, keys.get(), n, 1u << lr);
    }
    summary(o, b.rows, n, p.name, rev);
    if (b.fatal) std::printf("the CUDA context was lost: the configurations after the failure did not run\n");
    std::printf("\n%s\n", b.failed ? "FAIL: a check failed or a run did not finish (rows above)" : "every check passed");
    return b.failed ? 1 : 0;
  } catch (const std::exception& e) {
    std::printf("gpulin_bench_p1: error: %s\n", e.what());
    return 1;
  }
}
