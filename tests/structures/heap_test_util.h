// Shared helpers of the heap tests: RapidCheck generation of heap programs.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <vector>

#include "structures/gheap/sim/heap_program.h"

namespace gpulin::explore::testing {

// One actor's operations: inserts of 1..k keys from [0, key_range), and deletes.
inline std::vector<HeapOp> gen_ops(uint32_t min_ops, uint32_t max_ops, uint32_t k, uint32_t key_range) {
  const auto n = *rc::gen::inRange<uint32_t>(min_ops, max_ops + 1);
  std::vector<HeapOp> ops;
  for (uint32_t i = 0; i < n; ++i) {
    HeapOp op;
    op.insert = *rc::gen::weightedElement<bool>({{3, true}, {2, false}});
    if (op.insert) {
      const auto m = *rc::gen::inRange<uint32_t>(1, k + 1);
      op.keys = *rc::gen::container<std::vector<uint32_t>>(m, rc::gen::inRange<uint32_t>(0, key_range));
    }
    ops.push_back(std::move(op));
  }
  return ops;
}

}  // namespace gpulin::explore::testing
