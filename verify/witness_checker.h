// The proof-guided check: the linearization a paper's proof claims, rebuilt from
// the recorded lock holds or lp events (the header's lp_rule), checked in
// O(n log n) so that GPU histories of millions of operations can be checked.
//
// Rules (history-format.md):
//   root-release  every op's point is its FIRST hold of node 1, ordered by that
//                 hold's rel;
//   last-lock     `ins`: the hold of the LAST node it acquired (its acq of largest
//                 t); every other op (`del`): its first hold of node 1; ordered
//                 by those holds' rel;
//   explicit      the op's single lp event.
// A pending op without a point never took effect; one with a point took effect
// there with its result unconstrained (a hold it never released orders it after
// every released one). A completed op without a point fails the check.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "histories/history.h"
#include "verify/search_checker.h"
#include "verify/verdict.h"

namespace gpulin {

enum class LpRule { RootRelease, LastLock, Explicit };

// The header's lp_rule; FormatError when absent or unknown.
LpRule lp_rule_of(const History& h);
LpRule lp_rule_of(const Header& header, const std::string& source);

struct WitnessViolation {
  enum class Kind {
    MissingPoint,      // a completed op has no point under the rule
    ExtraPoint,        // explicit rule: an op has more than one lp event
    PointOutside,      // the point (its hold) is not strictly inside [inv, ret]
    OverlappingHolds,  // two ops hold one node at overlapping times
    WrongResult,       // the replay in the rule's order gives another result
  };
  Kind kind = Kind::WrongResult;
  int64_t op = 0;         // the failing op
  int64_t other_op = -1;  // OverlappingHolds: the op that held the node already
  int64_t node = 0;       // OverlappingHolds: the node; lock rules: the point's node
  uint64_t t = 0;         // where: the point, the overlapping acq, the missing ret
  std::string expected;   // WrongResult: what the model answers at the point
  std::string recorded;   // WrongResult: what the op returned
  std::string message;    // one line that says all of it
};

const char* to_string(WitnessViolation::Kind k);

// The search on a window around the failing op (WitnessOptions::explain).
struct WindowExplanation {
  // NotLinearizable: the window has no linearization from the state the rule's
  // order reaches before it. Linearizable: it has one, so the history may be
  // linearizable, only not by the proof's points. Undecided: out of budget, or
  // the rule's order already failed before the window.
  Verdict verdict = Verdict::Undecided;
  std::vector<int64_t> ops;   // the window's op ids
  std::string initial_state;  // the replay's state before the window
  std::string message;
};

struct WitnessOptions {
  bool explain = false;
  // Ops before the failing one, in the rule's order, that join the window (beside
  // every op that overlaps the failing one in time).
  size_t window_before = 8;
  // Budget of the window's search (its initial_state is set by the checker).
  SearchOptions search;
  // Wall-clock limit of the window's search in seconds (the smaller of this and
  // search.max_seconds where both are set; 0 for none): explaining a failure is
  // a diagnosis, and should not cost more than the check it explains.
  double window_seconds = 10;
};

struct WitnessResult {
  Verdict verdict = Verdict::Linearizable;  // never Undecided
  size_t ops_replayed = 0;                  // ops replayed before stopping
  std::optional<WitnessViolation> violation;
  std::optional<WindowExplanation> explanation;
};

// The message of a WrongResult violation `v` (its t, expected and recorded set)
// of op, after `done` ops in the rule's order (capped: the replay dropped states).
std::string wrong_result_message(const Operation& op, const WitnessViolation& v, size_t done, bool capped);

// Throws FormatError for a header or operation that does not fit the model, a
// missing or unknown lp_rule, or holds that break the format's alternation rule.
WitnessResult check_witness(const History& h, const WitnessOptions& options = {});

}  // namespace gpulin
