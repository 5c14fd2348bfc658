// gpulin check's lean witness for pq-batch histories with an lp_rule (the
// keys-only reader, then pq_witness_passes) against the old path, the reference
// (read_history_text, then check_witness, which validates the ops first): the
// lean path passes exactly the histories the old path finds linearizable, and
// leaves every other one to it (a failure, an op the model does not take, a
// malformed file, a history the per-key check cannot decide). Where both read
// the file, a malformed one gives both the same FormatError.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "histories/jsonl_reader.h"
#include "histories/jsonl_writer.h"
#include "histories/key_history_reader.h"
#include "tests/verify/history_builder.h"
#include "verify/pq_linear/lean_witness.h"
#include "verify/testing/generate_pq_history.h"
#include "verify/witness_checker.h"

namespace gpulin {
namespace lean_witness_test {

// A path's answer on one file: passed, or not (with the FormatError when it threw).
struct Answer {
  bool passes = false;
  std::string error;
};

Answer old_path(const std::string& text) {
  try {
    return {check_witness(read_history_text(text, "w.jsonl")).verdict == Verdict::Linearizable, ""};
  } catch (const FormatError& e) {
    return {false, e.what()};
  }
}

Answer lean_path(const std::string& text, unsigned threads) {
  try {
    return {pq_witness_passes(read_key_history_text(text, "w.jsonl", threads), threads), ""};
  } catch (const FormatError& e) {
    return {false, e.what()};
  }
}

// The lean path passes exactly where the old one does; a reading error of the
// lean path is the old path's (its check cannot throw on a file both read).
::testing::AssertionResult agree(const std::string& text) {
  const Answer want = old_path(text);
  for (unsigned threads : {1u, 2u}) {
    const Answer got = lean_path(text, threads);
    if (got.passes != want.passes)
      return ::testing::AssertionFailure() << threads << " threads: lean " << (got.passes ? "passes" : "does not pass")
                                           << ", old " << (want.passes ? "passes" : "does not pass: " + want.error);
    if (!got.error.empty() && got.error != want.error)
      return ::testing::AssertionFailure() << "lean error\n  " << got.error << "\nold\n  " << want.error;
  }
  return ::testing::AssertionSuccess();
}

TEST(LeanWitness, GeneratedRootReleaseHistoriesPass) {
  for (int k : {1, 4, 32})
    for (uint64_t seed : {1u, 2u}) {
      const std::string text = history_to_jsonl(generate_pq_batch_history(2000, k, seed, 8, seed == 1 ? 50 : 1000000));
      EXPECT_TRUE(lean_path(text, 2).passes) << "k " << k << " seed " << seed;
      EXPECT_TRUE(agree(text));
    }
}

// Each op that the pq-batch model does not take (validate_ops: bad input) makes
// the lean path step aside, though its per-key rules might pass it.
TEST(LeanWitness, OpsTheModelDoesNotTakeAreLeftToTheOldPath) {
  using namespace testing;
  auto base = [] { return HistoryBuilder("pq-batch", k2(), "root-release"); };
  const std::vector<History> misfits = {
      base().op(0, 1, 4, "ins", L({1, 2, 3}), N()).hold(0, 1, 2, 3).build(),  // more than k keys
      base().op(0, 1, 4, "ins", L({}), N()).hold(0, 1, 2, 3).build(),        // no key
      base().op(0, 1, 4, "ins", L({1}), L({})).hold(0, 1, 2, 3).build(),     // a result
      base().op(0, 1, 4, "del", L({1}), L({})).hold(0, 1, 2, 3).build(),     // an argument
      base().op(0, 1, 4, "del", L({}), N()).hold(0, 1, 2, 3).build(),        // a null result
      base().op(0, 1, 4, "ins", L({5, 3}), N()).hold(0, 1, 2, 3)
          .op(1, 5, 8, "del", L({}), L({5, 3})).hold(1, 1, 6, 7).build(),    // not ascending
      base().op(0, 1, 4, "pop", L({}), L({})).hold(0, 1, 2, 3).build(),      // no such op
  };
  for (const History& h : misfits) {
    const std::string text = history_to_jsonl(h);
    SCOPED_TRACE(text);
    EXPECT_FALSE(lean_path(text, 1).passes);
    EXPECT_NE(old_path(text).error, "");  // validate_ops names it
    EXPECT_TRUE(agree(text));
  }
}

// A pending delete that held the root took effect with a result nobody saw: only
// a replay (of every state it may have left) decides, so the lean path steps aside.
TEST(LeanWitness, APendingDeleteWithAPointIsLeftToTheOldPath) {
  using namespace testing;
  const History h = HistoryBuilder("pq-batch", k2(), "root-release")
                        .op(0, 1, 4, "ins", L({5}), N()).hold(0, 1, 2, 3)
                        .pending(1, 5, "del", L({})).hold(1, 1, 6, 7)
                        .build();
  const std::string text = history_to_jsonl(h);
  EXPECT_FALSE(lean_path(text, 1).passes);
  EXPECT_TRUE(old_path(text).passes);
}

// Generated histories, one thing changed: a delete's result (a wrong key, one
// key too few or too many, out of order, null), an op's call (too many keys, an
// argument to a delete, an unknown name, a result for an insert), or a line of
// the file cut short. Small key ranges make duplicate keys common.
RC_GTEST_PROP(LeanWitness, PassesExactlyWhereTheOldPathDoes,
              (uint64_t seed, uint8_t how, uint16_t pick, bool duplicates)) {
  const int k = 1 + static_cast<int>(seed % 4);
  History h = generate_pq_batch_history(150, k, seed, 4, duplicates ? 12 : 1000000);
  std::vector<size_t> dels, inss;
  for (size_t i = 0; i < h.ops.size(); ++i)
    (h.ops[i].f == "del" ? dels : inss).push_back(i);
  RC_PRE(!dels.empty() && !inss.empty());
  Operation& del = h.ops[dels[pick % dels.size()]];
  Operation& ins = h.ops[inss[pick % inss.size()]];
  Value::Array& res = del.res->as_array();
  const int kind = how % 11;
  switch (kind) {
    case 0: break;                                                                       // as generated
    case 1: if (!res.empty()) res.back() = Value::integer(res.back().as_int() + 1); break;  // a neighbour
    case 2: if (!res.empty()) res.pop_back(); break;                                     // one too few
    case 3: res.push_back(Value::integer(2000000)); break;                               // never inserted
    case 4: if (res.size() > 1) std::swap(res[0], res[1]); break;                        // out of order
    case 5: *del.res = Value(); break;                                                   // null
    case 6: ins.args.as_array().assign(static_cast<size_t>(k) + 1, Value::integer(7)); break;  // k + 1 keys
    case 7: del.args.as_array().push_back(Value::integer(1)); break;                     // an argument
    case 8: del.f = "pop"; break;                                                        // no such op
    case 9: *ins.res = Value::int_array({1}); break;                                     // an insert's result
    case 10: break;                                                                      // a line cut, below
  }
  std::string text = history_to_jsonl(h);
  if (kind == 10) {
    std::vector<size_t> starts;
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n' && i + 1 < text.size()) starts.push_back(i + 1);
    const size_t at = starts[pick % starts.size()];
    text.erase(at + (text.find('\n', at) - at) / 2, 1);
  }
  const Answer want = old_path(text);
  RC_TAG(want.passes ? "passes" : want.error.empty() ? "not linearizable" : "bad input");
  const auto same = agree(text);
  if (!same) RC_LOG() << same.message() << "\n" << text;
  RC_ASSERT(static_cast<bool>(same));
}

}  // namespace lean_witness_test
}  // namespace gpulin
