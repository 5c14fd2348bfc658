// Measures how fast histories read: builds a pq-batch history of N operations
// (default 1M; each inv, acq, rel, ret, 32 actors overlapping), writes it as JSONL
// and binary, and reads each back three times, reporting the best.
//   histories_read_speed [ops] [dir]      (KEEP=1 in the environment keeps the JSONL file)
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "histories/binary_format.h"
#include "histories/jsonl_reader.h"
#include "histories/jsonl_writer.h"

using namespace gpulin;

namespace {

History make_history(int64_t n) {
  History h;
  h.source = "<generated>";
  h.header.model = "pq-batch";
  h.header.params = Value::object({{"k", Value::integer(4)}});
  h.header.lp_rule = "root-release";
  const int64_t actors = 32;
  h.events.reserve(4 * n);
  h.ops.reserve(n);
  // Op i runs from t = 4i+1 (inv; acq, rel next) to t = 4(i + 32) (ret): 32 ops overlap at
  // any time, and actor i % 32 starts its next op after this one returned.
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t t0 = 4 * static_cast<uint64_t>(i) + 1;
    Operation op;
    op.id = i;
    op.actor = i % actors;
    const bool ins = i % 2 == 0;
    op.f = ins ? "ins" : "del";
    op.args = ins ? Value::int_array({i, i + 7, i + 13, i + 21}) : Value::array();
    op.res = ins ? Value::null() : Value::int_array({i - 1, i + 6});
    op.inv_t = t0;
    op.ret_t = t0 + 4 * actors - 1;  // 4(i + actors): the t values 0 mod 4 are free
    h.ops.push_back(std::move(op));
  }
  for (int64_t i = 0; i < n; ++i) {
    const Operation& op = h.ops[i];
    h.events.push_back(Event{op.inv_t, EventKind::Inv, op.id, op.actor, 0, 0});
    h.events.push_back(Event{op.inv_t + 1, EventKind::Acq, op.id, op.actor, 1, 0});
    h.events.push_back(Event{op.inv_t + 2, EventKind::Rel, op.id, op.actor, 1, 0});
    h.events.push_back(Event{op.ret_t, EventKind::Ret, op.id, op.actor, 0, 0});
  }
  h.normalize();
  return h;
}

// Best wall time of three runs. On a shared machine wall time suffers from the
// neighbours, so the CPU time (user + system) of the best run is kept too.
struct Timing {
  double wall = 1e30, cpu = 0;
};

template <class F>
Timing best_of_three(F&& f) {
  Timing best;
  for (int i = 0; i < 3; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    f();
    const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (wall < best.wall) best = Timing{wall, cpu};
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 1000000;
  const std::string dir = argc > 2 ? argv[2] : std::filesystem::temp_directory_path().string();
  const History h = make_history(n);
  validate_history(h);
  const std::string jsonl = dir + "/gpulin-read-speed.jsonl", bin = dir + "/gpulin-read-speed.bin";
  write_history_file(jsonl, h);
  write_history_binary(bin, h);
  const double mb = std::filesystem::file_size(jsonl) / 1e6, bin_mb = std::filesystem::file_size(bin) / 1e6;
  size_t events = 0;
  const Timing tj = best_of_three([&] { events = read_history_file(jsonl).events.size(); });
  const Timing tb = best_of_three([&] { events = read_history_binary(bin).events.size(); });
  const Timing tw = best_of_three([&] { write_history_file(jsonl, h); });
  std::printf("%lld ops, %zu events\n", static_cast<long long>(n), events);
  std::printf("JSONL  read : %.3f s wall (%.3f s cpu)  %.2f M events/s  %.2f M ops/s  %.0f MB/s of %.1f MB\n",
              tj.wall, tj.cpu, events / tj.wall / 1e6, n / tj.wall / 1e6, mb / tj.wall, mb);
  std::printf("binary read : %.3f s wall (%.3f s cpu)  %.2f M events/s  %.2f M ops/s  (%.1f MB)\n", tb.wall, tb.cpu,
              events / tb.wall / 1e6, n / tb.wall / 1e6, bin_mb);
  std::printf("JSONL write : %.3f s wall (%.3f s cpu)  %.2f M events/s\n", tw.wall, tw.cpu, events / tw.wall / 1e6);
  if (!std::getenv("KEEP")) std::filesystem::remove(jsonl);
  std::filesystem::remove(bin);
  return 0;
}
