// gpulin_bench_check: how fast histories are read and checked on the host, each
// number beside its baseline from the same run (issue: checking at GPU scale).
//
//   jsonl     a GPU-shaped pq-batch history (k = 1024, 128 actors, root-release
//             holds) written as JSON Lines: the keys-only reader's MB/s and resident
//             bytes against the DOM reader and the binary form's size.
//   witness   the per-key check (1 thread, all threads) against the replay, keys/s;
//             read + check in MB/s of the file; the same with one wrong delete,
//             explanation included, and the ratio of the two.
//   pq        a 10^6-operation pq history from 64 actors with distinct keys,
//             linearizable and not: read and check_distinct_pq seconds, ops/s.
//   gpu       with a CUDA device: the per-key check on the GPU from the history
//             uploaded in the recorder's layout (the buffers a recorded run leaves
//             on the device), M keys/s, kernels only (the upload is not timed),
//             against the host check of the same run. Without a device the section
//             says so and is skipped. The recorded stress runs' phases (conservation,
//             the heap at rest, the check at 2^29 keys) come from `gpulin stress
//             --record` in scripts/device.sh.
//   map       a slab-hash-shaped map history of --map-ops operations (default 10^7;
//             1024 actors, keys from 2^22, the paper's mix Γ1, an lp in every op),
//             JSONL and binary: read + keyed check (verify/keyed_linear) in seconds,
//             the read and the check apart (the check on 1 and all threads), against
//             the generic path in the same run (`gpulin check` before it: the DOM
//             reader and check_witness, one run; --no-baseline skips it); then the
//             outcomes: one wrong search rejected naming its op and key, one early lp
//             linearizable by other points; set and multimap of the same size.
//
// --only LIST runs some sections (comma-separated: jsonl, witness, gpu, pq, map).
// Every number is the median of --runs runs (default 3). Flags: --quick, --csv FILE,
// --ops N (GPU-shaped history size, default 65536 ops: 37 million keys), --dir DIR (temporary files).
// Exits 1 when an outcome is wrong (a correct history rejected, a planted fault missed).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

#include "histories/binary_format.h"
#include "histories/jsonl_reader.h"
#include "histories/jsonl_writer.h"
#include "histories/key_history.h"
#include "histories/key_history_reader.h"
#include <sys/resource.h>

#include "verify/distinct_pq_checker.h"
#include "verify/keyed_linear/keyed_check.h"
#include "verify/model_registry.h"
#include "verify/pq_batch_witness.h"
#include "verify/pq_linear/gpu_check.h"
#include "verify/pq_linear/linear_check.h"
#include "verify/testing/generate_distinct_pq_history.h"
#include "verify/testing/generate_keyed_history.h"
#include "verify/testing/generate_pq_history.h"

using namespace gpulin;
using Clock = std::chrono::steady_clock;

namespace {

struct Row {
  std::string name, unit, note;
  double value;
};
std::vector<Row> rows;
int runs = 3;
std::vector<double> last_times;  // the last median_seconds' runs, fastest first

double last_cpu_seconds = 0;  // the last median_seconds' processor time a run (user + system, all threads)

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

double median_seconds(const std::function<void()>& f) {
  std::vector<double>& t = last_times;
  t.clear();
  const double cpu0 = cpu_seconds();
  for (int i = 0; i < runs; ++i) {
    const auto t0 = Clock::now();
    f();
    t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  last_cpu_seconds = (cpu_seconds() - cpu0) / runs;
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// The spread of the last measurement, as MB/s of `mb` megabytes: "runs a..b MB/s".
std::string spread_mb_s(double mb) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "runs %.0f..%.0f MB/s", mb / last_times.back(), mb / last_times.front());
  return buf;
}

void row(const std::string& name, double value, const std::string& unit, const std::string& note = "") {
  rows.push_back({name, unit, note, value});
  std::printf("%-46s %14.3f %-10s %s\n", name.c_str(), value, unit.c_str(), note.c_str());
  std::fflush(stdout);
}

// Adds one to the first key of a delete near the middle of the rule's order.
void plant_wrong_delete(History& h) {
  for (size_t i = h.ops.size() / 2; i < h.ops.size(); ++i)
    if (h.ops[i].f == "del" && h.ops[i].res && h.ops[i].res->is_array() && !h.ops[i].res->as_array().empty()) {
      Value& v = h.ops[i].res->as_array()[0];
      v = Value::integer(v.as_int() + 1);
      return;
    }
}

struct Args {
  size_t ops = 65536;
  size_t map_ops = 10'000'000;
  std::string csv, dir = std::filesystem::temp_directory_path().string();
  bool quick = false, baseline = true;
  std::vector<std::string> only;  // empty: every section
  bool has(const std::string& section) const {
    return only.empty() || std::find(only.begin(), only.end(), section) != only.end();
  }
};

bool ok = true;  // every outcome as it must be

// jsonl, witness, gpu: the GPU-shaped pq-batch history.
void section_pq_batch(const Args& a) {
  // A GPU-shaped history and its file, right and with one wrong delete.
  const std::string good = a.dir + "/gpulin_bench_check_good.jsonl", bad = a.dir + "/gpulin_bench_check_bad.jsonl";
  uint64_t tuples = 0, binary_bytes = 0, file_bytes = 0;
  {
    History h = generate_pq_batch_history(a.ops, 1024, 42, 128);
    write_history_file(good, h);
    binary_bytes = history_to_binary(h).size();
    plant_wrong_delete(h);
    write_history_file(bad, h);
  }
  file_bytes = std::filesystem::file_size(good);
  const double mb = file_bytes / 1e6;
  KeyHistory kh = read_key_history_file(good);
  for (const KeyOp& o : kh.ops) tuples += o.args_len + o.res_len;
  std::printf("GPU-shaped history: %zu ops, %zu events, %lu keys in and out, JSONL %.1f MB, binary %.1f MB\n",
              kh.ops.size(), kh.events.size(), (unsigned long)tuples, mb, binary_bytes / 1e6);

  if (a.has("jsonl")) {
    row("jsonl: keys-only reader", mb / median_seconds([&] { kh = read_key_history_file(good); }), "MB/s");
    row("jsonl: keys-only reader, 1 thread", mb / median_seconds([&] { kh = read_key_history_file(good, 1); }), "MB/s");
    {
      const int saved = runs;
      runs = 1;  // the baseline is slow: one run
      row("jsonl: DOM reader (baseline)", mb / median_seconds([&] { (void)read_history_file(good); }), "MB/s");
      runs = saved;
    }
    row("jsonl: KeyHistory resident / binary form", double(kh.bytes()) / binary_bytes, "x", "target <= 2");
  }

  if (a.has("witness")) {
    LinearCheckResult lin;
    row("witness: per-key check, all threads", tuples / median_seconds([&] { lin = check_pq_batch_linear(kh); }) / 1e6,
        "M keys/s", lin.witness.verdict == Verdict::Linearizable ? "pass" : "FAIL");
    row("witness: per-key check, 1 thread",
        tuples / median_seconds([&] { lin = check_pq_batch_linear(kh, {1}); }) / 1e6, "M keys/s");
    WitnessResult rep;
    row("witness: replay (baseline)", tuples / median_seconds([&] { rep = check_witness_pq_batch(kh); }) / 1e6,
        "M keys/s", rep.verdict == Verdict::Linearizable ? "pass" : "FAIL");

    double good_s = median_seconds([&] { lin = check_pq_batch_linear(read_key_history_file(good)); });
    row("read + check, linearizable", mb / good_s, "MB/s", "target >= 300, " + spread_mb_s(mb));
    double bad_s = median_seconds([&] { lin = check_pq_batch_linear(read_key_history_file(bad)); });
    row("read + check + explain, one wrong delete", mb / bad_s, "MB/s",
        std::string(lin.failure ? "rejected" : "NOT REJECTED") + ", " + spread_mb_s(mb));
    row("  its time / the linearizable one's", bad_s / good_s, "x", "target <= 2");
    if (lin.failure) std::printf("  explanation: %s\n", lin.failure->message.substr(0, 300).c_str());
    if (!lin.failure) ok = false;
  }

  // The same history checked on the GPU, from device buffers.
  int devices = 0;
  if (a.has("gpu") && (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)) {
    std::printf("gpu: no CUDA device, section skipped\n");
  } else if (a.has("gpu")) {
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    std::printf("gpu: %s\n", prop.name);
    const UploadedHistory up(kh);
    GpuCheckResult g;
    const double s = median_seconds([&] { g = check_pq_batch_on_gpu(up.input()); });
    row("witness: per-key check, GPU", tuples / s / 1e6, "M keys/s",
        g.irregular ? "irregular: " + g.why : g.linear.witness.verdict == Verdict::Linearizable ? "pass" : "FAIL");
  }

  std::filesystem::remove(good);
  std::filesystem::remove(bad);
}

// pq: distinct keys, 10^6 operations from 64 actors.
void section_pq(const Args& a) {
  const size_t pq_ops = a.quick ? 20000 : 1000000;
  for (bool linearizable : {true, false}) {
    const std::string file = a.dir + "/gpulin_bench_check_pq.jsonl";
    write_history_file(file, generate_distinct_pq_history(pq_ops, 1, 64, 7, linearizable));
    DistinctPqResult d;
    const double s = median_seconds([&] { d = check_distinct_pq(read_key_history_file(file)); });
    row(std::string("pq distinct, ") + (linearizable ? "linearizable" : "not linearizable") + ": read + check", s, "s",
        std::string(to_string(d.verdict)) + ", target < 10 s");
    row("  operations/s", pq_ops / s / 1e6, "M ops/s");
    std::filesystem::remove(file);
  }
}

double peak_resident_gb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1e6;  // KiB
}

// The spread of the last measurement and its processor time a run, which a
// loaded machine inflates less than the wall clock: "runs a..b s, cpu c s".
std::string seconds_spread() {
  char buf[96];
  std::snprintf(buf, sizeof buf, "runs %.2f..%.2f s, cpu %.2f s", last_times.front(), last_times.back(),
                last_cpu_seconds);
  return buf;
}

KeyedHistoryOptions keyed_options(const std::string& model, size_t ops) {
  KeyedHistoryOptions o;
  o.model = model;
  o.ops = ops;
  o.actors = 1024;
  o.keys = uint64_t{1} << 22;
  o.seed = 42;
  return o;
}

// map (and set, multimap): a recorded slab-hash run's size.
void section_map(const Args& a) {
  const size_t n = a.quick ? 20000 : a.map_ops;
  const std::string jsonl = a.dir + "/gpulin_bench_check_map.jsonl", bin = a.dir + "/gpulin_bench_check_map.bin";
  const std::string planted = a.dir + "/gpulin_bench_check_map_planted.bin";
  auto t0 = Clock::now();
  {
    const KeyHistory kh = generate_keyed_history(keyed_options("map", n));
    const double gen_s = std::chrono::duration<double>(Clock::now() - t0).count();
    write_history_file(jsonl, kh);
    write_history_binary(bin, kh);
    std::printf("map history: %zu ops, %zu events, %.1f MB as KeyHistory, JSONL %.1f MB, binary %.1f MB (generated in "
                "%.1f s)\n",
                kh.ops.size(), kh.events.size(), kh.bytes() / 1e6, std::filesystem::file_size(jsonl) / 1e6,
                std::filesystem::file_size(bin) / 1e6, gen_s);
  }
  auto verdict_note = [](const KeyedCheckResult& r) {
    return std::string(to_string(r.verdict)) + (r.failing_keys.empty() ? "" : ", rule fails on " +
                                                std::to_string(r.failing_keys.size()) + " key(s)");
  };
  KeyedCheckResult r;
  KeyHistory kh;
  // (Each median is taken before its row: seconds_spread reads the runs it left.)
  double s = median_seconds([&] { kh = read_key_history_any(jsonl); });
  row("map: read JSONL (key reader)", s, "s", seconds_spread());
  s = median_seconds([&] { kh = read_key_history_any(bin); });
  row("map: read binary (key reader)", s, "s", seconds_spread());
  const double check_s = median_seconds([&] { r = check_keyed_linear(kh); });
  row("map: keyed check, all threads", check_s, "s", verdict_note(r) + ", " + seconds_spread());
  if (r.verdict != Verdict::Linearizable) ok = false;
  row("  operations/s", n / check_s / 1e6, "M ops/s");
  KeyedCheckOptions one;
  one.threads = 1;
  s = median_seconds([&] { r = check_keyed_linear(kh, one); });
  row("map: keyed check, 1 thread", s, "s", seconds_spread());
  kh = KeyHistory();
  const double jsonl_s = median_seconds([&] { r = check_keyed_linear(read_key_history_any(jsonl)); });
  row("map: read + check, JSONL", jsonl_s, "s", verdict_note(r) + ", target < 60 s on 16 cores, " + seconds_spread());
  const double bin_s = median_seconds([&] { r = check_keyed_linear(read_key_history_any(bin)); });
  row("map: read + check, binary", bin_s, "s", verdict_note(r) + ", " + seconds_spread());
  if (r.verdict != Verdict::Linearizable) ok = false;
  row("map: peak resident so far (process)", peak_resident_gb(), "GB", "before the baseline");

  if (a.baseline) {
    const int saved = runs;
    runs = 1;  // the baseline is slow: one run
    WitnessResult w;
    const double base_s = median_seconds([&] {
      const History h = read_history_any(jsonl);
      model_for(h).validate_ops(h);
      w = check_witness(h);
    });
    runs = saved;
    row("map: generic path, JSONL (baseline)", base_s, "s",
        std::string(to_string(w.verdict)) + ", DOM reader + check_witness, one run, " + seconds_spread());
    row("  baseline / read + check, JSONL", base_s / jsonl_s, "x");
    row("map: peak resident so far (process)", peak_resident_gb(), "GB", "after the baseline");
  }

  // Outcomes: a wrong search rejected naming op and key; an early lp linearizable by other points.
  {
    KeyHistory h = read_key_history_any(bin);
    const auto fault = plant_wrong_search(h, h.ops.size() / 2);
    write_history_binary(planted, h);
    s = median_seconds([&] { r = check_keyed_linear(read_key_history_any(planted)); });
    const bool named = fault && r.verdict == Verdict::NotLinearizable && r.witness.violation &&
                       r.witness.violation->op == fault->op && r.failing_keys == std::vector<int64_t>{fault->key};
    ok = ok && named;
    row("map: read + check, one wrong search (binary)", s, "s",
        (named ? "rejected: op " + std::to_string(fault->op) + ", key " + std::to_string(fault->key) + ", " +
                     verdict_note(r)
               : "NOT REJECTED as planted: " + verdict_note(r)) +
            ", " + seconds_spread());
  }
  {
    KeyHistory h = read_key_history_any(bin);
    const auto fault = plant_early_lp(h, h.ops.size() / 2);
    if (!fault) {
      std::printf("map: no update and search overlapping on one key to swap lps: early-lp outcome skipped\n");
    } else {
      write_history_binary(planted, h);
      s = median_seconds([&] { r = check_keyed_linear(read_key_history_any(planted)); });
      const bool right = r.verdict == Verdict::Linearizable && r.witness.violation &&
                         r.witness.violation->op == fault->op && r.failing_keys == std::vector<int64_t>{fault->key};
      ok = ok && right;
      row("map: read + check, one early lp (binary)", s, "s",
          right ? "linearizable by other points: the rule fails at op " + std::to_string(fault->op) + ", key " +
                      std::to_string(fault->key) + ", the search linearizes its " + std::to_string(r.failing_ops) +
                      " ops, " + seconds_spread()
                : "WRONG: " + verdict_note(r));
    }
  }
  std::filesystem::remove(jsonl);
  std::filesystem::remove(bin);
  std::filesystem::remove(planted);

  for (const char* model : {"set", "multimap"}) {
    const KeyHistory h = generate_keyed_history(keyed_options(model, n));
    s = median_seconds([&] { r = check_keyed_linear(h); });
    row(std::string(model) + ": keyed check, all threads", s, "s", verdict_note(r) + ", " + seconds_spread());
    if (r.verdict != Verdict::Linearizable) ok = false;
  }
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  CLI::App app{"gpulin_bench_check: how fast histories are read and checked on the host"};
  app.add_flag("--quick", a.quick, "small sizes, one run a number");
  app.add_option("--csv", a.csv, "also write the rows as CSV");
  app.add_option("--runs", runs, "runs a number (the median is shown)")->check(CLI::Range(1, 1000));
  app.add_option("--ops", a.ops, "the GPU-shaped history's operations")->check(CLI::PositiveNumber);
  app.add_option("--map-ops", a.map_ops, "the map history's operations")->check(CLI::PositiveNumber);
  app.add_option("--dir", a.dir, "where the temporary files go")->check(CLI::ExistingDirectory);
  bool no_baseline = false;
  app.add_flag("--no-baseline", no_baseline, "map: leave out the generic path");
  app.add_option("--only", a.only, "sections (every one when absent)")
      ->delimiter(',')
      ->check(CLI::IsMember({"jsonl", "witness", "gpu", "pq", "map"}));
  CLI11_PARSE(app, argc, argv);
  a.baseline = !no_baseline;
  if (a.quick) a.ops = 512, runs = 1;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::printf("gpulin_bench_check: %u hardware threads, %d runs a number (median)\n", cores, runs);

  if (a.has("jsonl") || a.has("witness") || a.has("gpu")) section_pq_batch(a);
  if (a.has("pq")) section_pq(a);
  if (a.has("map")) section_map(a);

  if (!a.csv.empty()) {
    std::ofstream out(a.csv);
    out << "name,value,unit,note\n";
    for (const Row& r : rows) out << '"' << r.name << "\"," << r.value << ',' << r.unit << ",\"" << r.note << "\"\n";
  }
  if (!ok) std::printf("SOME OUTCOME IS WRONG (see the notes above)\n");
  return ok ? 0 : 1;
}
