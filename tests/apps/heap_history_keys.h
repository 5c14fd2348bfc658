// What a generalized heap's history moved: keys inserted, keys deleted, operations
// left pending. The applications' tests (knapsack, the SSSP frontier loop, in the
// simulator and on the GPU) check that their heap drained: every key inserted came
// out of a delete.
#pragma once

#include <cstdint>

#include <gtest/gtest.h>

#include "histories/history.h"
#include "structures/gheap/sim/heap_run.h"

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

// A recorded heap history that drained: nothing pending, every key inserted deleted,
// at least `created` keys inserted (exactly, unless a sweep re-inserted some), and
// linearizable by the witness of its rule.
inline void expect_drained_and_linearizable(const History& h, uint64_t created, bool reinserted) {
  const HeapKeys keys = heap_keys_of(h);
  EXPECT_EQ(keys.pending, 0u);
  EXPECT_EQ(keys.deleted, keys.inserted);
  if (reinserted) EXPECT_GE(keys.inserted, created);
  else EXPECT_EQ(keys.inserted, created);
  const explore::Judgement j = explore::judge_history(h, explore::JudgeOptions{});
  EXPECT_EQ(j.failure, explore::Failure::None) << j.message;
}

}  // namespace gpulin::test
