// Histories of a priority queue with distinct keys, for check_distinct_pq's tests
// and its speed measurement: actors run ins and del concurrently, each op takes
// effect at a hidden point inside its interval, and results are what a
// sequential pq-batch gives in the order of those points.
#pragma once

#include <cstddef>
#include <cstdint>

#include "histories/history.h"

namespace gpulin {

// `ops` operations by `actors` actors (at least 1), about `actors` of them
// overlapping at any time. Model "pq" when k == 1, else "pq-batch" with
// params.k = k (inserts of 1..k keys); no lp_rule. Keys are distinct; deletes
// often find the queue empty or short. The same arguments give the same history.
//
// With linearizable == false one delete's result is then corrupted so that no
// linearization exists, for certain (not just unlike the hidden order):
//  - preferably it returns [] while some key y is in the queue throughout its
//    interval in every linearization (y's ins returned before the delete was
//    invoked, and y's deleter, if any, was invoked after it returned);
//  - else (no such pair) one of its keys is replaced by a key never inserted
//    (or, if every delete returned [], one returns such a key).
// A history without any delete stays linearizable. The header's "generator" field names the corrupted op.
History generate_distinct_pq_history(size_t ops, int k, int actors, uint64_t seed, bool linearizable);

}  // namespace gpulin
