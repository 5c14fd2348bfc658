// Measures the keys-only reader against the DOM reader on a GPU-shaped pq-batch
// history (k = 1024, 128 actors): MB/s (median of three reads), the KeyHistory's
// resident size, the peak memory of a read, and the size of the binary form.
//   histories_key_read_speed [ops=32768] [dir=/tmp] [threads=0]
// Each read runs in a fresh process (the program calls itself with --read), so
// that its peak resident size is its own. Not a unit test: timings depend on the
// machine and its neighbours.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "histories/binary_format.h"
#include "histories/jsonl_reader.h"
#include "histories/jsonl_writer.h"
#include "histories/key_history_reader.h"
#include "verify/testing/generate_pq_history.h"

using namespace gpulin;

namespace {

// A field of /proc/self/status in bytes (VmHWM: peak resident size), 0 where unavailable.
size_t status_bytes(const char* field) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(field, 0) == 0) return std::strtoull(line.c_str() + std::strlen(field), nullptr, 10) * 1024;
  return 0;
}

struct Run {
  double wall = 0, cpu = 0;
  size_t peak = 0;   // the reading process's peak resident size
  size_t bytes = 0;  // KeyHistory::bytes() (key reader only)
  size_t keys = 0, events = 0;
};

// One read in this process, printed as one line for the parent: each read runs
// in a fresh process, so that its peak memory is its own and not the heap the
// generator left behind.
int read_once(const std::string& reader, const std::string& path, unsigned threads) {
  Run r;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  if (reader == "key") {
    const KeyHistory k = read_key_history_file(path, threads);
    r.bytes = k.bytes(), r.keys = k.keys.size(), r.events = k.events.size();
  } else {
    r.events = read_history_file(path).events.size();
  }
  r.cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.peak = status_bytes("VmHWM:");
  std::printf("%.6f %.6f %zu %zu %zu %zu\n", r.wall, r.cpu, r.peak, r.bytes, r.keys, r.events);
  return 0;
}

// Median of three reads (by wall time), each in a child process.
Run median_of_three(const std::string& reader, const std::string& path, unsigned threads) {
  std::vector<Run> runs;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string cmd = self + " --read " + reader + " " + path + " " + std::to_string(threads);
  for (int i = 0; i < 3; ++i) {
    FILE* child = popen(cmd.c_str(), "r");
    Run r;
    if (!child || std::fscanf(child, "%lf %lf %zu %zu %zu %zu", &r.wall, &r.cpu, &r.peak, &r.bytes, &r.keys,
                              &r.events) != 6) {
      std::fprintf(stderr, "the %s read failed\n", reader.c_str());
      std::exit(1);
    }
    pclose(child);
    runs.push_back(r);
  }
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.wall < b.wall; });
  return runs[1];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::string(argv[1]) == "--read")
    return read_once(argv[2], argv[3], static_cast<unsigned>(std::atoi(argv[4])));
  const size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 32768;
  const std::string dir = argc > 2 ? argv[2] : "/tmp";
  const unsigned threads = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 0;
  const std::string path = dir + "/gpulin-key-read-speed.jsonl";
  size_t binary_size = 0;
  {
    const History h = generate_pq_batch_history(n, 1024, 1, 128);
    write_history_file(path, h);
    binary_size = history_to_binary(h).size();
  }
  const double mb = std::filesystem::file_size(path) / 1e6;

  const Run fast = median_of_three("key", path, threads);
  const Run dom = median_of_three("dom", path, threads);

  std::printf("%zu ops, %zu events, %zu keys; JSONL %.1f MB, binary form %.1f MB\n", n, fast.events, fast.keys, mb,
              binary_size / 1e6);
  std::printf("key reader : %.3f s wall (%.3f s cpu)  %.0f MB/s   peak resident %.1f MB\n", fast.wall, fast.cpu,
              mb / fast.wall, fast.peak / 1e6);
  std::printf("DOM reader : %.3f s wall (%.3f s cpu)  %.0f MB/s   peak resident %.1f MB\n", dom.wall, dom.cpu,
              mb / dom.wall, dom.peak / 1e6);
  std::printf("KeyHistory::bytes() %.1f MB = %.2f x the binary form; the key read's peak = %.2f x the binary form\n",
              fast.bytes / 1e6, double(fast.bytes) / binary_size, double(fast.peak) / binary_size);
  if (!std::getenv("KEEP")) std::filesystem::remove(path);
  return 0;
}
