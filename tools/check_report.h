// What `gpulin check` prints, whichever path decided (check_keyed.h's fast paths
// or the generic one in cmd_check.cpp): one line with the verdict, the method,
// the operations and the seconds, the detail of a failure, and a minimal failing
// sub-history (verify/minimise.h: it fails at the op the detail names); or, with
// --json, one object with the same fields.
#pragma once

#include <cstdint>
#include <string>

#include "verify/minimise.h"
#include "verify/search_checker.h"
#include "verify/verdict.h"

namespace gpulin::cli {

struct CheckReport {
  std::string file;
  Verdict verdict = Verdict::Linearizable;
  std::string method;
  size_t ops = 0;
  uint64_t states = 0, steps = 0;
  double seconds = 0;
  BudgetExhausted budget = BudgetExhausted::None;  // which one made it Undecided
  std::string detail;   // printed when not linearizable, or when `note` is set
  bool note = false;    // print the detail of a linearizable history too
  std::string minimal;  // JSONL of a minimal failing sub-history, or empty
  std::string minimal_note;  // the op it fails at and the ops kept for it (text form only)
};

// Fills in `minimal` and `minimal_note` from a minimisation.
void set_minimal(CheckReport& r, const MinimalFailure& m);

// Prints the report and returns its exit code (the verdict's number).
int print_report(const CheckReport& r, bool json);

}  // namespace gpulin::cli
