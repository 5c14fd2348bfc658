// Explain mode of the witness check: when the rule's order fails at an op, search
// a window of ops around it for any linearization, starting from the state the
// rule's order reaches before the window. That tells "not linearizable" from
// "linearizable, but not by the proof's points" - locally: the ops before the
// window are taken in the rule's order, and the ops invoked after the failing op
// responded are left out, so it is a diagnosis of the failure, not a verdict on
// the whole history (the search checker gives that).
#pragma once

#include <cstddef>

#include "histories/history.h"
#include "verify/model.h"
#include "verify/witness/points.h"
#include "verify/witness_checker.h"

namespace gpulin {

// `failing` indexes h.ops.
WindowExplanation explain_failure(const History& h, const Model& model, const PointScan& scan, size_t failing,
                                  const WitnessOptions& options);

}  // namespace gpulin
