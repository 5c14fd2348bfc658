// JSONL writer: what it writes reads back to an equal History, and random valid
// histories survive JSONL and binary both (RapidCheck).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include "gen_history.h"
#include "histories/binary_format.h"
#include "histories/jsonl_reader.h"
#include "histories/jsonl_writer.h"
#include "test_util.h"

namespace gpulin {
namespace {

using test::same_history;

TEST(HistRoundTrip, WriterFormat) {
  const std::string text =
      "{\"history\": 1, \"model\": \"pq-batch\", \"params\": {\"k\": 4}, \"lp_rule\": \"root-release\", "
      "\"gpu\": \"H200\", \"clock\": 1.50}\n"
      "{\"t\": 25, \"e\": \"ret\", \"op\": 3, \"actor\": 1, \"res\": null}\n"
      "{\"t\": 17, \"e\": \"inv\", \"op\": 3, \"actor\": 1, \"f\": \"ins\", \"args\": [5, 9]}\n"
      "{\"t\": 18, \"e\": \"acq\", \"op\": 3, \"actor\": 1, \"node\": 1}\n"
      "{\"t\": 21, \"e\": \"rel\", \"op\": 3, \"actor\": 1, \"node\": 1}\n"
      "{\"t\": 22, \"e\": \"lp\", \"op\": 3, \"actor\": 1}\n";
  const std::string expected =
      "{\"history\":1,\"model\":\"pq-batch\",\"params\":{\"k\":4},\"lp_rule\":\"root-release\","
      "\"gpu\":\"H200\",\"clock\":1.50}\n"
      "{\"t\":17,\"e\":\"inv\",\"op\":3,\"actor\":1,\"f\":\"ins\",\"args\":[5,9]}\n"
      "{\"t\":18,\"e\":\"acq\",\"op\":3,\"actor\":1,\"node\":1}\n"
      "{\"t\":21,\"e\":\"rel\",\"op\":3,\"actor\":1,\"node\":1}\n"
      "{\"t\":22,\"e\":\"lp\",\"op\":3,\"actor\":1}\n"
      "{\"t\":25,\"e\":\"ret\",\"op\":3,\"actor\":1,\"res\":null}\n";
  EXPECT_EQ(history_to_jsonl(read_history_text(text, "mem")), expected);
}

// Writes, reads back, and checks content and the line numbers of the written file.
void expect_jsonl_round_trip(const History& h) {
  const std::string text = history_to_jsonl(h);
  const History back = read_history_text(text, "back");
  EXPECT_TRUE(same_history(h, back));
  for (size_t i = 0; i < back.events.size(); ++i) EXPECT_EQ(back.events[i].line, i + 2);
  EXPECT_EQ(history_to_jsonl(back), text);
}

TEST(HistRoundTrip, EveryExample) {
  for (const char* name : {"pq_batch_linearizable", "pq_batch_not_linearizable", "register", "pending"}) {
    SCOPED_TRACE(name);
    expect_jsonl_round_trip(read_history_file(test::examples_dir() + "/" + name + ".jsonl"));
  }
}

TEST(HistRoundTrip, PendingOpsExtraFieldsAndEscapedStrings) {
  const std::string text =
      "{\"history\":1,\"model\":\"kv\",\"source\":\"a \\\"quoted\\\" \\\\ name\\n\",\"meta\":{\"seed\":[1,2]},"
      "\"t\\u00e9st\":true}\n"
      "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"put\",\"args\":[\"k\\u0000\",\"v\\\\\\\"\\u001f😀\"]}\n"
      "{\"t\":2,\"e\":\"inv\",\"op\":1,\"actor\":1,\"f\":\"get\",\"args\":[\"k\\u0000\"]}\n"
      "{\"t\":3,\"e\":\"ret\",\"op\":1,\"actor\":1,\"res\":\"v\\\\\\\"\\u001f😀\"}\n";
  const History h = read_history_text(text, "mem");
  ASSERT_TRUE(h.ops[0].pending());
  EXPECT_EQ(h.ops[0].args.as_array()[0].as_string(), std::string("k\0", 2));
  EXPECT_EQ(h.header.extra[2].first, "t\xc3\xa9st");
  expect_jsonl_round_trip(h);
  // The extra fields are written back exactly as they were given.
  const std::string out = history_to_jsonl(h);
  EXPECT_NE(out.find(",\"source\":\"a \\\"quoted\\\" \\\\ name\\n\",\"meta\":{\"seed\":[1,2]},"), std::string::npos)
      << out;
}

TEST(HistRoundTrip, FileFunctions) {
  const History h = read_history_file(test::examples_dir() + "/pending.jsonl");
  const std::string path = test::temp_path("out.jsonl");
  write_history_file(path, h);
  const History back = read_history_file(path);
  EXPECT_TRUE(same_history(h, back));
  EXPECT_EQ(back.source, path);
  std::ostringstream s;
  write_history(s, h);
  EXPECT_EQ(s.str(), history_to_jsonl(h));
  EXPECT_THROW(write_history_file("/nonexistent/dir/x.jsonl", h), std::runtime_error);
}

TEST(HistRoundTrip, WriterRefusesEventsWithoutOperationRecords) {
  History h = read_history_file(test::examples_dir() + "/register.jsonl");
  h.ops.pop_back();
  EXPECT_THROW(history_to_jsonl(h), FormatError);
}

RC_GTEST_PROP(HistRoundTripProperty, RandomHistoriesAreValid, ()) {
  const History h = test::any_history();
  validate_history(h);  // the generator builds valid histories only
  // Shows in the output how often the interesting shapes come up.
  const bool pending = std::any_of(h.ops.begin(), h.ops.end(), [](const Operation& o) { return o.pending(); });
  const bool locks = std::any_of(h.events.begin(), h.events.end(), [](const Event& e) { return e.kind == EventKind::Acq; });
  RC_CLASSIFY(pending, "pending op");
  RC_CLASSIFY(locks, "lock holds");
  RC_CLASSIFY(!h.header.extra.empty(), "header extras");
  RC_CLASSIFY(h.ops.size() > 10, "more than 10 ops");
}

RC_GTEST_PROP(HistRoundTripProperty, JsonlRoundTrip, ()) {
  const History h = test::any_history();
  const std::string text = history_to_jsonl(h);
  const History back = read_history_text(text, "back");
  RC_ASSERT(same_history(h, back));
  RC_ASSERT(history_to_jsonl(back) == text);
}

RC_GTEST_PROP(HistRoundTripProperty, BinaryRoundTrip, ()) {
  const History h = test::any_history();
  const std::string bytes = history_to_binary(h);
  const History back = read_history_binary_bytes(bytes, "bin");
  RC_ASSERT(same_history(h, back));
  for (size_t i = 0; i < back.events.size(); ++i) RC_ASSERT(back.events[i].line == i + 1);
  // Lossless both ways: JSONL -> binary -> JSONL is the same text, and back again the same bytes.
  const std::string text = history_to_jsonl(h);
  RC_ASSERT(history_to_jsonl(back) == text);
  RC_ASSERT(history_to_binary(read_history_text(text, "t")) == bytes);
}

// Lines in any order, with comments and blank lines between, read the same.
RC_GTEST_PROP(HistRoundTripProperty, ShuffledLinesWithComments, ()) {
  const History h = test::any_history();
  std::istringstream in(history_to_jsonl(h));
  std::string header, line;
  std::getline(in, header);
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  std::mt19937_64 rng(*rc::gen::arbitrary<uint64_t>());
  std::shuffle(lines.begin(), lines.end(), rng);
  std::string text = "# generated\n\n" + header + "\n";
  for (const std::string& l : lines) text += (rng() % 3 == 0 ? "  # note\n" : "") + l + "\n";
  RC_ASSERT(same_history(h, read_history_text(text, "shuffled")));
}

// Damage to a valid JSONL text (a character changed, dropped or doubled) is either
// harmless or a FormatError naming a line of the text: never another exception.
RC_GTEST_PROP(HistRoundTripProperty, DamagedTextGivesFormatErrorsOnly, ()) {
  std::string text = history_to_jsonl(test::any_history());
  const size_t at = *rc::gen::inRange<size_t>(0, text.size());
  static const char pool[] = "{}[]\",:0123456789-. #\n\\aetx";
  const char c = pool[*rc::gen::inRange<size_t>(0, sizeof pool - 1)];
  switch (*rc::gen::inRange(0, 3)) {
    case 0: text[at] = c; break;
    case 1: text.erase(at, 1); break;
    default: text.insert(at, 1, c); break;
  }
  const auto lines = static_cast<uint32_t>(std::count(text.begin(), text.end(), '\n') + 1);
  try {
    validate_history(read_history_text(text, "damaged"));
  } catch (const FormatError& e) {
    RC_ASSERT(e.line() >= 1u);
    RC_ASSERT(e.line() <= lines);
  }
}

}  // namespace
}  // namespace gpulin
