// An exact, near-linear linearizability check for pq and pq-batch histories in
// which every key is inserted at most once (Gibbons, Bruno and Phillips 2002 show
// the problem is polynomial then; the general search is exponential). One pass
// over the events in real-time order: every delete takes effect as early as it
// can, every insert as late as it can. docs/distinct-pq-checker.md has the
// algorithm and the proof.
//
// Where it does not apply (another model, a key inserted twice, a pending delete)
// it says so and decides nothing: the caller falls back to check_search. With
// inserts of several keys (pq-batch) it is exact whenever the pass never pulls
// such an insert forward together with keys the pulling delete does not return;
// otherwise a failure it cannot prove is reported as not applicable too.
#pragma once

#include <cstdint>
#include <string>

#include "histories/key_history.h"
#include "verify/verdict.h"

namespace gpulin {

struct DistinctPqResult {
  enum class Applicable {
    Yes,              // verdict is exact
    NotPqModel,       // the header's model is neither pq nor pq-batch
    DuplicateKeys,    // some key is inserted twice
    PendingDelete,    // a del without ret: its unknown result is a wildcard
    MultiKeyPulled,   // the pass failed after pulling a multi-key insert forward: inexact
  };
  Applicable applicable = Applicable::Yes;
  Verdict verdict = Verdict::Undecided;  // Undecided unless applicable == Yes
  int64_t failing_op = -1;               // NotLinearizable: id of the delete that could not take effect
  std::string message;                   // one readable paragraph: why (or why not applicable)
};

const char* to_string(DistinctPqResult::Applicable a);

// True when no key is inserted twice (by two ins ops or twice in one).
bool has_distinct_keys(const KeyHistory& h);

// Checks h (model pq or pq-batch; an lp_rule is ignored). Throws FormatError when
// an operation does not fit the model: f not ins/del, ins without 1..k keys or
// with a non-null result, del with arguments, a del result of more than k keys
// or not ascending.
DistinctPqResult check_distinct_pq(const KeyHistory& h);

}  // namespace gpulin
