// gpulin_bench_gheap: the concurrent generalized heap (TD = Flavor::TopDown,
// BU = Flavor::BottomUp, Variant::Fixed) on the GPU, measured as in the paper's §5
// (../shared/papers/concurrent-generalized-heap.txt), with its baselines in the same
// run (design.md, bench/):
//
//   table1  insert N random / ascending / descending 32-bit keys into an empty heap,
//           then delete them all (128 blocks x 512 threads, k = 1024), N = 2^29 (one
//           run each: ~10 s a run) and N = 2^26 (median of 3). Insert and delete
//           phases are timed apart (cudaEvent). Beside each workload: CUB's radix
//           sort of the same keys (cub::DeviceRadixSort::SortKeys, temp storage
//           preallocated) - the floor - and the heap/sort time ratio. And the
//           authors' TD and BU heaps (ruadapt/BGPQ, original_bgpq.h) on the same
//           keys at their benchmark's 32 x 512 and at 128 x 512, when the build has
//           them (scripts/fetch-originals.sh): rows authors-TD / authors-BU, each
//           note with ours against it.
//   cpu     std::priority_queue<uint32_t, vector, greater> on the host: push all,
//           pop all, on N' = min(N, 2^26) keys, scaled linearly to N (said so in the
//           note). It runs in a background thread while the GPU sections run.
//   record  the TD heap with device recording on (DeviceRecorder sized as in
//           structures/gheap/gpu/heap_stress.cpp) against the same run without: overhead in %.
//   fig13   thread blocks 32 ... 1024 (k = 1024, 512 threads, N = 2^24 random).
//   fig14   k in {64 ... 1024} x threads in {128 ... 1024} (N = 2^24 random, TD;
//           --fig14-both adds BU).
//   fig15   initial heap of 2^L - 1 nodes (L in {10, 12, 14, 16}), then 2^20 keys
//           of insert-delete pairs, each block alternating ins and del as in the
//           paper (workload insdel:L, structures/gheap/gpu/workload_shape.h, the same
//           operations as `gpulin stress`); only the pairs are timed. The paper
//           used 2^18 pairs.
//   fig16   0, 25, 50, 75, 100 % of the inserts partial (workload partial:P).
//
// Every heap run is checked, untimed: each delete's batch sorted, as many keys
// deleted as inserted, the multiset of deleted keys equal to the inserted one
// (sorted device copies compared), the heap empty at the end. A failure prints a
// FAIL row. Numbers are medians of 3 runs unless the note says otherwise (runs over
// 20 s, or the time budget, give 1 run; the note says which).
//
// Flags:
//   --quick          small sizes, every section once (a few seconds)
//   --csv FILE       also write the rows as CSV (GPU name in every row)
//   --max-log2n L    cap every N at 2^L (default 29; at most 30)
//   --only S[,S..]   sections: table1 cpu record fig13 fig14 fig15 fig16
//   --budget-s S     soft time budget (default 400 s; --quick 90 s): beyond it
//                    medians fall back to single runs, then sections are skipped
//   --fig14-both     Fig. 14 for BU too (doubles its time)
//   --seed S         key stream seed (default 1)
//   --backoff F,M    the root's waiters sleep F ns, doubling up to M ns, between
//                    attempts (default 0,0: they spin, cuda/watchdog.h)
//   --no-authors     leave out the authors' rows (a sweep of our own settings)
// A watchdog ends the program (exit 3) 70 s after the soft budget, keeping the rows
// printed so far. Exit codes: 0 all checks passed, 1 a FAIL row, 2 usage, 3 watchdog.
#include <CLI/CLI.hpp>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <queue>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench/gheap/heap_runs.h"
#include "bench/gheap/original_bgpq.h"
#include "histories/device_recorder.h"
#include "structures/gheap/bit_reversal.h"
#include "structures/gheap/gpu/device_heap.h"

using namespace gpulin;
using namespace gpulin::gheap_bench;  // the plans, their device arrays, one checked run
using gheap::Flavor;
using Clock = std::chrono::steady_clock;

namespace {

// ------------------------------------------------------------------ anchors
// Reference times to compare with. Source: the numbers given with this benchmark's
// brief - the authors' public implementation measured on an H100 (k = 1024, 128
// blocks x 512 threads, built with the L1-bypassing load flag, design.md) and CUB's
// radix sort on the same H100 - and the paper's Table 1 (TITAN X, 512M keys, ms).
struct Anchor {
  const char* source;
  int log2n;
  const char* workload;  // random | ascend | descend
  const char* heap;      // TD | BU | CUB | STL
  double seconds;
};
constexpr Anchor kAnchors[] = {
    {"authors' code, H100", 29, "random", "TD", 9.4},  // both ~9.4 s (57 M keys/s)
    {"authors' code, H100", 29, "random", "BU", 9.4},
    {"authors' code, H100", 26, "random", "TD", 1.18},
    {"authors' code, H100", 26, "random", "BU", 1.20},
    {"authors' code, H100", 26, "ascend", "TD", 0.94},
    {"authors' code, H100", 26, "ascend", "BU", 1.14},
    {"CUB radix sort, H100", 29, "random", "CUB", 0.011},
    {"paper Table 1, TITAN X", 29, "random", "TD", 112.090},
    {"paper Table 1, TITAN X", 29, "descend", "TD", 100.163},
    {"paper Table 1, TITAN X", 29, "ascend", "TD", 99.082},
    {"paper Table 1, TITAN X", 29, "random", "BU", 104.417},
    {"paper Table 1, TITAN X", 29, "descend", "BU", 97.593},
    {"paper Table 1, TITAN X", 29, "ascend", "BU", 96.247},
    {"paper Table 1, Xeon E5-2620 STL heap", 29, "random", "STL", 1959.550},
    {"paper Table 1, Xeon E5-2620 STL heap", 29, "descend", "STL", 1898.015},
    {"paper Table 1, Xeon E5-2620 STL heap", 29, "ascend", "STL", 1214.906},
};

// ------------------------------------------------------------------ report
double median_of(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

struct Row {
  std::string section, name, heap;
  uint64_t n = 0;
  uint32_t k = 0, blocks = 0, threads = 0;
  int runs = 0;
  double ins_s = NAN, del_s = NAN, total_s = NAN, min_s = NAN, max_s = NAN;
  double keys_per_s = NAN, ins_keys_per_s = NAN, del_keys_per_s = NAN;
  std::string check = "n/a", note;
};

std::string log2_str(uint64_t n) {
  if (n && (n & (n - 1)) == 0) {
    int l = 0;
    while ((1ull << l) < n) ++l;
    return "2^" + std::to_string(l);
  }
  return std::to_string(n);
}
std::string fmt_g(double x, const char* f = "%.4g") {
  if (std::isnan(x)) return "-";
  char b[64];
  std::snprintf(b, sizeof b, f, x);
  return b;
}
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}
std::string csv_num(double x) {
  if (std::isnan(x)) return "";
  char b[64];
  std::snprintf(b, sizeof b, "%.9g", x);
  return b;
}

class Report {
 public:
  std::string gpu = "unknown";
  void open_csv(const std::string& path) {
    csv_ = std::fopen(path.c_str(), "w");
    if (!csv_) throw std::runtime_error("cannot write " + path);
    std::fprintf(csv_,
                 "gpu,section,name,heap,n,k,blocks,threads,runs,ins_s,del_s,total_s,total_min_s,total_max_s,"
                 "keys_per_s,ins_keys_per_s,del_keys_per_s,check,note\n");
    std::fflush(csv_);
  }
  void header() {
    std::printf("%-7s %-11s %-4s %5s %5s %5s %5s %4s %9s %9s %9s %9s %8s %8s %-5s %s\n", "section", "name", "heap", "N",
                "k", "blk", "thr", "runs", "ins_s", "del_s", "total_s", "Mkeys/s", "insMk/s", "delMk/s", "check",
                "note");
    std::fflush(stdout);
  }
  void add(Row r) {
    std::lock_guard<std::mutex> g(m_);
    if (r.check.rfind("FAIL", 0) == 0) ++failures;
    std::printf("%-7s %-11s %-4s %5s %5u %5u %5u %4d %9s %9s %9s %9s %8s %8s %-5s %s\n", r.section.c_str(),
                r.name.c_str(), r.heap.c_str(), log2_str(r.n).c_str(), r.k, r.blocks, r.threads, r.runs,
                fmt_g(r.ins_s).c_str(), fmt_g(r.del_s).c_str(), fmt_g(r.total_s).c_str(),
                fmt_g(r.keys_per_s / 1e6, "%.2f").c_str(), fmt_g(r.ins_keys_per_s / 1e6, "%.1f").c_str(),
                fmt_g(r.del_keys_per_s / 1e6, "%.1f").c_str(), r.check.c_str(), r.note.c_str());
    std::fflush(stdout);
    if (csv_) {
      std::fprintf(csv_, "%s,%s,%s,%s,%llu,%u,%u,%u,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", csv_field(gpu).c_str(),
                   csv_field(r.section).c_str(), csv_field(r.name).c_str(), csv_field(r.heap).c_str(),
                   static_cast<unsigned long long>(r.n), r.k, r.blocks, r.threads, r.runs, csv_num(r.ins_s).c_str(),
                   csv_num(r.del_s).c_str(), csv_num(r.total_s).c_str(), csv_num(r.min_s).c_str(),
                   csv_num(r.max_s).c_str(), csv_num(r.keys_per_s).c_str(), csv_num(r.ins_keys_per_s).c_str(),
                   csv_num(r.del_keys_per_s).c_str(), csv_field(r.check).c_str(), csv_field(r.note).c_str());
      std::fflush(csv_);
    }
    rows.push_back(std::move(r));
  }
  ~Report() {
    if (csv_) std::fclose(csv_);
  }
  std::vector<Row> rows;
  int failures = 0;

 private:
  std::FILE* csv_ = nullptr;
  std::mutex m_;
};

// ------------------------------------------------------------------ time budget
// Each section gets a share of the soft budget plus what earlier sections left
// (or minus what they overran). Every configuration gets one run; it gets two more
// (median of 3) when the section, after them, still has room for one run of each
// configuration left - estimated from the first runs so far, per unit of weight
// (a configuration's operation count) - or when they are cheap (< 0.5 s together).
class Pacer {
 public:
  explicit Pacer(double budget) : t0_(Clock::now()), budget_(budget) {}
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }
  bool out_of_time() const { return elapsed() > budget_; }
  void begin(double share, double total_weight) {
    sec_t0_ = elapsed();
    allow_ = share * budget_ + carry_;
    total_w_ = total_weight;
    done_w_ = first_s_ = first_w_ = 0;
  }
  void end() { carry_ = allow_ - (elapsed() - sec_t0_); }
  bool may_repeat(double run_s, int extra, double weight) const {
    const double more = extra * run_s;
    if (elapsed() + more > budget_) return false;
    if (more < 0.5) return true;
    const double rate = (first_s_ + run_s) / std::max(first_w_ + weight, 1e-9);
    const double reserve = std::max(0.0, total_w_ - done_w_ - weight) * rate;
    return (elapsed() - sec_t0_) + more + reserve <= allow_;
  }
  // A configuration is finished; `first_s` its first run's wall time (NaN: skipped).
  void done(double weight, double first_s) {
    done_w_ += weight;
    if (!std::isnan(first_s)) {
      first_s_ += first_s;
      first_w_ += weight;
    }
  }

 private:
  Clock::time_point t0_;
  double budget_;
  double sec_t0_ = 0, allow_ = 0, carry_ = 0, total_w_ = 0, done_w_ = 0, first_s_ = 0, first_w_ = 0;
};

// ------------------------------------------------------------------ CPU baseline
struct CpuResult {
  std::string workload;
  uint64_t n = 0;
  double push_s = NAN, pop_s = NAN;
  bool ok = false, aborted = false;
  std::string msg;
};

class CpuBaseline {
 public:
  void start(uint64_t n, uint64_t seed) {
    th_ = std::thread([this, n, seed] { work(n, seed); });
  }
  void stop() { stop_ = true; }
  bool finished() const { return finished_; }
  std::vector<CpuResult> join() {
    if (th_.joinable()) th_.join();
    return results_;
  }
  ~CpuBaseline() {
    stop_ = true;
    if (th_.joinable()) th_.join();
  }

 private:
  // A min-queue with room for every key up front. (Built from a reserved vector
  // instead, its constructor's make_heap over the empty range draws a GCC 13
  // -Waggressive-loop-optimizations false positive.)
  struct ReservedMinQueue : std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> {
    void reserve(size_t n) { c.reserve(n); }
  };
  // Push all, pop all. Checked: pops nondecreasing, as many as pushed, same sum.
  CpuResult run_pq(const std::string& name, const std::vector<uint32_t>& keys) {
    CpuResult r;
    r.workload = name;
    r.n = keys.size();
    ReservedMinQueue pq;
    pq.reserve(keys.size());
    uint64_t sum_in = 0, sum_out = 0, popped = 0;
    bool sorted = true;
    auto t0 = Clock::now();
    for (size_t i = 0; i < keys.size(); ++i) {
      pq.push(keys[i]);
      sum_in += keys[i];
      if ((i & 0xffff) == 0 && stop_) {
        r.aborted = true;
        r.msg = "stopped (time budget) after " + std::to_string(i) + " pushes";
        return r;
      }
    }
    auto t1 = Clock::now();
    uint32_t last = 0;
    while (!pq.empty()) {
      const uint32_t v = pq.top();
      pq.pop();
      if (v < last) sorted = false;
      last = v;
      sum_out += v;
      if ((++popped & 0xffff) == 0 && stop_) {
        r.aborted = true;
        r.msg = "stopped (time budget) after " + std::to_string(popped) + " pops";
        return r;
      }
    }
    auto t2 = Clock::now();
    r.push_s = std::chrono::duration<double>(t1 - t0).count();
    r.pop_s = std::chrono::duration<double>(t2 - t1).count();
    r.ok = sorted && popped == keys.size() && sum_in == sum_out;
    if (!r.ok) r.msg = "pops out of order or keys lost";
    return r;
  }
  void work(uint64_t n, uint64_t seed) {
    std::vector<uint32_t> keys(n);
    for (uint64_t i = 0; i < n; ++i) keys[i] = stream_key(seed, i);
    results_.push_back(run_pq("random", keys));
    if (!stop_) {
      std::sort(keys.begin(), keys.end());
      results_.push_back(run_pq("ascend", keys));
    }
    if (!stop_) {
      std::reverse(keys.begin(), keys.end());
      results_.push_back(run_pq("descend", keys));
    }
    finished_ = true;
  }
  std::thread th_;
  std::atomic<bool> stop_{false}, finished_{false};
  std::vector<CpuResult> results_;
};

// ------------------------------------------------------------------ options
struct Options {
  bool quick = false, fig14_both = false, authors = true;
  std::string csv;
  std::vector<std::string> only;  // sections to run; empty: every one
  int max_log2n = 29;
  uint64_t seed = 1;
  double budget_s = -1;
  uint32_t backoff_first_ns = cuda_exec::WatchdogRef{}.backoff_first_ns;
  uint32_t backoff_max_ns = cuda_exec::WatchdogRef{}.backoff_max_ns;
};

bool selected(const Options& o, const std::string& s) {
  return o.only.empty() || std::find(o.only.begin(), o.only.end(), s) != o.only.end();
}

const char* heap_name(Flavor f) { return f == Flavor::TopDown ? "TD" : "BU"; }

// ------------------------------------------------------------------ the bench
class Bench {
 public:
  Bench(const Options& o, Report& rep, Pacer& pacer) : o_(o), rep_(rep), pacer_(pacer) {
    runner_.set_backoff(o.backoff_first_ns, o.backoff_max_ns);
    ck(cudaEventCreate(&e0_), "cudaEventCreate");
    ck(cudaEventCreate(&e1_), "cudaEventCreate");
  }
  ~Bench() {
    cudaEventDestroy(e0_);
    cudaEventDestroy(e1_);
  }
  bool fatal = false;
  // Results kept for the summary: total seconds by (log2n, workload, heap).
  std::map<std::string, double> totals;
  std::map<std::string, double> cub;
  double rec_plain = NAN, rec_on = NAN;
  uint64_t rec_n = 0;
  std::vector<uint64_t> table1_n;  // the N of Table 1 actually used
  std::string table1_note;
  std::string mem_note, table1_mem;
  bool authors_said_ = false;  // device memory of the last fit / of the largest Table 1 run

  static std::string key(uint64_t n, const std::string& wl, const std::string& heap) {
    return log2_str(n) + "/" + wl + "/" + heap;
  }

  // Runs a configuration once, then twice more when the budget allows; one row.
  Row measure(const std::string& section, const Plan& p, Workspace& ws, gheap::DeviceHeap<uint32_t>& heap, Flavor fl,
              uint32_t blocks, uint32_t threads, double weight, std::string note = "", DeviceRecorder* rec = nullptr,
              const char* heap_label = nullptr, double single_over_s = 20) {
    Row row;
    row.section = section;
    row.name = p.name;
    row.heap = heap_label ? heap_label : heap_name(fl);
    row.n = p.n_keys;
    row.k = p.k;
    row.blocks = blocks;
    row.threads = threads;
    if (fatal || pacer_.out_of_time()) {
      row.check = "SKIP";
      row.note = fatal ? "CUDA context lost by an earlier failure" : "time budget spent";
      pacer_.done(weight, NAN);
      return row;
    }
    std::vector<RunOut> runs;
    runs.push_back(runner_.run(p, ws, heap, fl, blocks, threads, o_.seed, rec));
    std::string reps;
    if (runs[0].ok) {
      const double w = runs[0].wall_s;
      if (w > single_over_s) {
        reps = "1 run (a run takes " + fmt_g(w, "%.1f") + " s, over " + fmt_g(single_over_s, "%.0f") + " s)";
      } else if (pacer_.may_repeat(w, 2, weight)) {
        for (int i = 0; i < 2 && runs.back().ok; ++i)
          runs.push_back(runner_.run(p, ws, heap, fl, blocks, threads, o_.seed, rec));
        if (runs.back().ok) reps = "median of 3";
      } else {
        reps = "1 run (time budget; a run takes " + fmt_g(w, "%.1f") + " s)";
      }
    }
    pacer_.done(weight, runs[0].wall_s);
    std::vector<double> ins, del, tot;
    for (const RunOut& r : runs) {
      if (!r.ok) continue;
      ins.push_back(r.col_s[0]);
      del.push_back(r.col_s[1]);
      tot.push_back(r.col_s[0] + r.col_s[1] + r.col_s[2]);
    }
    const RunOut& last = runs.back();
    row.runs = static_cast<int>(tot.size());
    if (!last.ok) {
      row.check = "FAIL";
      reps = last.fail + (last.fatal ? " [CUDA context lost: remaining sections skipped]" : "");
      if (last.fatal) fatal = true;
    } else {
      row.check = "PASS";
    }
    if (!tot.empty()) {
      const bool has_ins = std::any_of(p.phases.begin(), p.phases.end(), [](auto& ph) { return ph.col == Col::Ins; });
      if (has_ins) {
        row.ins_s = median_of(ins);
        row.del_s = median_of(del);
        row.ins_keys_per_s = p.n_keys / row.ins_s;
        row.del_keys_per_s = p.n_keys / row.del_s;
      }
      row.total_s = median_of(tot);
      row.min_s = *std::min_element(tot.begin(), tot.end());
      row.max_s = *std::max_element(tot.begin(), tot.end());
      row.keys_per_s = p.n_keys / row.total_s;
    }
    row.note = reps + (note.empty() ? "" : "; " + note);
    return row;
  }

  // CUB's radix sort of the plan's N keys (the insert slots are exactly them for a
  // full-batch plan): 1 warm-up, median of 5; temp storage allocated beforehand.
  Row cub_sort(const std::string& section, const Plan& p, Workspace& ws) {
    Row row;
    row.section = section;
    row.name = p.name;
    row.heap = "CUB";
    row.n = p.n_keys;
    if (fatal) {
      row.check = "SKIP";
      row.note = "CUDA context lost by an earlier failure";
      return row;
    }
    try {
      ws.generate(p, o_.seed);
      std::vector<double> t;
      for (int i = 0; i < 6; ++i) {
        size_t bytes = ws.temp_bytes;
        ck(cudaEventRecord(e0_), "cudaEventRecord");
        ck(sort_plain(ws.temp, bytes, ws.keys, ws.alt, p.n_keys), "cub::DeviceRadixSort::SortKeys");
        ck(cudaEventRecord(e1_), "cudaEventRecord");
        ck(cudaEventSynchronize(e1_), "cudaEventSynchronize");
        float ms = 0;
        ck(cudaEventElapsedTime(&ms, e0_, e1_), "cudaEventElapsedTime");
        if (i) t.push_back(ms / 1e3);
      }
      row.runs = 5;
      row.total_s = median_of(t);
      row.min_s = *std::min_element(t.begin(), t.end());
      row.max_s = *std::max_element(t.begin(), t.end());
      row.keys_per_s = p.n_keys / row.total_s;
      row.check = "n/a";
      row.note = "cub::DeviceRadixSort::SortKeys of the same keys, temp preallocated; median of 5 after a warm-up";
    } catch (const std::exception& e) {
      row.check = "FAIL";
      row.note = e.what();
      if (context_lost()) fatal = true;
    }
    return row;
  }

  // Allocates workspace and heap for `p`, halving N (for make_full plans) while
  // the GPU has no room. Returns the plan used; `why` says what was reduced.
  std::optional<Plan> fit(const std::string& kind, uint64_t N, uint32_t k, Workspace& ws,
                          std::unique_ptr<gheap::DeviceHeap<uint32_t>>& heap, std::string& why) {
    const uint64_t want = N;
    while (N >= std::max<uint64_t>(k, 1ull << 16)) {
      Plan p = make_full(kind, N, k);
      size_t free_b = 0, total_b = 0;
      ck(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
      const size_t need = Workspace::bytes_for(p.ops(), k, p.n_keys) + heap_bytes(k, p.ins_ops + 1);
      std::string err;
      if (need + (size_t(512) << 20) > free_b) {
        err = "needs " + fmt_g(need / 1073741824.0, "%.1f") + " GiB, " + fmt_g(free_b / 1073741824.0, "%.1f") +
              " GiB free";
      } else {
        try {
          heap = nullptr;
          ws.allocate(p.ops(), k, p.n_keys);
          heap = std::make_unique<gheap::DeviceHeap<uint32_t>>(k, p.ins_ops + 1);
          if (N != want) why = "N reduced from " + log2_str(want) + " to " + log2_str(N) + ": " + why;
          mem_note = fmt_g((Workspace::bytes_for(p.ops(), k, p.n_keys)) / 1073741824.0, "%.1f") +
                     " GiB op arrays + " + fmt_g(heap->bytes() / 1073741824.0, "%.1f") + " GiB heap";
          return p;
        } catch (const std::exception& e) {
          err = e.what();
          heap = nullptr;
          ws.release();
          if (context_lost()) {
            fatal = true;
            return std::nullopt;
          }
        }
      }
      why += (why.empty() ? "" : "; ") + log2_str(N) + " " + err;
      N /= 2;
    }
    return std::nullopt;
  }

  // ---------------------------------------------------------------- sections
  // Loads the heap kernels (lazy module loading would otherwise land in the first
  // timed run) and checks both heaps once on a small run before anything big.
  void warmup() {
    const uint32_t k = 1024;
    Plan p = make_full("random", 1ull << 14, k);
    Workspace ws;
    ws.allocate(p.ops(), k, 0);
    ws.upload(p);
    gheap::DeviceHeap<uint32_t> heap(k, p.ins_ops + 1);
    for (Flavor fl : {Flavor::TopDown, Flavor::BottomUp}) {
      const RunOut r = runner_.run(p, ws, heap, fl, 128, 512, o_.seed);
      if (!r.ok) {
        Row row;
        row.section = "warmup";
        row.name = p.name;
        row.heap = heap_name(fl);
        row.n = p.n_keys;
        row.k = k;
        row.blocks = 128;
        row.threads = 512;
        row.check = "FAIL";
        row.note = r.fail + (r.fatal ? " [CUDA context lost: every section skipped]" : "");
        rep_.add(row);
        if (r.fatal) {
          fatal = true;
          return;
        }
      }
    }
  }

  void table1(const std::vector<int>& logs, const std::vector<double>& shares) {
    const uint32_t k = 1024, blocks = 128, threads = 512;
    const char* wls[] = {"random", "ascend", "descend"};
    for (size_t li = 0; li < logs.size(); ++li) {
      const uint64_t N = 1ull << logs[li];
      pacer_.begin(shares[li], 6.0);
      if (fatal || pacer_.out_of_time()) {
        Row r;
        r.section = "table1";
        r.name = "all";
        r.heap = "-";
        r.n = N;
        r.check = "SKIP";
        r.note = fatal ? "CUDA context lost by an earlier failure" : "time budget spent";
        rep_.add(r);
        pacer_.end();
        continue;
      }
      Workspace ws;
      std::unique_ptr<gheap::DeviceHeap<uint32_t>> heap;
      std::string why;
      std::optional<Plan> fitted;
      try {
        fitted = fit("random", N, k, ws, heap, why);
      } catch (const std::exception& e) {
        why = e.what();
      }
      if (!fitted) {
        Row r;
        r.section = "table1";
        r.name = "all";
        r.heap = "-";
        r.n = N;
        r.check = "FAIL";
        r.note = "no room on the GPU: " + why;
        rep_.add(r);
        pacer_.end();
        continue;
      }
      const uint64_t n_used = fitted->n_keys;
      if (std::find(table1_n.begin(), table1_n.end(), n_used) != table1_n.end()) {
        pacer_.end();
        continue;  // a reduced N that an earlier row set already measured
      }
      table1_n.push_back(n_used);
      if (table1_n.size() == 1) table1_mem = mem_note;
      if (!why.empty()) table1_note += (table1_note.empty() ? "" : "; ") + why;
      for (const char* wl : wls) {
        Plan p = make_full(wl, n_used, k);
        try {
          ws.upload(p);
        } catch (const std::exception& e) {
          Row r;
          r.section = "table1";
          r.name = wl;
          r.heap = "-";
          r.n = n_used;
          r.check = "FAIL";
          r.note = e.what();
          rep_.add(r);
          if (context_lost()) fatal = true;
          continue;
        }
        Row c = cub_sort("table1", p, ws);
        if (!why.empty()) c.note += "; " + why;
        if (!std::isnan(c.total_s)) cub[key(n_used, wl, "CUB")] = c.total_s;
        rep_.add(c);
        for (Flavor fl : {Flavor::TopDown, Flavor::BottomUp}) {
          // The largest N: one run each when a run takes over 5 s (the paper's
          // 2^29 takes ~10 s a run); medians of 3 at the smaller N.
          Row r = measure("table1", p, ws, *heap, fl, blocks, threads, 1.0, why, nullptr, nullptr, li == 0 ? 5.0 : 20.0);
          if (r.check == "PASS") {
            totals[key(n_used, wl, r.heap)] = r.total_s;
            if (!std::isnan(c.total_s)) r.note += "; heap/CUB-sort = " + fmt_g(r.total_s / c.total_s, "%.0f") + "x";
            for (const Anchor& a : kAnchors)
              if ((1ull << a.log2n) == n_used && r.name == a.workload && r.heap == a.heap)
                r.note += "; vs " + std::string(a.source) + " " + fmt_g(a.seconds, "%.3g") + " s: " +
                          fmt_g(r.total_s / a.seconds, "%.2f") + "x";
          }
          rep_.add(r);
        }
        if (o_.authors) authors(p, li == 0);
      }
      pacer_.end();
    }
  }

  // The authors' heaps (original_bgpq.h) on the plan's keys, in the same run: at
  // their benchmark's 32 x 512 and at ours (128 x 512), k = 1024. Medians of 3, one
  // run at the largest N (as ours); each row's note gives ours against it.
  void authors(const Plan& p, bool largest) {
    if (!bgpq_built()) {
      if (!authors_said_) std::printf("  (the authors' heap is not in this build: scripts/fetch-originals.sh, then cmake)\n");
      authors_said_ = true;
      return;
    }
    uint32_t* keys = nullptr;
    try {
      ck(cudaMalloc(&keys, p.inserted * sizeof(uint32_t)), "authors' keys");
      plan_keys(p, o_.seed, keys);
    } catch (const std::exception& e) {
      if (keys) cudaFree(keys);
      Row r;
      r.section = "table1";
      r.name = p.name;
      r.heap = "authors";
      r.n = p.n_keys;
      r.check = "FAIL";
      r.note = e.what();
      rep_.add(r);
      return;
    }
    for (const bool bu : {false, true})
      for (const uint32_t blocks : {32u, 128u}) {
        Row r;
        r.section = "table1";
        r.name = p.name;
        r.heap = std::string("authors-") + (bu ? "BU" : "TD");
        r.n = p.n_keys;
        r.k = 1024;
        r.blocks = blocks;
        r.threads = 512;
        std::vector<double> ins, del, tot;
        for (int run = 0; run < (largest ? 1 : 3) && r.check != "FAIL"; ++run) {
          const BgpqRun b = run_bgpq(bu, keys, p.n_keys, blocks, 512);
          if (!b.fail.empty()) {
            r.check = "FAIL";
            r.note = b.fail;
            break;
          }
          ins.push_back(b.insert_s), del.push_back(b.delete_s), tot.push_back(b.insert_s + b.delete_s);
        }
        if (r.check != "FAIL") {
          r.check = "PASS";
          r.runs = static_cast<int>(tot.size());
          r.ins_s = median_of(ins);
          r.del_s = median_of(del);
          r.total_s = median_of(tot);
          r.min_s = *std::min_element(tot.begin(), tot.end());
          r.max_s = *std::max_element(tot.begin(), tot.end());
          r.keys_per_s = p.n_keys / r.total_s;
          r.ins_keys_per_s = p.n_keys / r.ins_s;
          r.del_keys_per_s = p.n_keys / r.del_s;
          r.note = (largest ? "1 run" : "median of 3") + std::string("; ruadapt/BGPQ 1589a87, -Xptxas -dlcm=cg");
          const auto ours = totals.find(key(p.n_keys, p.name, bu ? "BU" : "TD"));
          if (ours != totals.end())
            r.note += "; ours " + fmt_g(ours->second, "%.3f") + " s: " + fmt_g(r.total_s / ours->second, "%.2f") +
                      "x faster than this";
        }
        rep_.add(r);
      }
    cudaFree(keys);
  }

  void record(uint64_t N, double share) {
    const uint32_t k = 1024, blocks = 128, threads = 512;
    pacer_.begin(share, 2.0);
    rec_n = N;
    try {
      if (fatal) throw std::runtime_error("CUDA context lost by an earlier failure");
      Plan p = make_full("random", N, k);
      Workspace ws;
      ws.allocate(p.ops(), k, 0);
      ws.upload(p);
      gheap::DeviceHeap<uint32_t> heap(k, p.ins_ops + 1);
      // As structures/gheap/gpu/heap_stress.cpp: per block its share of the operations, each
      // with inv, ret and two events per held node on a path plus a delete's
      // children; k keys per operation.
      const uint64_t per_block = (p.ops() + blocks - 1) / blocks + 1;
      const uint32_t levels = gheap::floor_log2(heap.capacity()) + 1;
      const uint64_t events = per_block * (2 + 2 * (2 * levels + 4));
      const uint64_t keys = per_block * k;
      if (events > 0xffffffffull || keys > 0xffffffffull) throw std::runtime_error("recording buffers too large");
      DeviceRecorder recorder(blocks, static_cast<uint32_t>(events), static_cast<uint32_t>(keys));
      const std::string sz = "recorder " + fmt_g(recorder.bytes() / 1048576.0, "%.0f") + " MiB";
      // Tickets for every event (TD+r: how the paper BU heap records, for its
      // last-lock rule; gpulin stress no longer tickets a fixed heap's holds, which
      // numbered ones record for less); every node's holds numbered on their
      // nodes (hold versions, histories/device_events.h: TD+v, BU+v); the root's
      // holds alone, numbered on the root (TD+root, BU+root: what gpulin stress
      // records by default for the root-release rule). Each against the same heap
      // unrecorded, in this one run.
      const auto overhead = [](Row& on, const Row& plain) {
        if (plain.check == "PASS" && on.check == "PASS")
          on.note += "; overhead " + fmt_g(100.0 * (on.total_s / plain.total_s - 1.0), "%.1f") + " %";
      };
      Row plain = measure("record", p, ws, heap, Flavor::TopDown, blocks, threads, 1.0, "recording off");
      Row on = measure("record", p, ws, heap, Flavor::TopDown, blocks, threads, 1.0,
                       "recording on, a ticket an event, " + sz, &recorder, "TD+r");
      overhead(on, plain);
      rep_.add(plain);
      rep_.add(on);
      recorder.version_holds(uint64_t{heap.capacity()} + 1);
      Row versioned = measure("record", p, ws, heap, Flavor::TopDown, blocks, threads, 1.0,
                              "recording on, every node's holds numbered on their nodes, " + sz, &recorder, "TD+v");
      overhead(versioned, plain);
      rep_.add(versioned);
      recorder.version_holds(gheap::kRootHoldNodes, true);
      Row root = measure("record", p, ws, heap, Flavor::TopDown, blocks, threads, 1.0,
                         "recording on, the root's holds alone, numbered on the root (the default), " + sz, &recorder,
                         "TD+root");
      overhead(root, plain);
      if (plain.check == "PASS" && root.check == "PASS") rec_plain = plain.total_s, rec_on = root.total_s;
      rep_.add(root);
      Row bu_plain = measure("record", p, ws, heap, Flavor::BottomUp, blocks, threads, 1.0, "recording off");
      rep_.add(bu_plain);
      recorder.version_holds(uint64_t{heap.capacity()} + 1);
      Row bu_versioned = measure("record", p, ws, heap, Flavor::BottomUp, blocks, threads, 1.0,
                                 "recording on, every node's holds numbered on their nodes, " + sz, &recorder, "BU+v");
      overhead(bu_versioned, bu_plain);
      rep_.add(bu_versioned);
      recorder.version_holds(gheap::kRootHoldNodes, true);
      Row bu_root = measure("record", p, ws, heap, Flavor::BottomUp, blocks, threads, 1.0,
                            "recording on, the root's holds alone, numbered on the root (the default), " + sz,
                            &recorder, "BU+root");
      overhead(bu_root, bu_plain);
      rep_.add(bu_root);
    } catch (const std::exception& e) {
      Row r;
      r.section = "record";
      r.name = "random";
      r.heap = "TD+r";
      r.n = N;
      r.check = fatal ? "SKIP" : "FAIL";
      r.note = e.what();
      rep_.add(r);
      if (!fatal && context_lost()) fatal = true;
    }
    pacer_.end();
  }

  // Shared shape of Figs. 13, 14, 16: plans x configurations on fresh memory.
  struct Cfg {
    Flavor fl;
    uint32_t blocks, threads;
  };
  void sweep(const std::string& section, const std::vector<Plan>& plans, const std::vector<std::vector<Cfg>>& cfgs,
             double share, const std::string& note) {
    double total_w = 0;
    for (size_t i = 0; i < plans.size(); ++i) total_w += double(plans[i].ops()) * cfgs[i].size();
    pacer_.begin(share, total_w);
    for (size_t i = 0; i < plans.size(); ++i) {
      const Plan& p = plans[i];
      const double w = double(p.ops());
      try {
        if (fatal) throw std::runtime_error("CUDA context lost by an earlier failure");
        if (pacer_.out_of_time()) throw std::runtime_error("time budget spent");
        Workspace ws;
        ws.allocate(p.ops(), p.k, p.flat);
        ws.upload(p);
        gheap::DeviceHeap<uint32_t> heap(p.k, p.ins_ops + 1);
        for (const Cfg& c : cfgs[i]) rep_.add(measure(section, p, ws, heap, c.fl, c.blocks, c.threads, w, note));
      } catch (const std::exception& e) {
        const bool skip = fatal || pacer_.out_of_time();
        if (!skip && context_lost()) fatal = true;
        for (const Cfg& c : cfgs[i]) {
          Row r;
          r.section = section;
          r.name = p.name;
          r.heap = heap_name(c.fl);
          r.n = p.n_keys;
          r.k = p.k;
          r.blocks = c.blocks;
          r.threads = c.threads;
          r.check = skip ? "SKIP" : "FAIL";
          r.note = e.what();
          rep_.add(r);
          pacer_.done(w, NAN);
        }
      }
    }
    pacer_.end();
  }

 private:
  const Options& o_;
  Report& rep_;
  Pacer& pacer_;
  cudaEvent_t e0_{}, e1_{};  // the CUB sort's
  Runner runner_;
};

// The flags (CLI11: --help lists them; a usage error is its message and exit 2).
Options parse(int argc, char** argv) {
  Options o;
  CLI::App app{"gpulin_bench_gheap: the generalized heap's Table 1 and Figs. 13-16 on the GPU"};
  app.add_flag("--quick", o.quick, "small sizes, every section once (a few seconds)");
  app.add_option("--csv", o.csv, "also write the rows as CSV (GPU name in every row)");
  app.add_option("--max-log2n", o.max_log2n, "cap every N at 2^L")->check(CLI::Range(16, 30));
  app.add_option("--only", o.only, "sections, comma-separated (default: every one)")
      ->delimiter(',')
      ->check(CLI::IsMember({"table1", "cpu", "record", "fig13", "fig14", "fig15", "fig16"}));
  app.add_option("--budget-s", o.budget_s, "soft time budget in s (default 400; --quick 90)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--fig14-both", o.fig14_both, "Fig. 14 for BU too (doubles its time)");
  app.add_option("--seed", o.seed, "key stream seed");
  std::vector<uint32_t> backoff;
  app.add_option("--backoff", backoff, "FIRST_NS,MAX_NS: the root's waiters sleep FIRST_NS, doubling up to MAX_NS "
                                       "(default 0,0: they spin)")
      ->delimiter(',')
      ->expected(2);
  bool no_authors = false;
  app.add_flag("--no-authors", no_authors, "leave out the authors' rows");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    std::exit(app.exit(e) == 0 ? 0 : 2);
  }
  if (backoff.size() == 2) o.backoff_first_ns = backoff[0], o.backoff_max_ns = backoff[1];
  o.authors = !no_authors;
  if (o.budget_s <= 0) o.budget_s = o.quick ? 90 : 400;
  return o;
}

std::atomic<bool> g_done{false};  // ends the watchdog

int bench_main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("gpulin_bench_gheap: no CUDA device: skipped\n");
    return 0;
  }
  cudaDeviceProp prop{};
  ck(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  Report rep;
  rep.gpu = prop.name;
  if (!o.csv.empty()) rep.open_csv(o.csv);

  // Watchdog: a hung kernel or an overrun must not lose the rows printed so far.
  const double hard_s = o.budget_s + 70, budget_s = o.budget_s;
  std::thread watchdog([hard_s, budget_s] {  // by value: it may outlive this frame
    const auto t0 = Clock::now();
    while (!g_done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      if (std::chrono::duration<double>(Clock::now() - t0).count() > hard_s) {
        std::printf("\nWATCHDOG: %.0f s passed (budget %.0f s + 70 s); rows above are complete, the rest is lost\n",
                    hard_s, budget_s);
        std::fflush(stdout);
        std::_Exit(3);
      }
    }
  });
  watchdog.detach();  // ends with the process; nothing to join on any path out

  const auto t_start = Clock::now();
  const int cap = o.max_log2n;
  auto capped = [&](int l) { return std::min(l, cap); };
  // Sizes (log2). Quick: small, every section once.
  std::vector<int> t1_logs = o.quick ? std::vector<int>{capped(20), capped(18)} : std::vector<int>{capped(29), capped(26)};
  if (t1_logs[0] == t1_logs[1]) t1_logs.pop_back();
  const int fig_log = capped(o.quick ? 18 : 24);
  const int rec_log = capped(o.quick ? 18 : 24);
  const int pairs_log = capped(o.quick ? 16 : 20);
  const int cpu_log = std::min(t1_logs[0], o.quick ? 20 : 26);
  const std::vector<uint32_t> insdel_levels = o.quick ? std::vector<uint32_t>{8, 10} : std::vector<uint32_t>{10, 12, 14, 16};

  std::printf("gpulin_bench_gheap on %s (%d SMs, %.1f GiB), %s; soft budget %.0f s\n", prop.name,
              prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0, o.quick ? "quick" : "full", o.budget_s);
  const std::string waits = o.backoff_first_ns == 0 && o.backoff_max_ns == 0
                                ? std::string("spin")
                                : "sleep " + std::to_string(o.backoff_first_ns) + " ns doubling to " +
                                      std::to_string(o.backoff_max_ns) + " ns";
  std::printf("heaps: TD = Flavor::TopDown, BU = Flavor::BottomUp, Variant::Fixed; times in s (cudaEvent), "
              "Mkeys/s = N / total (each key inserted and deleted); waiters on the root %s\n\n",
              waits.c_str());

  // Section shares of the budget (those not selected give theirs to the others).
  struct Sec {
    std::string name;
    double share;
  };
  std::vector<Sec> secs = {{"table1", 0.33}, {"record", 0.03}, {"fig13", 0.09},
                           {"fig14", 0.30},  {"fig15", 0.12},  {"fig16", 0.13}};
  double share_sum = 0;
  for (const Sec& s : secs)
    if (selected(o, s.name)) share_sum += s.share;
  auto share = [&](const std::string& n) {
    for (const Sec& s : secs)
      if (s.name == n) return share_sum > 0 ? s.share / share_sum : 0.0;
    return 0.0;
  };

  CpuBaseline cpu;
  const bool want_cpu = selected(o, "table1") || selected(o, "cpu");
  if (want_cpu) cpu.start(1ull << cpu_log, o.seed);

  Pacer pacer(o.budget_s);
  Bench bench(o, rep, pacer);
  rep.header();

  try {
    bench.warmup();
    if (selected(o, "table1")) {
      // Table 1's share: ~3/4 to the largest N (1 run each), the rest to the next.
      const double s = share("table1");
      std::vector<double> shares = t1_logs.size() == 2 ? std::vector<double>{0.73 * s, 0.27 * s} : std::vector<double>{s};
      bench.table1(t1_logs, shares);
    }
    if (selected(o, "record")) bench.record(1ull << rec_log, share("record"));
    if (selected(o, "fig13")) {
      Plan p = make_full("random", 1ull << fig_log, 1024);
      std::vector<Bench::Cfg> cfgs;
      for (Flavor fl : {Flavor::TopDown, Flavor::BottomUp})
        for (uint32_t b : {32u, 64u, 128u, 256u, 512u, 1024u}) cfgs.push_back({fl, b, 512});
      bench.sweep("fig13", {p}, {cfgs}, share("fig13"), "Fig. 13: thread blocks");
    }
    if (selected(o, "fig14")) {
      std::vector<Plan> plans;
      std::vector<std::vector<Bench::Cfg>> cfgs;
      // Cheap (large k) first: when the budget runs short, the expensive small-k
      // points are the ones that lose their median.
      for (uint32_t k : {1024u, 512u, 256u, 128u, 64u}) {
        plans.push_back(make_full("random", 1ull << fig_log, k));
        std::vector<Bench::Cfg> c;
        for (Flavor fl : {Flavor::TopDown, Flavor::BottomUp}) {
          if (fl == Flavor::BottomUp && !o.fig14_both) continue;
          for (uint32_t t : {128u, 256u, 512u, 1024u}) c.push_back({fl, 128, t});
        }
        cfgs.push_back(c);
      }
      bench.sweep("fig14", plans, cfgs, share("fig14"),
                  o.fig14_both ? "Fig. 14: k x threads" : "Fig. 14: k x threads (TD only; --fig14-both adds BU)");
    }
    if (selected(o, "fig15")) {
      std::vector<Plan> plans;
      std::vector<std::vector<Bench::Cfg>> cfgs;
      for (uint32_t L : insdel_levels) {
        plans.push_back(make_insdel(L, 1ull << pairs_log, 1024, 128));
        cfgs.push_back({{Flavor::TopDown, 128, 512}, {Flavor::BottomUp, 128, 512}});
      }
      bench.sweep("fig15", plans, cfgs, share("fig15"),
                  "Fig. 15: prefill 2^L-1 nodes, time the pairs (each block: ins, del, ins, ...); N = keys in pairs; "
                  "fill and drain untimed");
    }
    if (selected(o, "fig16")) {
      std::vector<Plan> plans;
      std::vector<std::vector<Bench::Cfg>> cfgs;
      for (uint32_t P : {0u, 25u, 50u, 75u, 100u}) {
        plans.push_back(make_partial(P, 1ull << fig_log, 1024, o.seed));
        cfgs.push_back({{Flavor::TopDown, 128, 512}, {Flavor::BottomUp, 128, 512}});
      }
      bench.sweep("fig16", plans, cfgs, share("fig16"), "Fig. 16: P % of inserts partial (1..k-1 keys)");
    }
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    Row r;
    r.section = "bench";
    r.name = "error";
    r.check = "FAIL";
    r.note = e.what();
    rep.add(r);
  }

  // ---------------------------------------------------------------- CPU rows
  std::vector<CpuResult> cpu_res;
  if (want_cpu) {
    if (!cpu.finished()) {
      const double left = o.budget_s - pacer.elapsed();
      std::printf("\n(waiting for the std::priority_queue baseline; %.0f s of the budget left)\n", std::max(0.0, left));
      std::fflush(stdout);
      while (!cpu.finished() && !pacer.out_of_time()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (!cpu.finished()) cpu.stop();
    }
    cpu_res = cpu.join();
    for (const CpuResult& c : cpu_res) {
      Row r;
      r.section = "cpu";
      r.name = c.workload;
      r.heap = "STL";
      r.n = c.n;
      r.runs = c.ok ? 1 : 0;
      r.check = c.aborted ? "SKIP" : c.ok ? "PASS" : "FAIL";
      if (c.ok) {
        r.ins_s = c.push_s;
        r.del_s = c.pop_s;
        r.total_s = c.push_s + c.pop_s;
        r.min_s = r.max_s = r.total_s;
        r.keys_per_s = c.n / r.total_s;
        r.ins_keys_per_s = c.n / c.push_s;
        r.del_keys_per_s = c.n / c.pop_s;
        r.note = "std::priority_queue<uint32_t, vector, greater> push all, pop all; 1 run (host thread, beside the GPU "
                 "runs); keys: first N' of the stream" +
                 std::string(c.workload == "random" ? "" : ", sorted");
      } else {
        r.note = c.msg;
      }
      rep.add(r);
      // Scaled to each Table 1 N.
      if (c.ok)
        for (uint64_t N : bench.table1_n) {
          if (N == c.n) continue;
          Row s = r;
          s.section = "table1";
          s.n = N;
          const double f = double(N) / double(c.n);
          s.ins_s *= f;
          s.del_s *= f;
          s.total_s *= f;
          s.min_s = s.max_s = s.total_s;
          s.note = "SCALED linearly from N'=" + log2_str(c.n) + " (x" + fmt_g(f, "%.0f") +
                   "): not measured at N; a heap is O(N log N), so this underestimates";
          rep.add(s);
        }
    }
  }

  // ---------------------------------------------------------------- summary
  std::printf("\n================ summary ================\n");
  std::printf("GPU: %s; elapsed %.0f s (soft budget %.0f s)\n", prop.name,
              std::chrono::duration<double>(Clock::now() - t_start).count(), o.budget_s);
  if (!bench.table1_n.empty()) {
    std::printf("Table 1 (k=1024, 128 blocks x 512 threads): largest N used %s [%s]%s\n",
                log2_str(bench.table1_n.front()).c_str(), bench.table1_mem.c_str(),
                bench.table1_note.empty() ? "" : (" (" + bench.table1_note + ")").c_str());
    std::map<std::string, double> cpu_total;
    for (const CpuResult& c : cpu_res)
      if (c.ok) cpu_total[c.workload] = (c.push_s + c.pop_s) / double(c.n);  // s per key
    for (uint64_t N : bench.table1_n) {
      std::printf("\n  N = %s, time in ms      %12s %12s %12s\n", log2_str(N).c_str(), "random", "descend", "ascend");
      for (const char* h : {"TD", "BU", "CUB"}) {
        std::printf("  %-24s", h[0] == 'C' ? "CUB radix sort (floor)" : h[0] == 'T' ? "TD-INS/TD-DEL heap" : "BU-INS/TD-DEL heap");
        for (const char* wl : {"random", "descend", "ascend"}) {
          auto& m = h[0] == 'C' ? bench.cub : bench.totals;
          auto it = m.find(Bench::key(N, wl, h));
          std::printf(" %12s", it == m.end() ? "-" : fmt_g(it->second * 1e3, "%.1f").c_str());
        }
        std::printf("\n");
      }
      std::printf("  %-24s", "STL pq (host, scaled)");
      for (const char* wl : {"random", "descend", "ascend"}) {
        auto it = cpu_total.find(wl);
        std::printf(" %12s", it == cpu_total.end() ? "-" : fmt_g(it->second * N * 1e3, "%.0f").c_str());
      }
      std::printf("\n  heap / CUB sort          ");
      for (const char* wl : {"random", "descend", "ascend"}) {
        auto c = bench.cub.find(Bench::key(N, wl, "CUB"));
        auto t = bench.totals.find(Bench::key(N, wl, "TD"));
        auto b = bench.totals.find(Bench::key(N, wl, "BU"));
        std::string s = "-";
        if (c != bench.cub.end() && t != bench.totals.end() && b != bench.totals.end())
          s = fmt_g(t->second / c->second, "%.0f") + "/" + fmt_g(b->second / c->second, "%.0f") + "x";
        std::printf(" %12s", s.c_str());
      }
      std::printf("   (TD/BU)\n");
    }
    std::printf("\n  anchors (ours / anchor; >1 means slower than the anchor):\n");
    for (const Anchor& a : kAnchors) {
      const uint64_t N = 1ull << a.log2n;
      std::string ours_s = "-", ratio = "-";
      double ours = NAN;
      if (std::string(a.heap) == "STL") {
        auto it = cpu_total.find(a.workload);
        if (it != cpu_total.end()) ours = it->second * N;
      } else {
        auto& m = std::string(a.heap) == "CUB" ? bench.cub : bench.totals;
        auto it = m.find(Bench::key(N, a.workload, a.heap));
        if (it != m.end()) ours = it->second;
      }
      if (!std::isnan(ours)) {
        ours_s = fmt_g(ours, "%.4g") + " s";
        ratio = fmt_g(ours / a.seconds, "%.3g") + "x";
      }
      std::printf("  %-38s %-5s %-7s %-3s %10s s   ours %12s   %s%s\n", a.source, log2_str(N).c_str(), a.workload,
                  a.heap, fmt_g(a.seconds, "%.4g").c_str(), ours_s.c_str(), ratio.c_str(),
                  std::string(a.heap) == "STL" && !std::isnan(ours) ? " (ours scaled from N')" : "");
    }
  }
  if (!std::isnan(bench.rec_plain))
    std::printf("\nrecording overhead (TD, random, N=%s, 128x512, k=1024; the root's holds numbered, the default): "
                "%.4g s off, %.4g s on: %+.1f %%\n",
                log2_str(bench.rec_n).c_str(), bench.rec_plain, bench.rec_on,
                100.0 * (bench.rec_on / bench.rec_plain - 1.0));
  std::printf("\nrows: %zu, FAIL rows: %d%s\n", rep.rows.size(), rep.failures,
              bench.fatal ? " (CUDA context lost: later GPU sections skipped)" : "");
  std::fflush(stdout);
  g_done = true;
  return rep.failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return bench_main(argc, argv);
  } catch (const std::exception& e) {
    std::printf("gpulin_bench_gheap: error: %s\n", e.what());
    return 1;
  }
}
