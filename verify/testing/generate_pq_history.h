// A valid root-release pq-batch history of any size, for scale tests and
// benchmarks of the checkers: actors run ins and del operations against one
// root lock, hand over hand to a child node as the TD heap does, and each op's
// result is what a sequential pq-batch gives in the order of the root releases.
#pragma once

#include <cstddef>
#include <cstdint>

#include "histories/history.h"

namespace gpulin {

// `ops` operations of 1 to k keys by `actors` actors (at least 1); the same
// arguments give the same history. Six events per op. Ops wait for the root, so
// about `actors` ops overlap at any time: the witness checker does not mind, the
// search checker wants few actors (4, say) to finish. Keys are drawn from
// [0, key_range): a small range gives duplicate keys.
History generate_pq_batch_history(size_t ops, int k, uint64_t seed, int actors = 32, uint64_t key_range = 1000000);

}  // namespace gpulin
