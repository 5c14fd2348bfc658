// What a generalized heap's history moved: keys inserted, keys deleted, operations
// left pending. The applications' tests (knapsack, the SSSP frontier loop, in the
// simulator and on the GPU) check that their heap drained: every key inserted came
// out of a delete.
#pragma once

#include <cstdint>

#include "histories/history.h"

namespace gpulin::test {

struct HeapKeys {
  uint64_t inserted = 0, deleted = 0, pending = 0;
};

inline HeapKeys heap_keys_of(const History& h) {
  HeapKeys k;
  for (const Operation& op : h.ops) {
    if (op.pending()) ++k.pending;
    if (op.f == "ins") k.inserted += op.args.as_array().size();
    if (op.f == "del" && op.res) k.deleted += op.res->as_array().size();
  }
  return k;
}

}  // namespace gpulin::test
