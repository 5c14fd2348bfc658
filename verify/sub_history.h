// A history restricted to some of its operations, with all their events and the
// header unchanged: what minimisation shrinks and the witness checker's window is.
#pragma once

#include <vector>

#include "histories/history.h"

namespace gpulin {

// The operations h.ops[i] for i in `op_indices` (any order, no repeats) and every
// event of theirs, sorted as History keeps them.
History sub_history(const History& h, std::vector<size_t> op_indices);

}  // namespace gpulin
