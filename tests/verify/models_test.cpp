// Each model's sequential semantics, as history-format.md's table defines them.
#include <gtest/gtest.h>

#include "tests/verify/history_builder.h"
#include "verify/model_registry.h"

namespace gpulin {
namespace {

using namespace gpulin::testing;

Header header(std::string model, Value params = Value::object()) {
  Header h;
  h.model = std::move(model);
  h.params = std::move(params);
  return h;
}

// The model of a header naming `model`, with at most one integer parameter. Through
// this function, not model_for(header(...)) in a reference's initializer: GCC 13
// (-Wdangling-reference) takes a reference returned for a temporary argument for one
// into it (the registry's models outlive every header); scalar arguments are none.
const Model& model_named(const char* model, const char* param = nullptr, int64_t value = 0) {
  return model_for(header(model, param ? Value::object({{param, I(value)}}) : Value::object()));
}

Operation call(std::string f, Value args, std::optional<Value> res) {
  Operation op;
  op.f = std::move(f);
  op.args = std::move(args);
  op.res = std::move(res);
  op.ret_t = op.res ? 1 : kPending;
  return op;
}

// Applies a completed op, expecting the result to fit.
void ok(const Model& m, State& s, std::string f, Value args, Value res) {
  const Operation op = call(f, args, res);
  ASSERT_FALSE(m.check_call(op)) << *m.check_call(op);
  ASSERT_FALSE(m.check_result(op)) << *m.check_result(op);
  ASSERT_TRUE(m.apply(s, op)) << f << " " << args.to_json() << " -> " << res.to_json() << " from "
                              << s.describe() << ", expected " << m.expected_result(s, op);
}

// Expects the result not to fit, and the state to be left as it was.
void wrong(const Model& m, State& s, std::string f, Value args, Value res) {
  const State before = s;
  EXPECT_FALSE(m.apply(s, call(f, args, res))) << f << " " << args.to_json() << " -> " << res.to_json();
  EXPECT_TRUE(s == before) << s.describe() << " vs " << before.describe();
}

TEST(PqBatchModel, DelReturnsTheKSmallestAscending) {
  const Model& m = model_named("pq-batch", "k", 3);
  State s = m.initial_state();
  ok(m, s, "ins", L({5, 1, 3}), N());
  ok(m, s, "ins", L({2, 9}), N());
  wrong(m, s, "del", A({}), L({1, 2, 5}));
  wrong(m, s, "del", A({}), L({1, 2}));
  EXPECT_EQ(m.expected_result(s, call("del", A({}), std::nullopt)), "[1,2,3]");
  ok(m, s, "del", A({}), L({1, 2, 3}));
  ok(m, s, "del", A({}), L({5, 9}));  // min(k, |S|) = 2
  ok(m, s, "del", A({}), L({}));      // empty
  ok(m, s, "ins", L({4, 4}), N());    // a multiset
  ok(m, s, "del", A({}), L({4, 4}));
}

TEST(PqBatchModel, PendingDelRemovesWithoutAResult) {
  const Model& m = model_named("pq-batch", "k", 2);
  State s = m.initial_state();
  ok(m, s, "ins", L({7, 3}), N());
  ok(m, s, "ins", L({8}), N());
  const auto next = m.step_pending(s, call("del", A({}), std::nullopt));
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].describe(), "{8}");
}

TEST(PqBatchModel, StatesAreEqualWhateverTheInsertionOrder) {
  const Model& m = model_named("pq-batch", "k", 4);
  State a = m.initial_state(), b = m.initial_state();
  ok(m, a, "ins", L({4, 1, 3, 2}), N());
  ok(m, b, "ins", L({2}), N());
  ok(m, b, "ins", L({3, 4, 1}), N());
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.hash(), b.hash());
  ok(m, b, "ins", L({5}), N());
  EXPECT_FALSE(a == b);
}

TEST(PqModel, IsPqBatchWithKOne) {
  const Model& m = model_named("pq");
  State s = m.initial_state();
  ok(m, s, "ins", L({3}), N());
  ok(m, s, "ins", L({1}), N());
  EXPECT_TRUE(m.check_call(call("ins", L({1, 2}), std::nullopt)));  // one key at most
  ok(m, s, "del", A({}), L({1}));
  ok(m, s, "del", A({}), L({3}));
  ok(m, s, "del", A({}), L({}));
}

TEST(PsyncPqModel, CycleInsertsThenRemovesRSmallest) {
  const Model& m = model_named("psync-pq", "r", 2);
  State s = m.initial_state();
  ok(m, s, "cycle", L({5, 1, 3, 7}), L({1, 3}));
  wrong(m, s, "cycle", L({2}), L({5, 7}));
  ok(m, s, "cycle", L({2}), L({2, 5}));
  ok(m, s, "cycle", A({}), L({7}));
  ok(m, s, "cycle", A({}), L({}));
  EXPECT_TRUE(m.check_call(call("cycle", L({1, 2, 3, 4, 5}), std::nullopt)));  // at most 2r keys
}

TEST(BucketPqModel, ExtractMinTakesAnyOfTheLeastPriority) {
  const Model& m = model_named("bucket-pq");
  State s = m.initial_state();
  ok(m, s, "update", A({L({1, 5}), L({2, 3}), L({3, 3})}), N());
  wrong(m, s, "extractmin", A({}), L({1, 5}));
  wrong(m, s, "extractmin", A({}), L({2, 5}));
  State other = s;
  ok(m, s, "extractmin", A({}), L({3, 3}));      // either tie
  ok(m, other, "extractmin", A({}), L({2, 3}));  // is fine
  ok(m, s, "update", A({L({1, 1})}), N());       // replaces 1's priority
  ok(m, s, "extractmin", A({}), L({1, 1}));
  ok(m, s, "delete", L({2}), N());
  ok(m, s, "delete", L({42}), N());  // absent: no effect
  ok(m, s, "extractmin", A({}), N());
  wrong(m, s, "extractmin", A({}), L({2, 3}));
}

TEST(BucketPqModel, PendingExtractMinBranchesOnTies) {
  const Model& m = model_named("bucket-pq");
  State s = m.initial_state();
  ok(m, s, "update", A({L({1, 5}), L({2, 3}), L({3, 3})}), N());
  const auto next = m.step_pending(s, call("extractmin", A({}), std::nullopt));
  ASSERT_EQ(next.size(), 2u);
  EXPECT_FALSE(next[0] == next[1]);
}

TEST(MapModel, ReplaceSearchDelete) {
  const Model& m = model_named("map");
  State s = m.initial_state();
  ok(m, s, "search", L({1}), N());
  ok(m, s, "replace", L({1, 10}), N());
  ok(m, s, "replace", L({2, 20}), N());
  wrong(m, s, "search", L({1}), I(20));
  ok(m, s, "search", L({1}), I(10));
  ok(m, s, "replace", L({1, 11}), N());
  ok(m, s, "search", L({1}), I(11));
  ok(m, s, "delete", L({1}), N());
  ok(m, s, "search", L({1}), N());
  ok(m, s, "search", L({2}), I(20));
}

TEST(SetModel, InsertDeleteContains) {
  const Model& m = model_named("set");
  State s = m.initial_state();
  ok(m, s, "contains", L({4}), B(false));
  ok(m, s, "insert", L({4}), N());
  ok(m, s, "insert", L({4}), N());
  ok(m, s, "contains", L({4}), B(true));
  wrong(m, s, "contains", L({4}), B(false));
  ok(m, s, "delete", L({4}), N());
  ok(m, s, "contains", L({4}), B(false));
}

TEST(RegisterModel, ReadWriteCasAndInitialValue) {
  const Model& nil = model_named("register");
  State s = nil.initial_state();
  ok(nil, s, "read", A({}), N());
  ok(nil, s, "cas", A({N(), I(1)}), B(true));
  ok(nil, s, "cas", A({N(), I(2)}), B(false));
  wrong(nil, s, "cas", A({I(1), I(2)}), B(false));
  ok(nil, s, "cas", A({I(1), I(2)}), B(true));
  ok(nil, s, "read", A({}), I(2));
  ok(nil, s, "write", A({S("x")}), N());
  ok(nil, s, "read", A({}), S("x"));

  const Model& five = model_named("register", "init", 5);
  State t = five.initial_state();
  wrong(five, t, "read", A({}), N());
  ok(five, t, "read", A({}), I(5));
}

TEST(KvModel, KeysStartEmptyAndAppendConcatenates) {
  const Model& m = model_named("kv");
  State s = m.initial_state();
  ok(m, s, "get", A({S("a")}), S(""));
  ok(m, s, "append", A({S("a"), S("x 1 y")}), N());
  ok(m, s, "append", A({S("a"), S("x 2 y")}), N());
  ok(m, s, "get", A({S("a")}), S("x 1 yx 2 y"));
  wrong(m, s, "get", A({S("a")}), S("x 2 yx 1 y"));
  ok(m, s, "put", A({S("a"), S("z")}), N());
  ok(m, s, "get", A({S("a")}), S("z"));
  ok(m, s, "get", A({S("b")}), S(""));
  // A key put back to "" is the same state as one never written.
  State t = m.initial_state();
  ok(m, s, "put", A({S("a"), S("")}), N());
  EXPECT_TRUE(s == t);
}

TEST(MultimapModel, SearchAndDeleteTakeTheLeastRecentlyInsertedPair) {
  const Model& m = model_named("multimap");
  State s = m.initial_state();
  ok(m, s, "search", L({1}), N());
  ok(m, s, "insert", L({1, 10}), N());
  ok(m, s, "insert", L({2, 20}), N());
  ok(m, s, "insert", L({1, 11}), N());
  ok(m, s, "insert", L({1, 10}), N());  // duplicates are pairs of their own
  wrong(m, s, "search", L({1}), I(11));
  ok(m, s, "search", L({1}), I(10));
  ok(m, s, "searchall", L({1}), L({11, 10, 10}));  // any order
  wrong(m, s, "searchall", L({1}), L({10, 11}));    // multiplicity counts
  ok(m, s, "delete", L({1}), N());                  // removes the oldest (1, 10)
  ok(m, s, "search", L({1}), I(11));
  ok(m, s, "searchall", L({1}), L({10, 11}));
  ok(m, s, "deleteall", L({1}), N());
  ok(m, s, "searchall", L({1}), L({}));
  ok(m, s, "search", L({2}), I(20));
}

TEST(ModelRegistry, UnknownModelsAndBadParamsAreFormatErrors) {
  EXPECT_THROW(model_for(header("stack")), FormatError);
  EXPECT_THROW(model_for(header("pq-batch")), FormatError);
  EXPECT_THROW(model_for(header("pq-batch", Value::object({{"k", I(0)}}))), FormatError);
  EXPECT_THROW(model_for(header("psync-pq", Value::object({{"r", S("2")}}))), FormatError);
  // One instance per (model, params).
  EXPECT_EQ(&model_for(header("pq-batch", Value::object({{"k", I(2)}}))),
            &model_for(header("pq-batch", Value::object({{"k", I(2)}}))));
}

TEST(ValidateOps, NamesTheLineOfTheIllTypedCallOrResult) {
  const History bad_call = HistoryBuilder("pq-batch", Value::object({{"k", I(2)}}))
                               .op(1, 1, 2, "ins", L({1}), N())
                               .op(2, 3, 4, "ins", L({1, 2, 3}), N())  // 3 keys > k
                               .build();
  try {
    model_for(bad_call).validate_ops(bad_call);
    FAIL() << "no FormatError";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.line(), bad_call.ops[1].inv_line);
    EXPECT_NE(std::string(e.what()).find("1 to 2 integer keys"), std::string::npos) << e.what();
  }
  History bad_res = HistoryBuilder("set").op(1, 1, 2, "contains", L({1}), I(1)).build();
  bad_res.ops[0].ret_line = 7;
  try {
    model_for(bad_res).validate_ops(bad_res);
    FAIL() << "no FormatError";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.line(), 7u);
    EXPECT_EQ(e.file(), "<test>");
  }
  const History unknown_f = HistoryBuilder("register").op(1, 1, 2, "swap", L({1}), N()).build();
  EXPECT_THROW(model_for(unknown_f).validate_ops(unknown_f), FormatError);
  const History kv_int_key = HistoryBuilder("kv").op(1, 1, 2, "get", L({1}), S("")).build();
  EXPECT_THROW(model_for(kv_int_key).validate_ops(kv_int_key), FormatError);
}

TEST(Partition, GroupsOpsByKeyInOrderOfFirstUse) {
  const History h = HistoryBuilder("map")
                        .op(1, 1, 2, "replace", L({7, 1}), N())
                        .op(2, 3, 4, "search", L({3}), N())
                        .op(3, 5, 6, "delete", L({7}), N())
                        .build();
  const auto groups = model_for(h).partition(h);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0], (std::vector<size_t>{0, 2}));
  EXPECT_EQ(groups[1], (std::vector<size_t>{1}));
  EXPECT_FALSE(model_for(header("register")).partitionable());
  EXPECT_TRUE(model_for(header("kv")).partitionable());
  EXPECT_TRUE(model_for(header("set")).partitionable());
  EXPECT_TRUE(model_for(header("multimap")).partitionable());
}

}  // namespace
}  // namespace gpulin
