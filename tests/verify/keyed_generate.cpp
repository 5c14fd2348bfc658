// Not a test: writes a generated explicit-rule history of a keyed model (map, set,
// multimap), as JSON Lines and in the binary form, for timing `gpulin check` on it.
//   verify_keyed_generate OPS MODEL OUT_PREFIX [actors] [keys] [seed]
// writes OUT_PREFIX.jsonl and OUT_PREFIX.bin and prints the generation's seconds.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "histories/binary_format.h"
#include "histories/jsonl_writer.h"
#include "verify/testing/generate_keyed_history.h"

int main(int argc, char** argv) {
  using namespace gpulin;
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s OPS MODEL OUT_PREFIX [actors] [keys] [seed]\n", argv[0]);
    return 2;
  }
  KeyedHistoryOptions o;
  o.ops = std::strtoull(argv[1], nullptr, 10);
  o.model = argv[2];
  const std::string prefix = argv[3];
  if (argc > 4) o.actors = std::atoi(argv[4]);
  if (argc > 5) o.keys = std::strtoull(argv[5], nullptr, 10);
  if (argc > 6) o.seed = std::strtoull(argv[6], nullptr, 10);
  auto t0 = std::chrono::steady_clock::now();
  auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  const KeyHistory h = generate_keyed_history(o);
  std::printf("generated %zu ops, %zu events in %.2f s\n", h.ops.size(), h.events.size(), since());
  t0 = std::chrono::steady_clock::now();
  write_history_file(prefix + ".jsonl", h);
  std::printf("wrote %s.jsonl in %.2f s\n", prefix.c_str(), since());
  t0 = std::chrono::steady_clock::now();
  write_history_binary(prefix + ".bin", h);
  std::printf("wrote %s.bin in %.2f s\n", prefix.c_str(), since());
  return 0;
}
