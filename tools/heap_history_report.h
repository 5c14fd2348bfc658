// An application's recorded heap history (knapsack, the SSSP frontier loop), as
// `gpulin knapsack` and `gpulin sssp` report it: judged by the witness of the heap's
// rule, one line said, and written as JSON Lines to `out_dir/name.jsonl` when a
// folder is given. Returns whether the history is linearizable.
#pragma once

#include <string>

#include "histories/history.h"

namespace gpulin::cli {

bool report_heap_history(const History& history, const std::string& out_dir, const std::string& name);

}  // namespace gpulin::cli
