// A registered structure's shared words at every scheduling point of a replay: the
// row's own replay (StructureRow::replay) run under a PointObserver
// (sim/point_observer.h). What gpulin render's stepper draws and `gpulin replay
// --state-at` prints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "histories/point_states.h"
#include "tools/registry/structure_row.h"

namespace gpulin::registry {

// gpulin replay's point budget unless --max-points says otherwise, and the stepper's:
// a livelocked run replays as it ran.
inline constexpr uint64_t kReplayPoints = 200'000;

// Every state of the replay of `schedule` (a string `row` owns), or with `stop_at`
// the states up to that one, the run stopped there (a fresh replay to that point).
// Throws std::exception on a string that does not fit, std::out_of_range where the
// run has no state `stop_at`.
PointStates replay_states(const StructureRow& row, const std::string& schedule, uint64_t max_points,
                          std::optional<uint64_t> stop_at = {});

}  // namespace gpulin::registry
