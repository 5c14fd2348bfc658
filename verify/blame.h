// What a failing check blames: the op it could not linearize, and how. A smaller
// history fails "for the same reason" when the same check blames the same op the
// same way there; minimisation (verify/minimise.h) keeps that op and what its
// failure depends on, and takes no other kind of smaller history.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "histories/history.h"
#include "verify/search_checker.h"
#include "verify/witness_checker.h"

namespace gpulin {

enum class CheckMethod { Search, Witness };

struct Blame {
  int64_t op = -1;  // the op id the check could not linearize
  // Witness: the violation's kind (a wrong result, overlapping holds, ...); the
  // search fails one way only.
  std::optional<WitnessViolation::Kind> kind;
  // Other ops the failure names: the witness's other holder of an overlapped node.
  std::vector<int64_t> with;

  bool same_failure(const Blame& o) const { return op == o.op && kind == o.kind; }
};

// The blame of h's check by `method`, or nullopt when it does not fail (linearizable,
// or undecided under `options`, the search's budgets). Search: the op that had
// responded when none could follow the longest linearizable prefix
// (SearchResult::stuck_ops' first, the op its message names); witness: the
// violation's op.
std::optional<Blame> blame(const History& h, CheckMethod method, const SearchOptions& options = {});

// Indices into h.ops of what a failure blamed on b depends on: the blamed op, the
// ops b names beside it, and, transitively, every op that may have produced a result
// of one of them (Model::sources: the replace a search read, the insert of a key a
// delete returned). The blamed op comes first.
std::vector<size_t> failure_core(const History& h, const Blame& b);

}  // namespace gpulin
