// check_distinct_pq: hand-written cases, agreement with the search checker on
// small random histories, and 2 * 10^5-op generated histories decided both ways (the
// benchmark gpulin_bench_check times 10^6).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <set>

#include "histories/jsonl_writer.h"
#include "histories/key_history.h"
#include "tests/verify/history_builder.h"
#include "verify/distinct_pq_checker.h"
#include "verify/search_checker.h"
#include "verify/testing/generate_distinct_pq_history.h"

namespace gpulin {
namespace {

using namespace gpulin::testing;
using Ap = DistinctPqResult::Applicable;

Value pq_k(int64_t k) { return Value::object({{"k", I(k)}}); }

DistinctPqResult check(const History& h) { return check_distinct_pq(to_key_history(h)); }

void expect_linearizable(const History& h) {
  const DistinctPqResult r = check(h);
  EXPECT_EQ(r.applicable, Ap::Yes) << r.message;
  EXPECT_EQ(r.verdict, Verdict::Linearizable) << r.message;
  EXPECT_EQ(check_search(h).verdict, Verdict::Linearizable);  // the case itself is right
}

// Not linearizable, failing at delete `op`, with `why` in the explanation.
void expect_violation(const History& h, int64_t op, const std::string& why) {
  const DistinctPqResult r = check(h);
  EXPECT_EQ(r.applicable, Ap::Yes) << r.message;
  EXPECT_EQ(r.verdict, Verdict::NotLinearizable) << r.message;
  EXPECT_EQ(r.failing_op, op) << r.message;
  EXPECT_NE(r.message.find(why), std::string::npos) << r.message;
  EXPECT_EQ(check_search(h).verdict, Verdict::NotLinearizable);
}

// --- hand-written cases ---

TEST(DistinctPq, EmptyHistoryAndEmptyDeletes) {
  expect_linearizable(HistoryBuilder("pq").build());
  expect_linearizable(HistoryBuilder("pq").op(0, 1, 2, "del", A({}), L({})).op(1, 3, 4, "del", A({}), L({})).build());
  // An empty delete overlapping an insert takes effect before it.
  expect_linearizable(HistoryBuilder("pq").op(0, 1, 4, "ins", L({7}), N()).op(1, 2, 3, "del", A({}), L({})).build());
}

TEST(DistinctPq, EmptyDeleteWhileAKeyIsPresent) {
  expect_violation(HistoryBuilder("pq").op(0, 1, 2, "ins", L({7}), N()).op(1, 3, 4, "del", A({}), L({})).build(), 1,
                   "key 7 (inserted by op 0");
}

TEST(DistinctPq, SequentialOrderIsRespected) {
  HistoryBuilder b("pq");
  b.op(0, 1, 2, "ins", L({5}), N()).op(1, 3, 4, "ins", L({3}), N());
  expect_linearizable(HistoryBuilder(b).op(2, 5, 6, "del", A({}), L({3})).op(3, 7, 8, "del", A({}), L({5})).build());
  // Blocked: 5 cannot come out while the smaller 3 is in the queue.
  expect_violation(HistoryBuilder(b).op(2, 5, 6, "del", A({}), L({5})).op(3, 7, 8, "del", A({}), L({3})).build(), 2,
                   "smaller key 3 (inserted by op 1");
}

TEST(DistinctPq, OverlapsAllowEitherOrder) {
  // ins 3 overlaps the first delete: it may take effect after it.
  HistoryBuilder b("pq");
  b.op(0, 1, 2, "ins", L({5}), N()).op(1, 3, 9, "ins", L({3}), N());
  expect_linearizable(HistoryBuilder(b).op(2, 4, 6, "del", A({}), L({5})).op(3, 10, 11, "del", A({}), L({3})).build());
  // A delete may return a key whose insert has not yet returned (pulled forward).
  expect_linearizable(HistoryBuilder("pq").op(0, 1, 10, "ins", L({4}), N()).op(1, 2, 3, "del", A({}), L({4})).build());
}

TEST(DistinctPq, PendingInserts) {
  // Takes effect (some delete returns its key) ...
  expect_linearizable(HistoryBuilder("pq").pending(0, 1, "ins", L({7})).op(1, 5, 6, "del", A({}), L({7})).build());
  // ... or never.
  expect_linearizable(HistoryBuilder("pq").pending(0, 1, "ins", L({7})).op(1, 5, 6, "del", A({}), L({})).build());
  expect_linearizable(HistoryBuilder("pq")
                          .pending(0, 1, "ins", L({3}))
                          .op(1, 2, 3, "ins", L({5}), N())
                          .op(2, 4, 5, "del", A({}), L({5}))
                          .build());
  // Never invoked before the delete returned: cannot be returned.
  expect_violation(HistoryBuilder("pq").op(1, 2, 3, "del", A({}), L({7})).pending(0, 5, "ins", L({7})).build(), 1,
                   "invoked only at t=5");
}

TEST(DistinctPq, BatchDeletes) {
  HistoryBuilder b("pq-batch", pq_k(3));
  b.op(0, 1, 2, "ins", L({4, 1}), N()).op(1, 3, 4, "ins", L({9}), N());
  expect_linearizable(HistoryBuilder(b).op(2, 5, 6, "del", A({}), L({1, 4, 9})).op(3, 7, 8, "del", A({}), L({})).build());
  // |R| < k: the queue must have held exactly R, but 9 was there too.
  expect_violation(HistoryBuilder(b).op(2, 5, 6, "del", A({}), L({1, 4})).build(), 2, "fewer than k=3");
  // |R| = k with k = 2: the two smallest.
  HistoryBuilder c("pq-batch", pq_k(2));
  c.op(0, 1, 2, "ins", L({4, 1}), N()).op(1, 3, 4, "ins", L({9}), N());
  expect_linearizable(HistoryBuilder(c).op(2, 5, 6, "del", A({}), L({1, 4})).op(3, 7, 8, "del", A({}), L({9})).build());
  expect_violation(HistoryBuilder(c).op(2, 5, 6, "del", A({}), L({1, 9})).build(), 2, "smaller key 4");
}

TEST(DistinctPq, LpRuleIsIgnored) {
  expect_linearizable(HistoryBuilder("pq-batch", pq_k(2), "root-release")
                          .op(0, 1, 2, "ins", L({2}), N())
                          .op(1, 3, 4, "del", A({}), L({2}))
                          .build());
}

TEST(DistinctPq, KeysNeverInsertedOrReturnedTwice) {
  expect_violation(HistoryBuilder("pq").op(0, 1, 2, "del", A({}), L({8})).build(), 0, "never inserted");
  expect_violation(HistoryBuilder("pq")
                       .op(0, 1, 2, "ins", L({8}), N())
                       .op(1, 3, 4, "del", A({}), L({8}))
                       .op(2, 5, 6, "del", A({}), L({8}))
                       .build(),
                   2, "also returned by op 1");
  expect_violation(HistoryBuilder("pq-batch", pq_k(2))
                       .op(0, 1, 2, "ins", L({8}), N())
                       .op(1, 3, 4, "del", A({}), L({8, 8}))
                       .build(),
                   1, "lists key 8 twice");
}

// Pulling an insert of several keys forward brings all of them: 5 cannot come
// out alone while the same insert put 1 in.
TEST(DistinctPq, MultiKeyInsertComesWhole) {
  expect_violation(HistoryBuilder("pq-batch", pq_k(2))
                       .op(0, 1, 10, "ins", L({1, 5}), N())
                       .op(1, 2, 3, "del", A({}), L({5}))
                       .build(),
                   1, "inserts other keys too");
}

// The eager pass would fire op 2 at t=2, pulling op 1 and with it key 10, which
// then stops the empty delete op 3; deferring op 2 past op 3 works. Found while
// checking the lead's argument: ASAP is not optimal for multi-key inserts.
TEST(DistinctPq, DeferringAPullingDeleteCanBeNeeded) {
  expect_linearizable(HistoryBuilder("pq-batch", pq_k(2))
                          .op(0, 1, 100, "ins", L({2}), N())
                          .op(1, 2, 101, "ins", L({3, 10}), N())
                          .op(2, 3, 102, "del", A({}), L({2, 3}))
                          .op(3, 50, 60, "del", A({}), L({}))
                          .build());
}

TEST(DistinctPq, NotApplicable) {
  const auto pending_del = check(HistoryBuilder("pq").op(0, 1, 2, "ins", L({1}), N()).pending(1, 3, "del", A({})).build());
  EXPECT_EQ(pending_del.applicable, Ap::PendingDelete);
  EXPECT_EQ(pending_del.verdict, Verdict::Undecided);
  EXPECT_NE(pending_del.message.find("pending"), std::string::npos);

  const History twice = HistoryBuilder("pq").op(0, 1, 2, "ins", L({1}), N()).op(1, 3, 4, "ins", L({1}), N()).build();
  EXPECT_EQ(check(twice).applicable, Ap::DuplicateKeys);
  EXPECT_FALSE(has_distinct_keys(to_key_history(twice)));
  const History in_one = HistoryBuilder("pq-batch", pq_k(2)).op(0, 1, 2, "ins", L({1, 1}), N()).build();
  EXPECT_EQ(check(in_one).applicable, Ap::DuplicateKeys);
  EXPECT_FALSE(has_distinct_keys(to_key_history(in_one)));
  EXPECT_TRUE(has_distinct_keys(to_key_history(HistoryBuilder("pq").op(0, 1, 2, "ins", L({1}), N()).build())));

  EXPECT_EQ(check(HistoryBuilder("set").op(0, 1, 2, "insert", L({1}), N()).build()).applicable, Ap::NotPqModel);
}

TEST(DistinctPq, OpsThatDoNotFitTheModelThrow) {
  EXPECT_THROW(check(HistoryBuilder("pq").op(0, 1, 2, "ins", L({1, 2}), N()).build()), FormatError);
  EXPECT_THROW(check(HistoryBuilder("pq").op(0, 1, 2, "ins", L({}), N()).build()), FormatError);
  EXPECT_THROW(check(HistoryBuilder("pq").op(0, 1, 2, "del", L({1}), L({})).build()), FormatError);
  EXPECT_THROW(check(HistoryBuilder("pq").op(0, 1, 2, "pop", A({}), L({})).build()), FormatError);
  EXPECT_THROW(check(HistoryBuilder("pq-batch", pq_k(2)).op(0, 1, 2, "del", A({}), L({3, 1})).build()), FormatError);
  EXPECT_THROW(check(HistoryBuilder("pq-batch", pq_k(2)).op(0, 1, 2, "del", A({}), L({1, 2, 3})).build()), FormatError);
  EXPECT_THROW(check(HistoryBuilder("pq-batch").build()), FormatError);  // no params.k
}

// --- against the search, on small random histories ---

// RapidCheck scales inRange by the test's size, which starts at 0; these draws
// ignore it (as in search_vs_brute_force_test.cpp).
template <class T>
T pick(T lo, T hi) {
  return *rc::gen::resize(100, rc::gen::inRange<T>(lo, hi));
}

struct Planned {
  int64_t actor;
  uint64_t inv, ret;
  double point;  // hidden point in (inv, ret)
  bool ins;
  std::vector<int64_t> keys;  // ins: its keys
  bool pending;
  bool takes_effect;  // pending ins only
};

// 2..4 actors, up to 10 ops, k in 1..3. Each actor's ops follow one another;
// lengths and gaps vary, so ops overlap often. Results are the hidden order's,
// with about half of the deletes' results then redrawn or mutated, so that both
// verdicts are common.
History gen_history(bool allow_pending_delete) {
  const int64_t k = pick<int64_t>(1, 4);
  const int64_t actors = pick<int64_t>(2, 5);
  const size_t n = pick<size_t>(1, 11);
  std::vector<int64_t> pool(40);  // up to 30 inserted, then never-inserted ones
  for (size_t i = 0; i < pool.size(); ++i) pool[i] = static_cast<int64_t>(i);
  std::shuffle(pool.begin(), pool.end(), std::mt19937(pick<unsigned>(0, 1000000)));
  size_t next_key = 0;

  std::vector<uint64_t> cursor(static_cast<size_t>(actors), 0);
  std::vector<Planned> plan;
  for (size_t i = 0; i < n; ++i) {
    Planned p;
    p.actor = pick<int64_t>(0, actors);
    const uint64_t start = cursor[static_cast<size_t>(p.actor)] + static_cast<uint64_t>(pick(0, 4));
    const uint64_t end = start + static_cast<uint64_t>(pick(0, 6));
    cursor[static_cast<size_t>(p.actor)] = end + 1;
    // Unique t: 32 slots per time unit, two per op (n <= 10).
    p.inv = start * 32 + 2 * i;
    p.ret = end * 32 + 2 * i + 1;
    p.point = static_cast<double>(p.inv) + (static_cast<double>(p.ret - p.inv)) * pick(1, 100) / 101.0;
    p.ins = *rc::gen::arbitrary<bool>();
    if (p.ins)
      for (int64_t j = pick<int64_t>(1, k + 1); j > 0; --j) p.keys.push_back(pool[next_key++]);
    p.pending = *rc::gen::weightedElement<bool>({{6, false}, {1, true}});
    if (p.pending && !p.ins && !allow_pending_delete) p.pending = false;
    p.takes_effect = *rc::gen::arbitrary<bool>();
    plan.push_back(std::move(p));
  }

  // The hidden order's results.
  std::vector<size_t> by_point(n);
  for (size_t i = 0; i < n; ++i) by_point[i] = i;
  std::sort(by_point.begin(), by_point.end(), [&](size_t a, size_t b) { return plan[a].point < plan[b].point; });
  std::set<int64_t> queue;
  std::vector<std::vector<int64_t>> results(n);
  for (size_t i : by_point) {
    const Planned& p = plan[i];
    if (p.pending && !p.takes_effect) continue;
    if (p.ins) {
      queue.insert(p.keys.begin(), p.keys.end());
      continue;
    }
    while (!queue.empty() && results[i].size() < static_cast<size_t>(k))
      results[i].push_back(*queue.begin()), queue.erase(queue.begin());
  }

  HistoryBuilder b(k == 1 ? "pq" : "pq-batch", k == 1 ? Value::object() : pq_k(k));
  for (size_t i = 0; i < n; ++i) {
    const Planned& p = plan[i];
    const auto id = static_cast<int64_t>(i);
    const Value args = p.ins ? Value::int_array(p.keys) : A({});
    if (p.pending) {
      b.pending(id, p.inv, p.ins ? "ins" : "del", args);
      continue;
    }
    if (p.ins) {
      b.op(id, p.inv, p.ret, "ins", args, N());
      continue;
    }
    std::vector<int64_t> res = results[i];
    switch (*rc::gen::weightedElement<int>({{5, 0}, {2, 1}, {2, 2}})) {
      case 1: {  // redrawn: up to k keys from those inserted, or one never inserted
        res.clear();
        const int64_t m = pick<int64_t>(0, k + 1);
        for (int64_t j = 0; j < m && next_key > 0; ++j) res.push_back(pool[static_cast<size_t>(pick<size_t>(0, next_key + 1))]);
        break;
      }
      case 2:  // mutated: one key dropped, or the smallest replaced
        if (!res.empty() && *rc::gen::arbitrary<bool>()) res.pop_back();
        else if (next_key > 0) {
          if (res.empty()) res.push_back(0);
          res.front() = pool[static_cast<size_t>(pick<size_t>(0, next_key))];
        }
        break;
      default: break;
    }
    std::sort(res.begin(), res.end());
    res.erase(std::unique(res.begin(), res.end()), res.end());
    b.op(id, p.inv, p.ret, "del", args, Value::int_array(res));
  }
  return b.build();
}

void agree(const History& h) {
  RC_LOG() << history_to_jsonl(h);
  const DistinctPqResult mine = check(h);
  RC_LOG() << "distinct: " << to_string(mine.applicable) << ", " << to_string(mine.verdict) << ": " << mine.message
           << "\n";
  if (mine.applicable == Ap::PendingDelete) {
    RC_TAG("pending delete");
    return;
  }
  RC_ASSERT(mine.applicable != Ap::DuplicateKeys);
  const SearchResult search = check_search(h);
  if (search.verdict == Verdict::Undecided) RC_DISCARD("search undecided");
  if (mine.applicable == Ap::MultiKeyPulled) {
    // Allowed to give up, never to be wrong: it gives up only on failures.
    RC_ASSERT(mine.verdict == Verdict::Undecided);
    RC_TAG(std::string("gave up, search: ") + to_string(search.verdict));
    return;
  }
  RC_ASSERT(mine.applicable == Ap::Yes);
  RC_ASSERT(mine.verdict == search.verdict);
  if (mine.verdict == Verdict::NotLinearizable) RC_ASSERT(mine.failing_op >= 0);
  RC_TAG(to_string(mine.verdict));
}

RC_GTEST_PROP(DistinctPq, AgreesWithSearch, ()) { agree(gen_history(false)); }
RC_GTEST_PROP(DistinctPq, AgreesWithSearchOrSaysPendingDelete, ()) { agree(gen_history(true)); }

// --- at scale ---

TEST(DistinctPq, LargeHistoriesDecidedBothWays) {
  for (bool linearizable : {true, false}) {
    const auto t0 = std::chrono::steady_clock::now();
    const KeyHistory h = to_key_history(generate_distinct_pq_history(200'000, 1, 64, 42, linearizable));
    const auto t1 = std::chrono::steady_clock::now();
    const DistinctPqResult r = check_distinct_pq(h);
    const auto t2 = std::chrono::steady_clock::now();
    ASSERT_EQ(r.applicable, Ap::Yes) << r.message;
    EXPECT_EQ(r.verdict, linearizable ? Verdict::Linearizable : Verdict::NotLinearizable) << r.message;
    if (!linearizable) std::printf("%s\n", r.message.c_str());
    std::printf("%s: generated in %.2f s, checked in %.2f s\n", linearizable ? "linearizable" : "corrupted",
                std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t2 - t1).count());
  }
}

// The generator's k > 1 output: inserts of several keys, pulled forward all the
// time, so the check often gives up (docs/distinct-pq-checker.md); it must never
// give the wrong verdict.
TEST(DistinctPq, GeneratedBatchHistoriesNeverWrong) {
  int decided = 0, total = 0;
  for (int k : {2, 4})
    for (int actors : {2, 16})
      for (uint64_t seed : {1, 2, 3})
        for (bool linearizable : {true, false}) {
          const DistinctPqResult r = check(generate_distinct_pq_history(5'000, k, actors, seed, linearizable));
          ++total;
          if (r.applicable == Ap::MultiKeyPulled) continue;
          ++decided;
          EXPECT_EQ(r.applicable, Ap::Yes);
          EXPECT_EQ(r.verdict, linearizable ? Verdict::Linearizable : Verdict::NotLinearizable)
              << "k=" << k << " actors=" << actors << " seed=" << seed << ": " << r.message;
        }
  std::printf("batch histories decided: %d of %d\n", decided, total);
}

}  // namespace
}  // namespace gpulin
