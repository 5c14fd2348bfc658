// The generated root-release histories are valid and the witness checker keeps up
// with them at GPU scale.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "verify/search_checker.h"
#include "verify/testing/generate_pq_history.h"
#include "verify/witness_checker.h"

namespace gpulin {
namespace {

TEST(GeneratedPqHistory, PassesBothCheckers) {
  // Four actors: the search's work grows exponentially with the overlap.
  const History h = generate_pq_batch_history(400, 3, 7, 4);
  ASSERT_EQ(h.ops.size(), 400u);
  EXPECT_EQ(h.events.size(), 6 * 400u);
  const WitnessResult w = check_witness(h);
  EXPECT_EQ(w.verdict, Verdict::Linearizable) << (w.violation ? w.violation->message : "");
  const SearchResult s = check_search(h);
  EXPECT_EQ(s.verdict, Verdict::Linearizable) << s.message;
  EXPECT_EQ(check_witness(generate_pq_batch_history(3000, 5, 8)).verdict, Verdict::Linearizable);
}

TEST(GeneratedPqHistory, SameSeedSameHistory) {
  const History a = generate_pq_batch_history(100, 2, 11), b = generate_pq_batch_history(100, 2, 11);
  ASSERT_EQ(a.ops.size(), b.ops.size());
  for (size_t i = 0; i < a.ops.size(); ++i) EXPECT_EQ(a.ops[i].res, b.ops[i].res);
}

TEST(GeneratedPqHistory, ACorruptedDeleteIsFound) {
  History h = generate_pq_batch_history(2000, 4, 3);
  size_t victim = 0;
  for (size_t i = 1000; i < h.ops.size(); ++i)
    if (h.ops[i].f == "del" && !h.ops[i].res->as_array().empty()) {
      victim = i;
      break;
    }
  ASSERT_NE(victim, 0u);
  h.ops[victim].res->as_array().back() = Value::integer(h.ops[victim].res->as_array().back().as_int() + 1);
  const WitnessResult r = check_witness(h);
  ASSERT_TRUE(r.violation);
  EXPECT_EQ(r.violation->kind, WitnessViolation::Kind::WrongResult);
  EXPECT_EQ(r.violation->op, h.ops[victim].id);
}

TEST(GeneratedPqHistory, LargeWitnessCheck) {
  const auto t0 = std::chrono::steady_clock::now();
  const History h = generate_pq_batch_history(200'000, 8, 2024);
  const auto t1 = std::chrono::steady_clock::now();
  const WitnessResult r = check_witness(h);
  const auto t2 = std::chrono::steady_clock::now();
  EXPECT_EQ(r.verdict, Verdict::Linearizable) << (r.violation ? r.violation->message : "");
  EXPECT_EQ(r.ops_replayed, 200'000u);
  const double gen_s = std::chrono::duration<double>(t1 - t0).count();
  const double check_s = std::chrono::duration<double>(t2 - t1).count();
  std::printf("generated %zu ops (%zu events) in %.2f s; witness check %.2f s = %.1f M events/s\n", h.ops.size(),
              h.events.size(), gen_s, check_s, static_cast<double>(h.events.size()) / check_s / 1e6);
  // O(n log n): about a second under the sanitizers. Quadratic work (4 * 10^10 steps)
  // would take many minutes: a guard against that, not a speed target (the
  // benchmarks time the checkers).
  EXPECT_LT(check_s, 30.0);
}

}  // namespace
}  // namespace gpulin
