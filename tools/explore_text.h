// An exploration's counts as text, the way explore and merge-reports print them.
#pragma once

#include <string>

#include "tools/explore/explore.h"

namespace gpulin::cli {

// "strategy=dfs preemptions=2 seed=1"
std::string strategy_text(const explore::ExploreOptions& o);

// A structure that records histories counts every kind of failure of them
// (`histories`); one judged by its output (the merge) counts distinct outputs and
// its wrong results. Each first failure comes with its replay command.
void print_counts(const std::string& strategy, const explore::ExploreSummary& s, bool histories);

}  // namespace gpulin::cli
