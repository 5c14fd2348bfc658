// What a timeline page shows besides the history itself (gpulin render): the
// linearization points in order - the header's rule's (the witness checker's points)
// or, without a rule, the search's linearization placed in each op's interval - the
// model's state after each, the verdict, and for a failing history the minimal
// failing window and the longest linearizable prefix. Reads a History and the
// checkers only (the one-way path: history -> checkers -> report).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "histories/history.h"
#include "verify/verdict.h"

namespace gpulin::render {

struct TimelinePoint {
  size_t op = 0;      // index into History::ops
  double t = 0;       // where the mark goes (a ticket; fractional for the search's)
  std::string state;  // the model's state after it (shortened past kStateChars)
};

inline constexpr size_t kStateChars = 120;

// Index into History::ops of each op id (History::index_of scans; pages have 10^5 ops).
std::unordered_map<int64_t, size_t> op_indices(const History& h);

struct Timeline {
  Verdict verdict = Verdict::Linearizable;
  std::string method;   // "witness (rule explicit)", "search", ...
  std::string message;  // the checker's one-line verdict
  std::vector<TimelinePoint> points;  // in linearization order
  // The failing window (op indices): by the search, the minimal failing history
  // (verify/minimise.h: it fails at `failing`, with the writes it read), as
  // `gpulin check` prints it; by a rule, the ops the witness's window search took.
  std::vector<size_t> window;
  std::vector<size_t> prefix;         // the longest linearizable prefix, in order
  int64_t failing = -1;               // the op where it fails (index), or -1
  double failing_t = -1;              // its point under the rule, where the replay fails (-1: none)
  std::string notes;                  // what the page could not show, and why
};

struct TimelineOptions {
  double search_seconds = 20;      // the search's wall-clock budget (no rule, or to explain)
  size_t minimise_max_ops = 400;   // ddmin a search failure only below this many ops
};

// Throws FormatError where the history does not fit its model.
Timeline build_timeline(const History& h, const TimelineOptions& o = {});

}  // namespace gpulin::render
