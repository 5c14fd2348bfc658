// What `gpulin explore --structure psync` runs: the parallel heap's node capacity r
// and compile-time mutant, and the program - the new keys each delete-insert cycle
// brings (0 to 2r). Generated from a seed, shrunk when it fails, and written into
// replay strings explicitly:
//   psync:r=R[:mutant=NAME]|KEYS;KEYS;...|PICKS
// where a cycle's KEYS are comma-separated (empty for a cycle with no new keys).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/memory/memory_mode.h"
#include "histories/history.h"
#include "structures/psync/psync_config.h"

namespace gpulin::explore {

struct PsyncConfig {
  uint32_t r = 2;
  psync::Mutant mutant = psync::Mutant::None;
  sim::memory::MemorySetting memory;  // the simulator's memory (replay strings name it)
  // Threads of a step actor's block in the simulator: how many can race in its
  // scratch (sim/private_memory/barrier_phases.h); the schedules do not depend on it.
  uint32_t threads = 2;
  // Generation only:
  uint32_t cycles = 16;
  uint32_t keys = 100;  // keys drawn from [0, keys)
};

struct PsyncProgram {
  std::vector<std::vector<uint32_t>> cycles;
  size_t keys() const;  // new keys over all cycles
};

// The psync-pq history header (params.r, `source`) and the operation names.
Header psync_header(uint32_t r, const std::string& source);
std::vector<std::string> psync_fn_names();

std::string psync_mutant_name(psync::Mutant m);
std::optional<psync::Mutant> parse_psync_mutant(const std::string& s);
const std::vector<std::string>& psync_mutant_names();  // every mutant but none

// Three cycles in four bring r to 2r keys, the others fewer than r (a growing heap
// whose cycles take the refill path too), keys uniform in [0, keys).
PsyncProgram generate_psync_program(const PsyncConfig& c, uint64_t seed);

bool is_psync_replay(const std::string& replay);  // starts with "psync:"
std::string psync_replay_string(const PsyncConfig& c, const PsyncProgram& p, const std::vector<uint32_t>& picks);
struct PsyncReplayInput {
  PsyncConfig config;
  PsyncProgram program;
  std::vector<uint32_t> picks;
};
PsyncReplayInput parse_psync_replay_string(const std::string& s);  // throws std::invalid_argument

}  // namespace gpulin::explore
