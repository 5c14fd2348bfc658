// explore --mpi: one exploration over the ranks of MPI_COMM_WORLD, self-scheduled.
// Rank 0 hands out the parts of the run (random/pct schedule ranges, dfs subtrees)
// in guided chunks (explore/part_dispenser.h) to whichever rank asks, so that fast
// ranks take more (a static split leaves ranks idle behind the largest dfs
// subtrees); it explores too, on a second thread, while its main thread answers. Each rank's report travels to rank 0 as
// the JSON of report_json, which rank 0 merges like merge-reports.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tools/explore/work_units.h"

namespace gpulin::cli {

// True when gpulin was built with MPI.
bool mpi_available();

// Initialises MPI, runs `explore` on every rank (given its parts, handed out by rank
// 0, and its rank) and finalises MPI. On rank 0: every rank's report (rank 0's
// first); elsewhere nullopt.
using RankExplore = std::function<std::string(const explore::UnitSource& parts, int rank)>;
std::optional<std::vector<std::string>> mpi_explore(const RankExplore& explore);

}  // namespace gpulin::cli
