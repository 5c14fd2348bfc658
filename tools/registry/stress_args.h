// `gpulin stress`'s choices, as the command line set them: the structure's
// selection (variant, mutant, and a value for each of the row's stress_params) and
// what a run of every structure takes. Each row's `stress` reads it.
#pragma once

#include <cstdint>
#include <string>

#include "tools/registry/structure_row.h"

namespace gpulin::registry {

struct StressArgs {
  Selection selection;  // selection.params: the row's stress_params
  uint64_t seed = 1;
  bool record = false;   // record the history and check it
  std::string out_dir;   // with record: the history as JSON Lines goes here
  std::string gpus;      // --gpus: "" runs on the current GPU alone
};

}  // namespace gpulin::registry
