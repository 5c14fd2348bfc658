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
//
// Every number is the median of --runs runs (default 3). Flags: --quick, --csv FILE,
// --ops N (GPU-shaped history size, default 65536 ops: 37 million keys), --dir DIR (temporary files).
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
#include "verify/distinct_pq_checker.h"
#include "verify/pq_batch_witness.h"
#include "verify/pq_linear/gpu_check.h"
#include "verify/pq_linear/linear_check.h"
#include "verify/testing/generate_distinct_pq_history.h"
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

double median_seconds(const std::function<void()>& f) {
  std::vector<double>& t = last_times;
  t.clear();
  for (int i = 0; i < runs; ++i) {
    const auto t0 = Clock::now();
    f();
    t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
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

}  // namespace

int main(int argc, char** argv) {
  size_t ops = 65536;
  std::string csv, dir = std::filesystem::temp_directory_path().string();
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") quick = true;
    else if (a == "--csv" && i + 1 < argc) csv = argv[++i];
    else if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--ops" && i + 1 < argc) ops = std::stoul(argv[++i]);
    else if (a == "--dir" && i + 1 < argc) dir = argv[++i];
  }
  if (quick) ops = 512, runs = 1;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::printf("gpulin_bench_check: %u hardware threads, %d runs a number (median)\n", cores, runs);

  // A GPU-shaped history and its file, right and with one wrong delete.
  const std::string good = dir + "/gpulin_bench_check_good.jsonl", bad = dir + "/gpulin_bench_check_bad.jsonl";
  uint64_t tuples = 0, binary_bytes = 0, file_bytes = 0;
  {
    History h = generate_pq_batch_history(ops, 1024, 42, 128);
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

  row("jsonl: keys-only reader", mb / median_seconds([&] { kh = read_key_history_file(good); }), "MB/s");
  row("jsonl: keys-only reader, 1 thread", mb / median_seconds([&] { kh = read_key_history_file(good, 1); }), "MB/s");
  {
    const int saved = runs;
    runs = 1;  // the baseline is slow: one run
    row("jsonl: DOM reader (baseline)", mb / median_seconds([&] { (void)read_history_file(good); }), "MB/s");
    runs = saved;
  }
  row("jsonl: KeyHistory resident / binary form", double(kh.bytes()) / binary_bytes, "x", "target <= 2");

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

  // The same history checked on the GPU, from device buffers.
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("gpu: no CUDA device, section skipped\n");
  } else {
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    std::printf("gpu: %s\n", prop.name);
    const UploadedHistory up(kh);
    GpuCheckResult g;
    const double s = median_seconds([&] { g = check_pq_batch_on_gpu(up.input()); });
    row("witness: per-key check, GPU", tuples / s / 1e6, "M keys/s",
        g.irregular ? "irregular: " + g.why : g.linear.witness.verdict == Verdict::Linearizable ? "pass" : "FAIL");
  }

  // pq with distinct keys, 10^6 operations from 64 actors.
  const size_t pq_ops = quick ? 20000 : 1000000;
  for (bool linearizable : {true, false}) {
    const std::string file = dir + "/gpulin_bench_check_pq.jsonl";
    write_history_file(file, generate_distinct_pq_history(pq_ops, 1, 64, 7, linearizable));
    DistinctPqResult d;
    const double s = median_seconds([&] { d = check_distinct_pq(read_key_history_file(file)); });
    row(std::string("pq distinct, ") + (linearizable ? "linearizable" : "not linearizable") + ": read + check", s, "s",
        std::string(to_string(d.verdict)) + ", target < 10 s");
    row("  operations/s", pq_ops / s / 1e6, "M ops/s");
    std::filesystem::remove(file);
  }
  std::filesystem::remove(good);
  std::filesystem::remove(bad);

  if (!csv.empty()) {
    std::ofstream out(csv);
    out << "name,value,unit,note\n";
    for (const Row& r : rows) out << '"' << r.name << "\"," << r.value << ',' << r.unit << ",\"" << r.note << "\"\n";
  }
  return 0;
}
