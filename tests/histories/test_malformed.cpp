// Every malformed case of history-format.md, one file each under
// histories/examples/malformed/, with the line the error must name and a piece
// of its message. Also the same rules on histories built in code.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "histories/jsonl_reader.h"
#include "histories/rules.h"
#include "test_util.h"

namespace gpulin {
namespace {

using test::throws_format_error;

struct Case {
  const char* file;  // without .jsonl
  uint32_t line;
  const char* fragment;
};

// Line 1 of every file is a comment saying what is wrong.
const Case kCases[] = {
    {"not_json", 4, "not valid JSON"},
    {"not_object", 4, "not a JSON object"},
    {"header_missing", 2, "header missing"},
    {"header_missing_empty_file", 3, "header missing"},
    {"header_bad_version", 2, "unsupported history version 2"},
    {"header_history_not_integer", 2, "'history' must be the integer 1"},
    {"header_model_missing", 2, "'model' is missing"},
    {"header_model_not_string", 2, "'model' must be a string"},
    {"header_params_not_object", 2, "'params' must be an object"},
    {"header_bad_lp_rule", 2, "'lp_rule' is 'first-lock'; it must be one of root-release, last-lock, explicit"},
    {"header_duplicate_field", 2, "key \"model\" appears twice"},
    {"unknown_model", 2, "unknown model 'heap'"},
    {"pq_batch_missing_k", 2, "model pq-batch needs params.k, an integer >= 1"},
    {"pq_batch_k_zero", 2, "model pq-batch needs params.k, an integer >= 1"},
    {"psync_pq_missing_r", 2, "model psync-pq needs params.r, an integer >= 1"},
    {"psync_pq_r_not_integer", 2, "model psync-pq needs params.r, an integer >= 1"},
    {"unknown_event_kind", 3, "unknown event kind e='call'"},
    {"e_not_string", 3, "field 'e' must be a string"},
    {"missing_e", 3, "missing field 'e'"},
    {"missing_t", 4, "missing field 't'"},
    {"t_negative", 3, "field 't' must be an unsigned 64-bit integer"},
    {"t_not_integer", 3, "field 't' must be an unsigned 64-bit integer"},
    {"t_too_large", 3, "not valid JSON: Problem while parsing a number"},
    {"missing_op", 4, "missing field 'op'"},
    {"op_not_integer", 3, "field 'op' must be a signed 64-bit integer"},
    {"missing_actor", 3, "missing field 'actor'"},
    {"actor_out_of_range", 3, "field 'actor' must be a signed 64-bit integer"},
    {"missing_f", 3, "missing field 'f'"},
    {"f_not_string", 3, "field 'f' must be a string"},
    {"missing_args", 3, "missing field 'args'"},
    {"args_not_array", 3, "field 'args' must be an array"},
    {"args_not_integer", 3, "field 'args': number 1.5 is not an integer"},
    {"missing_res", 4, "missing field 'res'"},
    {"missing_node", 4, "missing field 'node'"},
    {"node_not_integer", 4, "field 'node' must be a signed 64-bit integer"},
    {"unknown_field", 4, "unknown field 'result'"},
    {"misplaced_field", 3, "field 'res' does not belong to an event of kind inv"},
    {"duplicate_field", 3, "field 't' appears twice"},
    {"duplicate_t", 6, "duplicate t 2: every t must be unique (also on line 4)"},
    {"inv_missing", 4, "ret event of op 5, which has no inv"},
    {"two_inv", 5, "second inv for op 0: an operation has exactly one inv (line 3)"},
    {"two_ret", 5, "second ret for op 0: an operation has at most one ret (line 4)"},
    {"event_before_inv", 4, "acq event of op 0 at t 1 is not strictly between its inv and ret: it comes before the inv"},
    {"ret_before_inv", 4, "ret event of op 0 at t 4 is not strictly between its inv and ret: it comes before the inv"},
    {"event_after_ret", 6, "rel event of op 0 at t 4 is not strictly between its inv and ret: it comes after the ret"},
    {"rel_without_acq", 4, "rel of node 1 by op 0 without a preceding acq"},
    {"acq_twice", 5, "acq of node 1 by op 0 while it already holds that node"},
    {"actor_overlap", 3, "op 1 of actor 0 starts at t 3 before op 0 of the same actor returned (ret at t 4 (line 5))"},
    {"actor_overlap_pending", 4, "op 1 of actor 0 starts while op 0 of the same actor is pending"},
    {"ret_t_reserved", 4, "ret of op 0 at t 18446744073709551615 (2^64 - 1): that t is reserved"},
    {"actor_mismatch", 4, "ret event of op 0 has actor 1, but the op's inv has actor 0 (line 3)"},
    {"lp_without_inv", 4, "lp event of op 5, which has no inv"},
    {"lp_after_ret", 5, "lp event of op 0 at t 3 is not strictly between its inv and ret: it comes after the ret at t 2"},
    {"lp_before_inv", 4, "lp event of op 0 at t 1 is not strictly between its inv and ret: it comes before the inv"},
    {"lp_with_node", 4, "field 'node' does not belong to an event of kind lp"},
};

// Names the case in gtest's output instead of dumping its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.file; }

class HistMalformed : public ::testing::TestWithParam<Case> {};

TEST_P(HistMalformed, ReaderNamesLineAndProblem) {
  const Case& c = GetParam();
  const std::string path = test::malformed_dir() + "/" + c.file + ".jsonl";
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  EXPECT_TRUE(throws_format_error([&] { read_history_file(path); }, c.line, c.fragment));
  // The message names the file too, as history-format.md asks.
  try {
    read_history_file(path);
  } catch (const FormatError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(std::string(e.what()).rfind(path + ":" + std::to_string(c.line) + ": ", 0), 0u) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(AllCases, HistMalformed, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.file); });

// Every file in the folder has a case above (so none goes untested), and the
// valid examples beside it read without error.
TEST(HistMalformedFolder, EveryFileHasACase) {
  std::set<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(test::malformed_dir()))
    files.insert(entry.path().stem().string());
  std::set<std::string> cases;
  for (const Case& c : kCases) cases.insert(c.file);
  EXPECT_EQ(files, cases);
}

// ---- the same rules on histories built in code (validate_history) -------------

History register_history() {
  History h;
  h.source = "<memory>";
  h.header.model = "register";
  auto inv = [&](uint64_t t, int64_t op, int64_t actor, std::string f, Value args) {
    h.events.push_back(Event{t, EventKind::Inv, op, actor, 0, 0});
    Operation o;
    o.id = op;
    o.actor = actor;
    o.f = std::move(f);
    o.args = std::move(args);
    o.inv_t = t;
    h.ops.push_back(std::move(o));
  };
  auto ret = [&](uint64_t t, int64_t op, int64_t actor, Value res) {
    h.events.push_back(Event{t, EventKind::Ret, op, actor, 0, 0});
    h.ops[h.index_of(op)].ret_t = t;
    h.ops[h.index_of(op)].res = std::move(res);
  };
  inv(1, 0, 0, "write", Value::int_array({1}));
  inv(2, 1, 1, "read", Value::array());
  ret(3, 0, 0, Value::null());
  ret(4, 1, 1, Value::integer(1));
  inv(5, 2, 0, "read", Value::array());  // pending
  return h;
}

TEST(HistValidate, AcceptsAValidHistory) { EXPECT_NO_THROW(validate_history(register_history())); }

TEST(HistValidate, BadHeader) {
  History h = register_history();
  h.header.model = "stack";
  EXPECT_TRUE(throws_format_error([&] { validate_history(h); }, 0, "unknown model 'stack'"));
  h.header.model = "pq-batch";
  EXPECT_TRUE(throws_format_error([&] { validate_history(h); }, 0, "needs params.k"));
  h.header.model = "register";
  h.header.lp_rule = "first";
  EXPECT_TRUE(throws_format_error([&] { validate_history(h); }, 0, "'lp_rule' is 'first'"));
  h.header.lp_rule = "";
  h.header.extra = {{"model", "\"x\""}};
  EXPECT_TRUE(throws_format_error([&] { validate_history(h); }, 0, "repeats a standard field"));
}

TEST(HistValidate, UnsortedEvents) {
  History h = register_history();
  std::swap(h.events[0], h.events[1]);
  EXPECT_TRUE(throws_format_error([&] { validate_history(h); }, 0, "not sorted by t"));
}

TEST(HistValidate, EventRulesNameTheEventLine) {
  History h = register_history();
  h.events[3].actor = 5;  // op 1's ret
  h.events[3].line = 42;
  EXPECT_TRUE(throws_format_error([&] { validate_history(h); }, 42, "has actor 5, but the op's inv has actor 1"));
}

TEST(HistValidate, PendingOpOverlapsLaterOpOfItsActor) {
  History h = register_history();
  h.events.push_back(Event{6, EventKind::Inv, 3, 0, 0, 7});
  Operation o;
  o.id = 3;
  o.actor = 0;
  o.f = "read";
  o.args = Value::array();
  o.inv_t = 6;
  h.ops.push_back(o);
  EXPECT_TRUE(throws_format_error([&] { validate_history(h); }, 7, "while op 2 of the same actor is pending"));
}

TEST(HistValidate, OpsMustMatchEvents) {
  History h = register_history();
  h.ops[1].ret_t = 99;
  EXPECT_TRUE(throws_format_error([&] { validate_history(h); }, 0, "does not match the events of op 1"));
  h = register_history();
  h.ops[1].res.reset();
  EXPECT_TRUE(throws_format_error([&] { validate_history(h); }, 0, "res must be present exactly when"));
  h = register_history();
  h.ops[0].args = Value::integer(1);
  EXPECT_TRUE(throws_format_error([&] { validate_history(h); }, 0, "args must be an array"));
  h = register_history();
  h.ops.pop_back();
  EXPECT_TRUE(throws_format_error([&] { validate_history(h); }, 0, "the events invoke 3 operations but ops holds 2"));
}

TEST(HistValidate, OrphanAndDuplicateEvents) {
  History h = register_history();
  h.events.push_back(Event{9, EventKind::Lp, 77, 0, 0, 12});
  EXPECT_TRUE(throws_format_error([&] { validate_history(h); }, 12, "lp event of op 77, which has no inv"));
  h = register_history();
  h.events.push_back(Event{5, EventKind::Lp, 2, 0, 0, 0});
  h.events.back().t = 5;  // same t as op 2's inv
  EXPECT_TRUE(throws_format_error([&] { validate_history(h); }, 0, "duplicate t 5"));
}

}  // namespace
}  // namespace gpulin
