// The JSONL reader on valid input: the hand-written examples, comments, unsorted
// lines, header extras, every value kind.
#include <gtest/gtest.h>

#include "histories/jsonl_reader.h"
#include "test_util.h"

namespace gpulin {
namespace {

TEST(HistReader, PqBatchExample) {
  const History h = read_history_file(test::examples_dir() + "/pq_batch_linearizable.jsonl");
  EXPECT_EQ(h.header.model, "pq-batch");
  EXPECT_EQ(h.header.param_int("k", 0), 2);
  EXPECT_EQ(h.header.lp_rule, "root-release");
  const std::vector<std::pair<std::string, std::string>> extra = {{"structure", "\"td-heap\""}, {"seed", "7"}};
  EXPECT_EQ(h.header.extra, extra);
  ASSERT_EQ(h.events.size(), 18u);
  ASSERT_EQ(h.ops.size(), 4u);
  // Line numbers count the comments and the blank line.
  EXPECT_EQ(h.events[0].line, 4u);
  EXPECT_EQ(h.events[7].t, 8u);
  EXPECT_EQ(h.events[7].kind, EventKind::Rel);
  EXPECT_EQ(h.events[7].node, 1);
  EXPECT_EQ(h.events[7].line, 13u);
  const Operation& del = h.ops[2];
  EXPECT_EQ(del.id, 2);
  EXPECT_EQ(del.f, "del");
  EXPECT_EQ(del.args, Value::array());
  EXPECT_EQ(del.res, Value::int_array({3, 5}));
  EXPECT_EQ(del.inv_t, 11u);
  EXPECT_EQ(del.ret_t, 15u);
  EXPECT_EQ(del.inv_line, 16u);
  EXPECT_EQ(del.ret_line, 20u);
  EXPECT_EQ(h.ops[1].args, Value::int_array({3, 7}));
  EXPECT_EQ(h.ops[0].res, Value::null());
}

TEST(HistReader, NotLinearizableExampleIsWellFormed) {
  const History h = read_history_file(test::examples_dir() + "/pq_batch_not_linearizable.jsonl");
  ASSERT_EQ(h.ops.size(), 3u);
  EXPECT_EQ(h.ops[1].res, h.ops[2].res);
  EXPECT_EQ(h.ops[2].res, Value::int_array({4, 8}));
}

TEST(HistReader, UnsortedLinesAreSortedByT) {
  const History h = read_history_file(test::examples_dir() + "/register.jsonl");
  ASSERT_EQ(h.events.size(), 10u);
  for (size_t i = 1; i < h.events.size(); ++i) EXPECT_LT(h.events[i - 1].t, h.events[i].t);
  ASSERT_EQ(h.ops.size(), 5u);
  EXPECT_EQ(h.ops[0].id, 0);  // inv at t 5 on line 5, after op 1's inv (t 10) on line 4
  EXPECT_EQ(h.ops[0].inv_line, 5u);
  EXPECT_EQ(h.ops[1].inv_line, 4u);
  EXPECT_EQ(h.ops[1].id, 1);
  EXPECT_EQ(h.ops[1].res, Value::integer(1));
  EXPECT_EQ(h.ops[2].args, Value::int_array({1, 2}));
  EXPECT_EQ(h.ops[2].res, Value::boolean(true));
  EXPECT_EQ(h.ops[4].res, Value::boolean(false));
  EXPECT_EQ(h.source, test::examples_dir() + "/register.jsonl");
}

TEST(HistReader, PendingOperation) {
  const History h = read_history_file(test::examples_dir() + "/pending.jsonl");
  ASSERT_EQ(h.ops.size(), 3u);
  EXPECT_TRUE(h.ops[0].pending());
  EXPECT_FALSE(h.ops[0].res.has_value());
  EXPECT_EQ(h.ops[0].ret_t, kPending);
  EXPECT_EQ(h.ops[0].ret_line, 0u);
  EXPECT_FALSE(h.ops[1].pending());
  EXPECT_EQ(h.header.param_int("init", -1), 0);
}

TEST(HistReader, CommentsBlankLinesCrLfAndIndentedComments) {
  const std::string text =
      "# leading comment\r\n"
      "\r\n"
      "   {\"history\":1,\"model\":\"set\"}\r\n"
      "  # indented comment\n"
      "\t\n"
      "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"insert\",\"args\":[3]}\r\n"
      "{\"t\":2,\"e\":\"ret\",\"op\":0,\"actor\":0,\"res\":null}";  // no final newline
  const History h = read_history_text(text, "mem");
  ASSERT_EQ(h.ops.size(), 1u);
  EXPECT_EQ(h.events[0].line, 6u);
  EXPECT_EQ(h.events[1].line, 7u);
  EXPECT_EQ(h.ops[0].f, "insert");
}

TEST(HistReader, ValuesOfEveryKindAndEscapes) {
  const std::string text =
      "{\"history\":1,\"model\":\"map\",\"note\": {\"a\" : [1, \"x\\u00e9\\n\"] , \"b\":null}}\n"
      "{\"t\":18446744073709551614,\"e\":\"ret\",\"op\":-9223372036854775808,\"actor\":-1,"
      "\"res\":{\"k\":[true,false,null,-5,\"q\\\"\\\\\\t\\u0001é€😀\"],\"o\":{}}}\n"
      "{\"t\":0,\"e\":\"inv\",\"op\":-9223372036854775808,\"actor\":-1,\"f\":\"sé\\\"arch\",\"args\":[9223372036854775807]}\n";
  const History h = read_history_text(text, "mem");
  ASSERT_EQ(h.ops.size(), 1u);
  const Operation& op = h.ops[0];
  EXPECT_EQ(op.id, INT64_MIN);
  EXPECT_EQ(op.actor, -1);
  EXPECT_EQ(op.inv_t, 0u);
  EXPECT_EQ(op.ret_t, UINT64_MAX - 1);
  EXPECT_FALSE(op.pending());
  EXPECT_EQ(op.f, "s\xc3\xa9\"arch");
  EXPECT_EQ(op.args, Value::int_array({INT64_MAX}));
  const Value res = Value::object(
      {{"k", Value::array({Value::boolean(true), Value::boolean(false), Value::null(), Value::integer(-5),
                           Value::string("q\"\\\t\x01\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80")})},
       {"o", Value::object()}});
  EXPECT_EQ(op.res, res);
  // Extra header fields: compact, escapes as written.
  ASSERT_EQ(h.header.extra.size(), 1u);
  EXPECT_EQ(h.header.extra[0].first, "note");
  EXPECT_EQ(h.header.extra[0].second, "{\"a\":[1,\"x\\u00e9\\n\"],\"b\":null}");
}

TEST(HistReader, EmptyHistoryWithHeaderOnly) {
  const History h = read_history_text("{\"history\":1,\"model\":\"kv\"}\n", "mem");
  EXPECT_TRUE(h.events.empty());
  EXPECT_TRUE(h.ops.empty());
  EXPECT_TRUE(h.header.params.is_object());
}

TEST(HistReader, UnreadableFile) {
  EXPECT_TRUE(test::throws_format_error([] { read_history_file("/nonexistent/dir/x.jsonl"); }, 0,
                                        "cannot read the file"));
}

TEST(HistReader, LockHoldsOfSeveralNodesInterleave) {
  // acq 1, acq 2, rel 1, acq 1, rel 2, rel 1: alternation is per node.
  const std::string text =
      "{\"history\":1,\"model\":\"pq\"}\n"
      "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"del\",\"args\":[]}\n"
      "{\"t\":2,\"e\":\"acq\",\"op\":0,\"actor\":0,\"node\":1}\n"
      "{\"t\":3,\"e\":\"acq\",\"op\":0,\"actor\":0,\"node\":2}\n"
      "{\"t\":4,\"e\":\"rel\",\"op\":0,\"actor\":0,\"node\":1}\n"
      "{\"t\":5,\"e\":\"acq\",\"op\":0,\"actor\":0,\"node\":1}\n"
      "{\"t\":6,\"e\":\"rel\",\"op\":0,\"actor\":0,\"node\":2}\n"
      "{\"t\":7,\"e\":\"lp\",\"op\":0,\"actor\":0}\n"
      "{\"t\":8,\"e\":\"rel\",\"op\":0,\"actor\":0,\"node\":1}\n"
      "{\"t\":9,\"e\":\"inv\",\"op\":1,\"actor\":1,\"f\":\"del\",\"args\":[]}\n"
      "{\"t\":10,\"e\":\"acq\",\"op\":1,\"actor\":1,\"node\":1}\n";  // pending while holding node 1
  const History h = read_history_text(text, "mem");
  EXPECT_EQ(h.events.size(), 10u);
  EXPECT_EQ(h.events[6].kind, EventKind::Lp);
  EXPECT_TRUE(h.ops[0].pending());
  EXPECT_TRUE(h.ops[1].pending());
}

}  // namespace
}  // namespace gpulin
