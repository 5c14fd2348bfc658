// The witness check for pq-batch histories too large for the generic replay (a
// GPU run: a million operations of up to 1024 keys): the same points and hold
// checks (witness/points.h), then a replay whose state is a heap of sorted runs,
// one per inserted batch, so a key costs O(log batches) and no Value is built.
#pragma once

#include "histories/key_history.h"
#include "verify/witness_checker.h"

namespace gpulin {

// The reference for the linear per-key checks (verify/pq_linear/): slower, but
// a replay anyone can read. Throws FormatError for a header that is not pq-batch
// or has no lock rule.
WitnessResult check_witness_pq_batch(const KeyHistory& h);

}  // namespace gpulin
