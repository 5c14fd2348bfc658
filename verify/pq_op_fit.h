// Whether an operation of a pq or pq-batch KeyHistory fits the model: the rules
// of the pq-batch model's check_call and check_result (verify/models/pq_batch.cpp;
// pq is pq-batch with k = 1), read on a KeyOp, without a Value per key. Where
// Model::validate_ops throws on a History, this names the same op and rule.
#pragma once

#include <cstddef>

#include "histories/key_history.h"

namespace gpulin {

enum class PqMisfit {
  None,
  UnknownOp,  // f is neither ins nor del
  InsArgs,    // ins takes 1 to k keys
  InsResult,  // ins returns null
  DelArgs,    // del takes no arguments
  DelResult,  // del returns at most k keys, ascending (not null)
};

// The first rule `op` breaks (the call's before the result's), or None.
PqMisfit pq_misfit(const KeyHistory& h, const KeyOp& op, size_t k);

}  // namespace gpulin
