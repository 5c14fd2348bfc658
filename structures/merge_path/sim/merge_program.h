// What `gpulin explore --structure merge` runs: the configuration (blocks, the
// compile-time mutant chosen by name) and the program (sorted inputs A and B, and
// where each array sits relative to a 16-byte boundary, which decides the window
// placement's bulk and element-wise copies). Generated from a seed, shrunk when it
// fails, and written into replay strings explicitly:
//   merge:blocks=3[:mutant=NAME]|a=OFF:k,k,...;b=OFF:k,...;c=OFF|PICKS
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/memory/memory_mode.h"
#include "structures/merge_path/merge_mutant.h"

namespace gpulin::explore {

struct MergeConfig {
  merge_path::MergeMutant mutant = merge_path::MergeMutant::None;
  uint32_t blocks = 3;   // at most; a merge has no more blocks than windows
  sim::memory::MemorySetting memory;  // the simulator's memory (replay strings name it)
  uint32_t max_len = 64; // generation only: inputs of 0 .. max_len keys each
};

struct MergeProgram {
  std::vector<uint32_t> a, b;          // sorted
  uint32_t off_a = 0, off_b = 0, off_c = 0;  // elements past a 16-byte boundary, 0..3
  size_t size() const { return a.size() + b.size(); }
};

std::string merge_mutant_name(merge_path::MergeMutant m);  // none, merge-window-overrun, merge-early-release, ...
std::optional<merge_path::MergeMutant> parse_merge_mutant(const std::string& s);

// Inputs of 0 .. max_len keys, from few distinct values (many duplicates) to many.
MergeProgram generate_merge_program(const MergeConfig& c, uint64_t seed);

bool is_merge_replay(const std::string& replay);  // starts with "merge:"
std::string merge_replay_string(const MergeConfig& c, const MergeProgram& p, const std::vector<uint32_t>& picks);
struct MergeReplayInput {
  MergeConfig config;
  MergeProgram program;
  std::vector<uint32_t> picks;
};
MergeReplayInput parse_merge_replay_string(const std::string& s);  // throws std::invalid_argument

}  // namespace gpulin::explore
