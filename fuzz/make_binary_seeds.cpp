// Writes the binary form of each JSON Lines history named on the command line into
// the folder named first: the binary reader's seed corpus (scripts/fuzz.sh).
// Usage: make_binary_seeds OUT_DIR HISTORY.jsonl...
#include <cstdio>
#include <filesystem>
#include <string>

#include "histories/binary_format.h"
#include "histories/jsonl_reader.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: make_binary_seeds OUT_DIR HISTORY.jsonl...\n");
    return 2;
  }
  std::filesystem::create_directories(argv[1]);
  for (int i = 2; i < argc; ++i) {
    try {
      const gpulin::History h = gpulin::read_history_file(argv[i]);
      gpulin::write_history_binary(std::string(argv[1]) + "/" + std::filesystem::path(argv[i]).stem().string() + ".bin", h);
    } catch (const gpulin::FormatError&) {
      // a malformed example has no binary form
    }
  }
  return 0;
}
