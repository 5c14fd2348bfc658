// One simulated execution of the global merge (structures/merge_path/sim/merge_sim.h) on a
// merge program, and its judgement against std::merge: keys carry tags (A[i] -> i,
// B[j] -> high bit | j) as values, so stability (equal keys, A first) is checked
// with the keys. The explorer's policy has one consumer warp and 32-output windows,
// two stages, so small inputs already span several windows and blocks: three warps
// (fibers) a block.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/simulator.h"
#include "sim/strategy.h"
#include "structures/merge_path/global_merge.h"
#include "tools/explore/judgement.h"
#include "structures/merge_path/sim/merge_program.h"

namespace gpulin::explore {

using ExploreMergePolicy = merge_path::MergePolicy<32, 1, 2>;
inline constexpr uint32_t kMergeMaxBlocks = sim::kMaxActors / (ExploreMergePolicy::consumer_warps + 2);

struct MergeExecution {
  sim::RunResult run;
  bool ran = false;  // false when the strategy had no run left (dfs exhausted)
  std::vector<uint32_t> keys, tags;  // the output, with what was past its end
  std::vector<uint32_t> expected_keys, expected_tags;
};

// Runs `program` under `strategy`; the merge calls begin_run itself unless `begun`
// (the explorer began the run with merge_actors(c, p) actors).
MergeExecution execute_merge(const MergeConfig& c, const MergeProgram& p, sim::Strategy& strategy,
                             uint64_t max_points, bool begun = false);
// The actors (warps) of one simulated run of `p`: its blocks times a block's warps.
uint32_t merge_actors(const MergeConfig& c, const MergeProgram& p);
// Deadlock, livelock, fault from the run; a wrong result is a Violation of the
// merge's specification (std::merge), with the first differing output named.
Judgement judge_merge(const MergeExecution& e);

}  // namespace gpulin::explore
