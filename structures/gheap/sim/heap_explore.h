// `gpulin explore --structure gheap-td|gheap-bu`: many simulated schedules of heap
// programs (heap_run.h), every history judged by the proof's witness and the search;
// the first failure of each kind shrunk (drop actors, then operations) to a minimal
// program with its replay string.
#pragma once

#include "structures/gheap/sim/heap_config.h"
#include "structures/gheap/sim/heap_program.h"
#include "structures/gheap/sim/heap_run.h"
#include "tools/explore/explore.h"

namespace gpulin::explore {

// The run of options (schedules, strategy, parts) on heaps of `config` with programs
// of `shape` (its k is the config's).
ExploreSummary run_heap_explore(const ExploreOptions& options, const HeapConfig& config, WorkloadShape shape);

// The options, the heap and the program shape in one, as tests and benchmarks set them.
struct HeapExploreOptions : ExploreOptions {
  HeapConfig config;
  WorkloadShape shape;
};
inline ExploreSummary run_heap_explore(const HeapExploreOptions& o) { return run_heap_explore(o, o.config, o.shape); }

}  // namespace gpulin::explore
