// The witness verdict of a pq or pq-batch history with an lp_rule, from the lean
// KeyHistory (histories/key_history_reader.h) and the per-key check
// (linear_check.h): what `gpulin check` runs on such a file before anything
// else. It answers only where its answer is the reference's own, check_witness
// on the History that read_history_file gives: a pass. Everything else is left
// to that reference, whose words are the ones users get:
//   - an op that does not fit the model (Model::validate_ops names it: bad input);
//   - a history the per-key check cannot decide (a pending delete with a point,
//     keys spread too wide to pack);
//   - a failure, whose message, window search and minimal counterexample are the
//     replay's (check_witness and minimise take the History).
#pragma once

#include "histories/key_history.h"

namespace gpulin {

// True when check_witness would pass the history: every op fits the model
// (pq_op_fit.h) and the per-key check passes. `threads`: as LinearCheckOptions.
// For pq and pq-batch histories with an lp_rule (check_pq_batch_linear throws
// FormatError on others).
bool pq_witness_passes(const KeyHistory& h, unsigned threads = 0);

}  // namespace gpulin
