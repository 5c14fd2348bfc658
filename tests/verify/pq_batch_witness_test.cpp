// The KeyHistory pq-batch witness check (for GPU-sized histories) agrees with the
// generic witness check: on generated linearizable histories, and on the same
// histories with one delete's result corrupted; and to_key_history/expand round-trip.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "histories/key_history.h"
#include "verify/pq_batch_witness.h"
#include "verify/testing/generate_pq_history.h"
#include "verify/witness_checker.h"

namespace gpulin {
namespace {

TEST(PqBatchWitness, AgreesWithTheGenericCheckOnValidHistories) {
  for (int k : {1, 4, 16}) {
    const History h = generate_pq_batch_history(2000, k, 7 + k, 8);
    const KeyHistory c = to_key_history(h);
    EXPECT_EQ(check_witness(h).verdict, Verdict::Linearizable);
    const WitnessResult r = check_witness_pq_batch(c);
    EXPECT_EQ(r.verdict, Verdict::Linearizable) << (r.violation ? r.violation->message : "");
    EXPECT_EQ(r.ops_replayed, check_witness(h).ops_replayed);
  }
}

TEST(PqBatchWitness, KeyHistoryAndExpandRoundTrip) {
  const History h = generate_pq_batch_history(300, 4, 3, 4);
  const History back = expand(to_key_history(h));
  ASSERT_EQ(back.ops.size(), h.ops.size());
  for (size_t i = 0; i < h.ops.size(); ++i) {
    EXPECT_EQ(back.ops[i].args, h.ops[i].args);
    EXPECT_EQ(back.ops[i].res.has_value(), h.ops[i].res.has_value());
    if (h.ops[i].res) {
      EXPECT_EQ(*back.ops[i].res, *h.ops[i].res);
    }
  }
  EXPECT_EQ(back.events.size(), h.events.size());
}

RC_GTEST_PROP(PqBatchWitness, FindsTheSameCorruptedDelete, (uint64_t seed, uint8_t pick)) {
  History h = generate_pq_batch_history(200, 3, seed, 4);
  // Corrupt one delete that returned keys: add one to its first key.
  std::vector<size_t> dels;
  for (size_t i = 0; i < h.ops.size(); ++i)
    if (h.ops[i].f == "del" && h.ops[i].res && h.ops[i].res->is_array() && !h.ops[i].res->as_array().empty())
      dels.push_back(i);
  RC_PRE(!dels.empty());
  Operation& op = h.ops[dels[pick % dels.size()]];
  auto& first = op.res->as_array()[0];
  first = Value::integer(first.as_int() + 1);
  const WitnessResult generic = check_witness(h);
  const WitnessResult fast = check_witness_pq_batch(to_key_history(h));
  RC_ASSERT(generic.verdict == fast.verdict);
  if (generic.violation) {
    RC_ASSERT(fast.violation.has_value());
    RC_ASSERT(generic.violation->op == fast.violation->op);
  }
}

}  // namespace
}  // namespace gpulin
