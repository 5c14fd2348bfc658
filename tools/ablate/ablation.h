// `gpulin ablate`: which of a structure's orderings its correctness needs under the
// PTX memory model. Every ordering site the structure's runs meet (a source line
// where it calls the execution context for an ordered access:
// sim/memory/ordering_sites.h) is weakened alone, one way at a time (an acquire or
// release half dropped, a fence dropped, a .gpu scope narrowed to .cta, a strong
// access made weak), and explored under ptx; a failure makes the weakening
// "needed", with the failure's replay string, checked to fail as replayed and to
// pass with the same interleaving under sc.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/memory/ordering_sites.h"
#include "tools/explore/explore.h"
#include "tools/registry/structure_row.h"

namespace gpulin::ablate {

// One site (a source line) weakened one way.
struct Ablation {
  sim::memory::Weakening weakening;
  // The accesses at that line the weakening changes, as written: "rmw acq_rel.gpu".
  std::vector<std::string> accesses;
};

enum class Verdict {
  Needed,          // a failure under ptx that replays, and passes under sc
  NotShownNeeded,  // no failure within the schedules explored
  FailsUnderSc,    // the failure's interleaving fails under sc, or as written, too: not the ordering's
  NotReproduced,   // the failure's replay string did not fail again
};
const char* to_string(Verdict v);

struct AblationResult {
  Ablation ablation;
  Verdict verdict = Verdict::NotShownNeeded;
  uint64_t schedules = 0;
  explore::Failure kind = explore::Failure::None;
  std::string message, schedule;  // the first failure (shrunk), where there was one
  size_t ops = 0;
};

// The structure's ordering sites (one exploration of `s` under ptx, as written, the
// sites its runs met) grouped by line into the ablations that change them; and the
// summary of that exploration (the code as written must pass for the rest to mean
// anything).
struct Inventory {
  std::vector<Ablation> ablations;
  explore::ExploreSummary as_written;
};
Inventory inventory(const registry::StructureRow& row, registry::Selection s, const explore::ExploreOptions& o);

// Explores `s` under ptx with `a` weakened and judges it (replaying a failure under
// ptx and under sc).
AblationResult run_ablation(const registry::StructureRow& row, registry::Selection s, const explore::ExploreOptions& o,
                            const Ablation& a);

// Every ablation, `jobs` at a time; `done(i, result)` as each finishes (any order).
std::vector<AblationResult> run_ablations(const registry::StructureRow& row, const registry::Selection& s,
                                          const explore::ExploreOptions& o, const std::vector<Ablation>& ablations,
                                          unsigned jobs,
                                          const std::function<void(size_t, const AblationResult&)>& done = {});

}  // namespace gpulin::ablate
