// Counterexample minimisation: the smallest sub-history (a subset of the
// operations, each with all its events, header unchanged) that still fails.
//
// This is for presenting a failure compactly, not for deciding one: a
// sub-history of a linearizable history can fail (drop an `ins` and a later
// `del` returns a key nobody inserted), so what is minimised is a history already
// found to fail, and the predicate re-checks every candidate - the result is a
// history the checker itself rejects, never a guess.
#pragma once

#include <cstddef>
#include <functional>

#include "histories/history.h"
#include "verify/search_checker.h"

namespace gpulin {

// True when the history still shows the failure being minimised.
using FailurePredicate = std::function<bool(const History&)>;

enum class CheckMethod { Search, Witness };

// "The checker still reports a violation": check_search's verdict is
// NotLinearizable (Undecided does not count), or check_witness fails.
FailurePredicate still_fails(CheckMethod method, SearchOptions options = {});

struct MinimiseStats {
  size_t checks = 0;  // predicate calls
};

// Delta debugging (Zeller's ddmin) over the operations, then single removals
// until no one op can go (1-minimal). `failing` must satisfy the predicate
// (std::invalid_argument otherwise); so does the result, checked last.
History minimise(const History& failing, const FailurePredicate& still_failing, MinimiseStats* stats = nullptr);

}  // namespace gpulin
