// The per-key rule-ordered check (verify/pq_linear) agrees with the replay
// (check_witness_pq_batch, the reference) on every history here: verdict, the
// failing op and how many ops were legal before it; and its explanation names the
// keys behind a failure and the ops that inserted them.
#include <algorithm>
#include <random>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "histories/key_history.h"
#include "tests/verify/history_builder.h"
#include "tests/verify/witness_expect.h"
#include "verify/pq_batch_witness.h"
#include "verify/pq_linear/block_max.h"
#include "verify/pq_linear/key_rules.h"
#include "verify/pq_linear/linear_check.h"
#include "verify/testing/generate_pq_history.h"

namespace gpulin {
namespace {

using testing::HistoryBuilder;
using testing::L;
using testing::N;

// Checks both ways (and with 1 and 3 threads) and insists they agree.
LinearCheckResult agree(const History& h) {
  const KeyHistory kh = to_key_history(h);
  const WitnessResult replay = check_witness_pq_batch(kh);
  const LinearCheckResult one = check_pq_batch_linear(kh, {1});
  const LinearCheckResult many = check_pq_batch_linear(kh, {3});
  EXPECT_TRUE(one.applicable) << one.why;
  testing::expect_same_witness(one.witness, replay);
  if (one.witness.violation && replay.violation && replay.violation->kind == WitnessViolation::Kind::WrongResult) {
    // The explanation's expected answer is the replay's.
    EXPECT_EQ(one.witness.violation->expected, replay.violation->expected) << one.witness.violation->message;
  }
  EXPECT_EQ(many.witness.verdict, one.witness.verdict);
  EXPECT_EQ(many.witness.ops_replayed, one.witness.ops_replayed);
  if (one.failure && many.failure) {
    EXPECT_EQ(many.failure->message, one.failure->message);
  }
  return one;
}

TEST(PqLinear, GeneratedHistoriesPass) {
  for (int k : {1, 4, 16})
    for (uint64_t range : {uint64_t{1000000}, uint64_t{20}}) {  // distinct-ish and many duplicates
      const LinearCheckResult r = agree(generate_pq_batch_history(3000, k, 11 + k, 8, range));
      EXPECT_EQ(r.witness.verdict, Verdict::Linearizable);
      EXPECT_GT(r.tuples, 0u);
    }
}

// Histories big enough for many buckets (2^10 tuples a bucket) and, with wide
// keys, several counting passes inside each: every corruption is found where the
// replay finds it, with the replay's expected answer, on 1 and 3 threads.
TEST(PqLinear, ManyBucketsAndWideKeysAgreeWithTheReplay) {
  for (uint64_t range : {uint64_t{5000}, uint64_t{1} << 40})
    for (int how = 0; how < 5; ++how) {
      History h = generate_pq_batch_history(4000, 32, 7 + how, 16, range);
      size_t victim = h.ops.size() / 2;
      while (h.ops[victim].f != "del" || !h.ops[victim].res || h.ops[victim].res->as_array().size() < 2) ++victim;
      Value::Array& res = h.ops[victim].res->as_array();
      switch (how) {
        case 0: res[0] = Value::integer(res[0].as_int() + 1); break;
        case 1: res.pop_back(); break;
        case 2: res.push_back(Value::integer(static_cast<int64_t>(range) + 7)); break;
        case 3: std::swap(res[0], res[1]); break;
        case 4: res.back() = Value::integer(res.back().as_int() + 3); break;
      }
      const LinearCheckResult r = agree(h);
      EXPECT_GT(r.tuples, uint64_t{1} << 16);
      EXPECT_EQ(r.witness.verdict, Verdict::NotLinearizable) << "range " << range << " corruption " << how;
    }
}

// Root-release history: each op's root hold at [2i+1.., ...]; one actor each.
HistoryBuilder heap_history(int k) {
  return HistoryBuilder("pq-batch", Value::object({{"k", Value::integer(k)}}), "root-release");
}

TEST(PqLinear, ReturnedKeyNeverInsertedIsMissing) {
  const History h = heap_history(2)
                        .op(0, 1, 4, "ins", L({5, 7}), N()).hold(0, 1, 2, 3)
                        .op(1, 5, 8, "del", L({}), L({5, 9})).hold(1, 1, 6, 7)
                        .build();
  const LinearCheckResult r = agree(h);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->kind, pq_linear::kMissing);
  EXPECT_EQ(r.failure->key, 9);
  EXPECT_EQ(r.failure->expected, (std::vector<int64_t>{5, 7}));
  EXPECT_NE(r.failure->message.find("key 9"), std::string::npos) << r.failure->message;
}

TEST(PqLinear, SmallerKeyLeftBehindIsBypassedAndNamesItsInsert) {
  const History h = heap_history(1)
                        .op(0, 1, 4, "ins", L({3}), N()).hold(0, 1, 2, 3)
                        .op(1, 5, 8, "ins", L({8}), N()).hold(1, 1, 6, 7)
                        .op(2, 9, 12, "del", L({}), L({8})).hold(2, 1, 10, 11)
                        .build();
  const LinearCheckResult r = agree(h);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->kind, pq_linear::kBypassed);
  EXPECT_EQ(r.failure->key, 3);
  EXPECT_EQ(r.failure->inserted_by, 0);
  EXPECT_EQ(r.failure->op, 2);
  EXPECT_EQ(r.failure->expected, (std::vector<int64_t>{3}));
}

TEST(PqLinear, TooFewKeysIsSize) {
  const History h = heap_history(2)
                        .op(0, 1, 4, "ins", L({3, 4}), N()).hold(0, 1, 2, 3)
                        .op(1, 5, 8, "del", L({}), L({3})).hold(1, 1, 6, 7)
                        .build();
  const LinearCheckResult r = agree(h);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->kind, pq_linear::kSize);
}

TEST(PqLinear, UnsortedResultFails) {
  const History h = heap_history(2)
                        .op(0, 1, 4, "ins", L({3, 4}), N()).hold(0, 1, 2, 3)
                        .op(1, 5, 8, "del", L({}), L({4, 3})).hold(1, 1, 6, 7)
                        .build();
  const LinearCheckResult r = agree(h);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->kind, pq_linear::kUnsorted);
}

TEST(PqLinear, DuplicateKeysCountCopies) {
  // Two copies of 5: the first delete takes one, the second the other; a third
  // delete that returns 5 again finds none.
  const History h = heap_history(1)
                        .op(0, 1, 4, "ins", L({5, 5}), N()).hold(0, 1, 2, 3)
                        .op(1, 5, 8, "del", L({}), L({5})).hold(1, 1, 6, 7)
                        .op(2, 9, 12, "del", L({}), L({5})).hold(2, 1, 10, 11)
                        .op(3, 13, 16, "del", L({}), L({5})).hold(3, 1, 14, 15)
                        .build();
  const LinearCheckResult r = agree(h);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->op, 3);
  EXPECT_EQ(r.failure->kind, pq_linear::kSize);  // nothing present: it must return []
}

TEST(PqLinear, StructuralViolationsComeFirst) {
  // Two holds of the root overlap: the witness's structural check reports it.
  const History h = heap_history(1)
                        .op(0, 1, 6, "ins", L({5}), N()).hold(0, 1, 2, 4)
                        .op(1, 2, 8, "del", L({}), L({5})).hold(1, 1, 3, 7)
                        .build();
  const LinearCheckResult r = agree(h);
  ASSERT_TRUE(r.witness.violation);
  EXPECT_EQ(r.witness.violation->kind, WitnessViolation::Kind::OverlappingHolds);
}

TEST(PqLinear, PendingDeleteWithAPointNeedsTheReplay) {
  const History h = heap_history(1)
                        .op(0, 1, 4, "ins", L({5}), N()).hold(0, 1, 2, 3)
                        .pending(1, 5, "del", L({})).hold(1, 1, 6, 7)
                        .build();
  const LinearCheckResult r = check_pq_batch_linear(to_key_history(h));
  EXPECT_FALSE(r.applicable);
  EXPECT_NE(r.why.find("pending delete"), std::string::npos);
}

TEST(PqLinear, SparseTableFirstAbove) {
  const std::vector<int64_t> base = {1, 9, 2, 2, 7, 3, 8, 0, 5};
  const uint64_t m = base.size();
  const uint32_t levels = pq_linear::sparse_levels(m);
  std::vector<int64_t> t(levels * m);
  std::copy(base.begin(), base.end(), t.begin());
  for (uint32_t l = 1; l < levels; ++l)
    for (uint64_t i = 0; i < m; ++i) t[l * m + i] = pq_linear::sparse_entry(t.data() + (l - 1) * m, i, 1ull << (l - 1), m);
  const pq_linear::SparseMaxView view{t.data(), m, levels};
  for (uint64_t lo = 0; lo < m; ++lo)
    for (uint64_t hi = lo; hi < m; ++hi) {
      EXPECT_EQ(view.max(lo, hi), *std::max_element(base.begin() + lo, base.begin() + hi + 1));
      for (int64_t v = -1; v < 10; ++v) {
        uint64_t want = lo;
        while (want <= hi && base[want] <= v) ++want;
        EXPECT_EQ(view.first_above(lo, hi, v), want) << lo << " " << hi << " " << v;
      }
    }
}

// The host's table (values and block maxima) answers as a scan does, over ranges
// inside one block, across two and across many; kNoMax entries (inserts) too.
TEST(PqLinear, BlockMaxTableAgreesWithAScan) {
  std::mt19937_64 rng(3);
  for (uint64_t m : {1ull, 31ull, 32ull, 33ull, 100ull, 257ull, 1000ull}) {
    std::vector<int64_t> base(m);
    for (int64_t& x : base) x = rng() % 3 == 0 ? pq_linear::kNoMax : static_cast<int64_t>(rng() % 50);
    const pq_linear::BlockMaxTable table(base);
    for (int q = 0; q < 3000; ++q) {
      uint64_t lo = rng() % m, hi = rng() % m;
      if (lo > hi) std::swap(lo, hi);
      ASSERT_EQ(table.max(lo, hi), *std::max_element(base.begin() + lo, base.begin() + hi + 1)) << m << " " << lo << " " << hi;
      const int64_t v = static_cast<int64_t>(rng() % 52) - 1;
      uint64_t want = lo;
      while (want <= hi && base[want] <= v) ++want;
      ASSERT_EQ(table.first_above(lo, hi, v), want) << m << " " << lo << " " << hi << " " << v;
    }
  }
}

// One delete's result corrupted in one of several ways; both checkers must find
// the same first failure. Small key ranges make duplicate keys common.
RC_GTEST_PROP(PqLinear, AgreesWithTheReplayOnCorruptedHistories,
              (uint64_t seed, uint8_t pick, uint8_t how, bool duplicates)) {
  const int k = 1 + static_cast<int>(seed % 4);
  History h = generate_pq_batch_history(120, k, seed, 4, duplicates ? 12 : 1000000);
  std::vector<size_t> dels;
  for (size_t i = 0; i < h.ops.size(); ++i)
    if (h.ops[i].f == "del" && h.ops[i].res && h.ops[i].res->is_array()) dels.push_back(i);
  RC_PRE(!dels.empty());
  Value::Array& res = h.ops[dels[pick % dels.size()]].res->as_array();
  switch (how % 5) {
    case 0: if (!res.empty()) res[0] = Value::integer(res[0].as_int() + 1); break;    // a neighbour
    case 1: if (!res.empty()) res.pop_back(); break;                                   // one too few
    case 2: res.push_back(Value::integer(2000000)); break;                              // never inserted
    case 3: if (res.size() > 1) std::swap(res[0], res[1]); break;                       // out of order
    case 4: if (!res.empty()) res.back() = Value::integer(res.back().as_int() + 50); break;
  }
  const KeyHistory kh = to_key_history(h);
  const WitnessResult replay = check_witness_pq_batch(kh);
  for (unsigned threads : {1u, 2u}) {
    const LinearCheckResult fast = check_pq_batch_linear(kh, {threads});
    RC_ASSERT(fast.applicable);
    RC_ASSERT(fast.witness.verdict == replay.verdict);
    RC_ASSERT(fast.witness.ops_replayed == replay.ops_replayed);
    if (replay.violation) {
      RC_ASSERT(fast.witness.violation.has_value());
      RC_ASSERT(fast.witness.violation->op == replay.violation->op);
      RC_ASSERT(fast.witness.violation->expected == replay.violation->expected);
    }
  }
}

}  // namespace
}  // namespace gpulin
