// The rule-ordered pq-batch check in linear, parallel time (issue: checking at
// GPU scale). The lock rule's points fix an order; key_rules.h says what makes
// that order legal, key by key. This is the host version (every core); the GPU
// version (gpu_check.h) runs the same rules straight from the device recorder's
// buffers. Both must agree with the replay (pq_batch_witness.h), the reference.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "histories/key_history.h"
#include "verify/keys_text.h"
#include "verify/witness_checker.h"

namespace gpulin {

// Why a failure happened, with what explains it: found from the per-key data
// (no replay), so it costs no more than the check.
struct LinearFailure {
  uint32_t kind = 0;             // pq_linear::FailKind
  uint64_t position = 0;         // in the rule's order: ops before it are legal
  int64_t op = -1;               // the failing delete
  uint64_t point_t = 0;          // its point (the hold's rel)
  bool point_is_hold_number = false;  // point_t is the root's hold number (hold versions), not a ticket
  int64_t key = 0;               // missing / bypassed: the key behind it
  std::vector<int64_t> recorded; // what the delete returned
  std::vector<int64_t> expected; // what the model answers there (the smallest present keys)
  uint64_t present = 0;          // keys present before it
  int64_t inserted_by = -1;      // the op that last inserted `key` before the failure (-1: none)
  int64_t removed_by = -1;       // the op that last removed `key` before the failure (-1: none)
  std::string message;           // one paragraph that says all of it
};

struct LinearCheckOptions {
  unsigned threads = 0;  // 0: every core
};

struct LinearCheckResult {
  WitnessResult witness;                 // verdict, ops legal before the failure, the violation
  std::optional<LinearFailure> failure;  // a wrong result (not a structural violation)
  // False when the per-key rules cannot decide: a pending delete with a point
  // (its result is unknown, only a replay can say what it removed). The caller
  // then runs the replay (check_witness_pq_batch); `why` says so.
  bool applicable = true;
  std::string why;
  uint64_t tuples = 0;  // keys checked (inserted plus returned)
};

// Throws FormatError for a header that is not pq-batch / pq, a missing lp_rule,
// or an op that is neither ins nor del.
LinearCheckResult check_pq_batch_linear(const KeyHistory& h, const LinearCheckOptions& options = {});

// The message of a failure, from its facts (shared by the host and GPU checkers).
std::string describe_linear_failure(const LinearFailure& f, uint64_t k);

}  // namespace gpulin
