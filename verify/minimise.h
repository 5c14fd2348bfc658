// Counterexample minimisation: the smallest sub-history (a subset of the
// operations, each with all its events, header unchanged) that fails for the
// reason the whole history does.
//
// "Still fails" is not enough: a sub-history of a failing history can fail for a
// reason the run never had (drop the replace a search read and the search fails
// alone; drop an `ins` and a later `del` returns a key nobody inserted), and the
// minimal history would then blame an innocent op. So one rule, for every model
// and both check methods:
//   1. the check on the whole history blames one op (verify/blame.h): the search's
//      op that cannot follow its longest linearizable prefix, or the witness's
//      violation;
//   2. that op, the ops its failure names, and every op that may have produced a
//      result among them (the model's may_have_produced, transitively) are fixed:
//      never removed;
//   3. ddmin removes other ops, and takes a smaller history only when the same
//      check on it blames the same op the same way.
// The result fails at the op the whole history's report names, with the writes it
// read. It presents a failure compactly, never decides one: every candidate taken
// was checked. Every caller goes through minimise(): `gpulin check`'s report and
// its --json `minimal` (both check paths), and the failing window of a page the
// search decides (render/timeline.h; and so the pages of explore, replay and
// survey; a page by an lp_rule shows the witness's window search instead).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "histories/history.h"
#include "verify/blame.h"
#include "verify/search_checker.h"

namespace gpulin {

struct MinimalFailure {
  History history;             // the minimal failing sub-history
  Blame blame;                 // the whole history's, and the minimal one's
  std::vector<int64_t> fixed;  // ids of the ops never removed, the blamed op first
  size_t checks = 0;           // checks run, the whole history's included
};

// Delta debugging (Zeller's ddmin) over the ops outside the fixed ones, then single
// removals until no one op can go (1-minimal). `options` are the search's budgets
// (a candidate whose search runs out does not count as failing). Throws
// std::invalid_argument when `failing` does not fail by `method`.
MinimalFailure minimise(const History& failing, CheckMethod method, const SearchOptions& options = {});

}  // namespace gpulin
