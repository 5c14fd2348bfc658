// One comparison of a fast checker's witness verdict with the reference's
// (check_witness, check_witness_pq_batch), for the tests of the per-key checks.
#pragma once

#include <gtest/gtest.h>

#include "verify/witness_checker.h"

namespace gpulin::testing {

// The same verdict, ops explained before the failure, and violation (kind, op).
inline void expect_same_witness(const WitnessResult& got, const WitnessResult& want) {
  EXPECT_EQ(got.verdict, want.verdict);
  EXPECT_EQ(got.ops_replayed, want.ops_replayed);
  EXPECT_EQ(got.violation.has_value(), want.violation.has_value());
  if (got.violation && want.violation) {
    EXPECT_EQ(got.violation->kind, want.violation->kind);
    EXPECT_EQ(got.violation->op, want.violation->op);
  }
}

}  // namespace gpulin::testing
