// How schedules are explored, on the command line of the commands that explore
// (`explore`, `ablate`): strategy, its bound, schedules, seed, points per run.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "tools/explore/explore.h"

namespace gpulin::cli {

// Adds --strategy, --depth, --preemptions, --schedules (described by
// `schedules_help`), --seed and --max-points, each setting its field of `o`.
void add_schedule_options(CLI::App* sub, explore::ExploreOptions& o, const std::string& schedules_help);

}  // namespace gpulin::cli
