// First half of the witness check: one pass over the events, in time order,
// finds each op's linearization point under the rule and the structural
// violations (holds that overlap, points outside their op, missing points).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "histories/history.h"
#include "histories/key_history.h"
#include "verify/witness_checker.h"

namespace gpulin {

struct OpPoint {
  bool has = false;
  uint64_t begin = 0;  // the hold's acq, or the lp event
  uint64_t end = 0;    // the hold's rel (kPending while never released), or the lp
  int64_t node = 0;    // the held node (lock rules)
};

struct PointScan {
  std::vector<OpPoint> points;  // indexed like h.ops
  // Indices into h.ops of the ops with a point, in the rule's order.
  std::vector<size_t> order;
  // The earliest (in t) structural violation, if any.
  std::optional<WitnessViolation> violation;
  // Every op with a structural violation of its own (missing, extra or outside
  // point; the later op of overlapping holds), indices into h.ops in no order: a
  // per-key check leaves their keys to the search.
  std::vector<size_t> violating;
};

PointScan scan_points(const History& h, LpRule rule);
PointScan scan_points(const KeyHistory& h, LpRule rule);

}  // namespace gpulin
