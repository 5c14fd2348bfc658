// Second half of the witness check: replays the ops in the rule's order on the
// model. Usually one state; a pending op whose effect is nondeterministic (a
// bucket-pq extractmin among ties) leaves every possible one, and the replay
// carries them all until completed ops' results tell them apart.
#pragma once

#include <cstddef>
#include <vector>

#include "histories/history.h"
#include "verify/model.h"

namespace gpulin {

struct Replay {
  std::vector<State> states;  // the possible states after `done` ops
  size_t done = 0;            // ops replayed
  bool failed = false;        // order[done] fits none of `states` (left as they were)
  bool capped = false;        // possible states beyond kMaxReplayStates were dropped
};

constexpr size_t kMaxReplayStates = 64;

// Replays h.ops[order[0]] .. h.ops[order[count - 1]], stopping at the first
// completed op whose recorded result fits no possible state.
Replay replay(const History& h, const Model& model, const std::vector<size_t>& order, size_t count);

}  // namespace gpulin
