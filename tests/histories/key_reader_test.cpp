// The on-demand keys-only reader (key_history_reader.h) against the DOM reader:
// on every keys-only example, generated histories in JSONL and binary, shuffled
// and split into many chunks, and randomly corrupted ones (RapidCheck), it gives
// exactly to_key_history(read_history_...) (the same ops with the same keys; the
// pool may be laid out in another order) or the identical FormatError text.
#include <algorithm>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>

#include "histories/binary_format.h"
#include "histories/compact_event_line.h"
#include "histories/json_dom.h"
#include "histories/jsonl_reader.h"
#include "histories/jsonl_writer.h"
#include "histories/key_history_reader.h"
#include "test_util.h"
#include "verify/testing/generate_keyed_history.h"
#include "verify/testing/generate_pq_history.h"

namespace gpulin {
namespace {

namespace fs = std::filesystem;

// A reader's result: the history, or the text of the FormatError it threw.
struct Outcome {
  std::optional<KeyHistory> history;
  std::string error;
};

template <class F>
Outcome outcome_of(F&& read) {
  try {
    return {read(), ""};
  } catch (const FormatError& e) {
    return {std::nullopt, e.what()};
  }
}

bool is_key_array(const Value& v) {
  return v.is_array() && std::all_of(v.as_array().begin(), v.as_array().end(), [](const Value& x) { return x.is_int(); });
}

// What the key reader must give for an input the DOM reader reads as `read()`
// gives: its history as a KeyHistory, or its error; and for a history the DOM
// reader accepts with a payload that is no key list (for a keyed model: whose res
// is neither that nor one integer or true/false), the key reader's own error on
// the first such line.
template <class F>
Outcome reference(F&& read) {
  return outcome_of([&] {
    const History h = read();
    const bool scalars = keyed_model(h.header.model);
    uint32_t bad = UINT32_MAX;
    for (const Operation& op : h.ops) {
      if (!is_key_array(op.args)) bad = std::min(bad, op.inv_line);
      if (op.res && !op.res->is_null() && !is_key_array(*op.res) && !(scalars && (op.res->is_int() || op.res->is_bool())))
        bad = std::min(bad, op.ret_line);
    }
    if (bad != UINT32_MAX)
      throw FormatError(h.source, bad,
                        scalars ? "args must be arrays of integers, res null, an integer, true/false or an array of "
                                  "integers for model " + h.header.model
                                : "args/res must be arrays of integer keys for model " + h.header.model);
    return to_key_history(h);
  });
}

::testing::AssertionResult same_keys(const KeyHistory& a, const KeyHistory& b) {
  auto fail = [] { return ::testing::AssertionFailure(); };
  if (a.source != b.source) return fail() << "source " << a.source << " vs " << b.source;
  const Header &ha = a.header, &hb = b.header;
  if (ha.version != hb.version || ha.model != hb.model || ha.params != hb.params || ha.lp_rule != hb.lp_rule ||
      ha.extra != hb.extra)
    return fail() << "headers differ";
  if (a.events.size() != b.events.size()) return fail() << a.events.size() << " vs " << b.events.size() << " events";
  for (size_t i = 0; i < a.events.size(); ++i) {
    const Event &x = a.events[i], &y = b.events[i];
    if (x.t != y.t || x.kind != y.kind || x.op != y.op || x.actor != y.actor || x.node != y.node || x.line != y.line)
      return fail() << "event " << i << " differs (t " << x.t << " vs " << y.t << ", line " << x.line << " vs "
                    << y.line << ")";
  }
  if (a.ops.size() != b.ops.size()) return fail() << a.ops.size() << " vs " << b.ops.size() << " ops";
  for (size_t i = 0; i < a.ops.size(); ++i) {
    const KeyOp &x = a.ops[i], &y = b.ops[i];
    if (x.id != y.id || x.actor != y.actor || x.inv_t != y.inv_t || x.ret_t != y.ret_t || x.args_len != y.args_len ||
        x.res_len != y.res_len || x.inv_line != y.inv_line || x.ret_line != y.ret_line || x.fn != y.fn ||
        x.res_kind != y.res_kind)
      return fail() << "op " << i << " (id " << x.id << " vs " << y.id << ") differs";
    // The pools may be laid out differently (the fast reader keeps file order);
    // each op's keys must be the same.
    if (!std::equal(a.begin_of(x.args()), a.end_of(x.args()), b.begin_of(y.args())) ||
        !std::equal(a.begin_of(x.res()), a.end_of(x.res()), b.begin_of(y.res())))
      return fail() << "op " << i << " (id " << x.id << "): keys differ";
  }
  if (a.fn_names != b.fn_names) return fail() << "fn_names differ";
  if (a.keys.size() != b.keys.size()) return fail() << "key pools differ (" << a.keys.size() << " vs " << b.keys.size() << " keys)";
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult same_outcome(const Outcome& got, const Outcome& want) {
  if (got.history && want.history) return same_keys(*got.history, *want.history);
  if (!got.history && !want.history) {
    if (got.error == want.error) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "error\n  " << got.error << "\nexpected\n  " << want.error;
  }
  return ::testing::AssertionFailure() << (got.history ? "read, expected the error\n  " + want.error
                                                       : "threw\n  " + got.error + "\nexpected a history");
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The text with no space after ':' or ',' (these tests' JSON has none inside strings).
std::string without_spaces(std::string text) {
  for (const char* gap : {": ", ", "})
    for (size_t at = text.find(gap); at != std::string::npos; at = text.find(gap, at + 1)) text.erase(at + 1, 1);
  return text;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// The header line's index in `lines` and its parsed header; nullopt when the
// file has none or it does not parse.
std::optional<std::pair<size_t, Header>> header_of(const std::vector<std::string>& lines) {
  for (size_t i = 0; i < lines.size(); ++i) {
    const size_t first = lines[i].find_first_not_of(" \t\r");
    if (first == std::string::npos || lines[i][first] == '#') continue;
    try {
      return std::make_pair(i, parse_header_json(lines[i], "x", 1));
    } catch (const FormatError&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::vector<std::string> example_files() {
  std::vector<std::string> files;
  for (const std::string& dir : {test::examples_dir(), test::malformed_dir()})
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.path().extension() == ".jsonl") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// ---- the examples -------------------------------------------------------------------

// Every example whose model is keys-only (or whose header does not parse, or
// names an unknown model) reads exactly as the DOM reader reads it, in one chunk
// and in several. Files of other models are turned away on the header line, and
// their event lines are checked under a pq header instead, so that every
// malformed case is compared.
TEST(KeyReader, Examples) {
  size_t compared = 0, turned_away = 0;
  for (const std::string& path : example_files()) {
    SCOPED_TRACE(path);
    std::vector<std::string> lines = split_lines(slurp(path));
    const auto header = header_of(lines);
    if (header && !key_payload_model(header->second.model)) {
      const auto& known = known_models();
      if (std::find(known.begin(), known.end(), header->second.model) != known.end()) {
        EXPECT_TRUE(test::throws_format_error([&] { read_key_history_file(path); },
                                              static_cast<uint32_t>(header->first + 1), "has non-key payloads"));
        ++turned_away;
        lines[header->first] = R"({"history": 1, "model": "pq"})";
        const std::string text = join_lines(lines);
        EXPECT_TRUE(same_outcome(outcome_of([&] { return read_key_history_text(text, path); }),
                                 reference([&] { return read_history_text(text, path); })));
        ++compared;
        continue;
      }
    }
    const Outcome want = reference([&] { return read_history_file(path); });
    for (unsigned threads : {0u, 1u, 3u})
      EXPECT_TRUE(same_outcome(outcome_of([&] { return read_key_history_file(path, threads); }), want));
    ++compared;
  }
  EXPECT_GE(compared, 50u);
  EXPECT_GE(turned_away, 1u);
}

TEST(KeyReader, KeysOnlyModels) {
  EXPECT_TRUE(keys_only_model("pq"));
  EXPECT_TRUE(keys_only_model("pq-batch"));
  EXPECT_TRUE(keys_only_model("psync-pq"));
  EXPECT_FALSE(keys_only_model("map"));
  EXPECT_FALSE(keys_only_model("bucket-pq"));
  EXPECT_FALSE(keys_only_model("register"));
  for (const char* m : {"map", "set", "multimap"}) {
    EXPECT_TRUE(keyed_model(m));
    EXPECT_TRUE(key_payload_model(m));
  }
  EXPECT_FALSE(keyed_model("pq"));
  EXPECT_TRUE(key_payload_model("pq"));
  EXPECT_FALSE(key_payload_model("kv"));
  EXPECT_FALSE(key_payload_model("register"));
}

TEST(KeyReader, UnreadableFile) {
  const std::string path = test::temp_path("absent.jsonl");
  fs::remove(path);
  EXPECT_TRUE(same_outcome(outcome_of([&] { return read_key_history_file(path); }),
                           reference([&] { return read_history_file(path); })));
  EXPECT_TRUE(same_outcome(outcome_of([&] { return read_key_history_any(path); }),
                           reference([&] { return read_history_any(path); })));
}

// ---- generated histories ----------------------------------------------------------

History generated(size_t ops = 400, int k = 16, uint64_t seed = 7, int actors = 8) {
  return generate_pq_batch_history(ops, k, seed, actors);
}

TEST(KeyReader, GeneratedJsonlRoundTrip) {
  const History h = generated();
  const std::string text = history_to_jsonl(h);
  const KeyHistory k = read_key_history_text(text, "gen.jsonl");
  EXPECT_TRUE(same_keys(k, to_key_history(read_history_text(text, "gen.jsonl"))));
  EXPECT_TRUE(test::same_history(expand(k), h));

  const std::string path = test::temp_path("gen.jsonl");
  spit(path, text);
  EXPECT_TRUE(same_keys(read_key_history_file(path), to_key_history(read_history_file(path))));
  EXPECT_TRUE(same_keys(read_key_history_any(path), to_key_history(read_history_file(path))));
}

// The writers' lines are the compact form: the hand scanner takes every event
// line of a generated history and of a keyed one (scalar results), and no line
// with a space between its fields.
TEST(KeyReader, CompactScannerTakesTheWritersLines) {
  std::vector<std::pair<std::string, bool>> texts = {{history_to_jsonl(generated()), false}};
  for (const char* model : {"map", "set"}) {
    KeyedHistoryOptions o;
    o.model = model;
    o.ops = 200;
    texts.emplace_back(history_to_jsonl(expand(generate_keyed_history(o))), true);
  }
  for (const auto& [text, scalars] : texts) {
    const std::vector<std::string> lines = split_lines(text);
    std::vector<int64_t> pool;
    for (size_t i = 1; i < lines.size(); ++i) {
      const simdjson::padded_string line(lines[i]);
      compact_event_line::Scanned s;
      EXPECT_NE(compact_event_line::scan(line.data(), line.data() + line.size(), scalars, pool, s), nullptr)
          << lines[i];
      const simdjson::padded_string spaced(lines[i].substr(0, 5) + " " + lines[i].substr(5));
      EXPECT_EQ(compact_event_line::scan(spaced.data(), spaced.data() + spaced.size(), scalars, pool, s), nullptr);
    }
  }
}

// The scanner's integers, eight digits at a time, against the grammar it takes:
// -?(0|[1-9][0-9]*) of at most 18 digits, not -0, the value and where it ends.
TEST(KeyReader, CompactScannerIntegers) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 200000; ++i) {
    std::string text = rng() % 4 == 0 ? "-" : "";
    const size_t digits = rng() % 26;
    for (size_t d = 0; d < digits; ++d) text += static_cast<char>('0' + (d == 0 && rng() % 3 ? 1 + rng() % 9 : rng() % 10));
    const size_t number_end = text.size();
    text += std::string(1, ",]}.ex:\0"[rng() % 8]) + "1234567890";
    const simdjson::padded_string buf(text);
    const char* p = buf.data();
    int64_t got = 0;
    const bool taken = compact_event_line::detail::scan_int(p, got);
    const bool neg = text[0] == '-';
    const std::string body = text.substr(neg, number_end - neg);
    const bool want = !body.empty() && body.size() <= 18 && (body[0] != '0' || (body.size() == 1 && !neg));
    ASSERT_EQ(taken, want) << text;
    if (!want) continue;
    EXPECT_EQ(got, std::stoll(text.substr(0, number_end))) << text;
    EXPECT_EQ(p, buf.data() + number_end) << text;
  }
}

TEST(KeyReader, GeneratedBinaryRoundTrip) {
  const History h = generated();
  const std::string path = test::temp_path("gen.bin");
  write_history_binary(path, h);
  const KeyHistory k = read_key_history_any(path);
  EXPECT_TRUE(same_keys(k, to_key_history(read_history_binary(path))));
  EXPECT_TRUE(test::same_history(expand(k), h));
}

// A psync-pq history: every ret carries a key list, some empty; pending ops.
TEST(KeyReader, PsyncAndPending) {
  const std::string text =
      "{\"history\": 1, \"model\": \"psync-pq\", \"params\": {\"r\": 2}}\n"
      "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"cycle\", \"args\": [4, 2]}\n"
      "{\"t\": 2, \"e\": \"inv\", \"op\": 1, \"actor\": 1, \"f\": \"cycle\", \"args\": []}\n"
      "{\"t\": 3, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": [2, 4]}\n"
      "{\"t\": 4, \"e\": \"lp\", \"op\": 1, \"actor\": 1}\n"
      "{\"t\": 5, \"e\": \"ret\", \"op\": 1, \"actor\": 1, \"res\": []}\n"
      "{\"t\": 6, \"e\": \"inv\", \"op\": 2, \"actor\": 0, \"f\": \"cycle\", \"args\": [-9223372036854775808]}\n";
  const Outcome want = reference([&] { return read_history_text(text, "p"); });
  ASSERT_TRUE(want.history) << want.error;
  for (unsigned threads : {1u, 2u, 4u})
    EXPECT_TRUE(same_outcome(outcome_of([&] { return read_key_history_text(text, "p", threads); }), want));
  const std::string bin = test::temp_path("psync.bin");
  write_history_binary(bin, read_history_text(text, "p"));
  EXPECT_TRUE(same_outcome(outcome_of([&] { return read_key_history_any(bin); }),
                           reference([&] { return read_history_binary(bin); })));
}

// Lines in any order read as the sorted file does (apart from line numbers),
// and exactly as the DOM reader reads the shuffled file.
TEST(KeyReader, ShuffledLines) {
  const History h = generated(300, 8, 11, 6);
  std::vector<std::string> lines = split_lines(history_to_jsonl(h));
  std::mt19937 rng(5);
  for (int round = 0; round < 4; ++round) {
    std::shuffle(lines.begin() + 1, lines.end(), rng);
    const std::string text = join_lines(lines);
    const Outcome want = reference([&] { return read_history_text(text, "s"); });
    ASSERT_TRUE(want.history) << want.error;
    for (unsigned threads : {1u, 3u}) {
      const Outcome got = outcome_of([&] { return read_key_history_text(text, "s", threads); });
      EXPECT_TRUE(same_outcome(got, want));
      if (got.history) {
        EXPECT_TRUE(test::same_history(expand(*got.history), h));
      }
    }
  }
}

// Any number of chunks gives what one chunk gives, also more chunks than lines,
// and with comments and blank lines anywhere.
TEST(KeyReader, ChunksAgree) {
  std::vector<std::string> lines = split_lines(history_to_jsonl(generated(200, 6, 3, 5)));
  lines.insert(lines.begin(), "# a comment before the header");
  lines.insert(lines.begin() + 5, "");
  lines.insert(lines.begin() + 40, "   # indented comment");
  lines.insert(lines.begin() + 41, " \t\r");
  std::string text = join_lines(lines);
  text.pop_back();  // the last line without a newline
  const KeyHistory one = read_key_history_text(text, "c", 1);
  EXPECT_TRUE(same_keys(one, to_key_history(read_history_text(text, "c"))));
  for (unsigned threads : {0u, 2u, 3u, 5u, 8u, 64u, 2000u})
    EXPECT_TRUE(same_keys(read_key_history_text(text, "c", threads), one)) << threads << " chunks";
}

// Lines the fast path turns down, each with the DOM reader's verdict.
TEST(KeyReader, UnusualLines) {
  const std::string head = "{\"history\": 1, \"model\": \"pq\"}\n";
  const std::string inv = "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [5]}\n";
  const std::string ret = "{\"t\": 2, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": null}\n";
  const std::vector<std::string> texts = {
      "",
      "# only a comment\n\n",
      head,
      head + inv + ret,
      head + inv + "{\"t\": 2, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": \"x\"}\n",     // not keys
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [[5]]}\n" + ret,
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [true]}\n" + ret,
      head + inv + "{\"t\": 2, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": {}}\n",
      head + inv + "{\"t\": 2, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": false}\n",
      head + "{\"\\u0074\": 1, \"e\": \"in\\u0076\", \"op\": 0, \"actor\": 0, \"f\": \"i\\ns\", \"args\": [5]}\n" + ret,
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": -0, \"actor\": 0, \"f\": \"ins\", \"args\": [-0, 0]}\n" + ret,
      head + "{\"t\": -0, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [5]}\n" + ret,
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [1.0]}\n" + ret,
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [1e2]}\n" + ret,
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [9223372036854775808]}\n" + ret,
      head + "{\"t\": 1.0, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [5]}\n" + ret,
      head + "{\"t\": 18446744073709551615, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": []}\n",
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [5]} x\n" + ret,
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [5]}}\n" + ret,
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [5]\n" + ret,
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [5,]}\n" + ret,
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [5], }\n" + ret,
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\" \"args\": [5]}\n" + ret,
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"\xff\", \"args\": [5]}\n" + ret,
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"a\tb\", \"args\": [5]}\n" + ret,
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"\\x\", \"args\": [5]}\n" + ret,
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [5], \"t\": 1}\n" + ret,
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [5], \"x\\u0041\": 1}\n",
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [05]}\n" + ret,
      head + "[1]\n",
      head + "\f\n",
      head + "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"ins\", \"args\": [5]}\r\n" + ret,
      "{\"history\": 1, \"model\": \"heap\"}\n" + inv + ret,                        // unknown model
      "{\"history\": 1, \"model\": \"heap\"}\n" + inv + "not json\n",               // its line error first
      "{\"history\": 1, \"model\": \"pq-batch\"}\n" + inv + ret,                     // no k
      "{\"history\": 1, \"model\": \"pq-batch\"}\n" + inv + "{\"t\": 2, \"e\": \"ret\"}\n",
      "{\"history\": 1, \"model\": \"kv\"}\n" + inv + ret,                           // no key payloads
      // keyed models: scalar results too, but no other values
      "{\"history\": 1, \"model\": \"map\"}\n" + inv + ret,
      "{\"history\": 1, \"model\": \"map\"}\n" + inv + "{\"t\": 2, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": 7}\n",
      "{\"history\": 1, \"model\": \"map\"}\n" + inv + "{\"t\": 2, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": -0}\n",
      "{\"history\": 1, \"model\": \"map\"}\n" + inv + "{\"t\": 2, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": 7.5}\n",
      "{\"history\": 1, \"model\": \"map\"}\n" + inv + "{\"t\": 2, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": \"v\"}\n",
      "{\"history\": 1, \"model\": \"set\"}\n" + inv + "{\"t\": 2, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": true}\n",
      "{\"history\": 1, \"model\": \"set\"}\n" + inv + "{\"t\": 2, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": fals}\n",
      "{\"history\": 1, \"model\": \"multimap\"}\n" + inv + "{\"t\": 2, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": [3, 3]}\n",
      "{\"history\": 1, \"model\": \"multimap\"}\n" + inv + "{\"t\": 2, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": {\"a\": 1}}\n",
      "{\"history\": 1, \"model\": \"map\"}\n{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"search\", \"args\": [\"k\"]}\n" + ret,
  };
  // Each also in the writers' compact form (no space after ':' and ','), which
  // the hand scanner takes first (compact_event_line.h).
  for (const std::string& spaced : texts)
    for (const std::string& text : {spaced, without_spaces(spaced)}) {
      SCOPED_TRACE(text);
      const Outcome want = text.find("\"kv\"") != std::string::npos
                               ? Outcome{std::nullopt, "u:1: model kv has non-key payloads; use read_history_file"}
                               : reference([&] { return read_history_text(text, "u"); });
      for (unsigned threads : {1u, 2u})
        EXPECT_TRUE(same_outcome(outcome_of([&] { return read_key_history_text(text, "u", threads); }), want));
    }
}

// Lines in the compact form that the hand scanner must read exactly as the DOM
// reader does, or turn down to it: numbers at its limits (18 digits it takes, 19
// and 20 it leaves to simdjson), signs, fields in another order, repeated,
// missing or unknown fields, payloads that are not keys, bytes after the object.
TEST(KeyReader, CompactLines) {
  const std::string head = "{\"history\":1,\"model\":\"pq-batch\",\"params\":{\"k\":4}}\n";
  const std::string inv = "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"ins\",\"args\":[5]}\n";
  const std::string ret = "{\"t\":2,\"e\":\"ret\",\"op\":0,\"actor\":0,\"res\":null}\n";
  auto inv_args = [](const std::string& args) {
    return "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"ins\",\"args\":" + args + "}\n";
  };
  auto ret_res = [](const std::string& res) { return "{\"t\":2,\"e\":\"ret\",\"op\":0,\"actor\":0,\"res\":" + res + "}\n"; };
  const std::vector<std::string> texts = {
      head + inv + ret,
      head + inv + ret.substr(0, ret.size() - 1),  // no newline at the end
      head + inv_args("[999999999999999999,-999999999999999999,0,-1]") + ret,
      head + inv_args("[9223372036854775807,-9223372036854775808]") + ret,
      head + inv_args("[9223372036854775808]") + ret,
      head + inv_args("[-0]") + ret,
      head + inv_args("[01]") + ret,
      head + inv_args("[1,]") + ret,
      head + inv_args("[,1]") + ret,
      head + inv_args("[-]") + ret,
      head + inv_args("[+1]") + ret,
      head + inv_args("[1.5]") + ret,
      head + inv_args("[1e3]") + ret,
      head + inv_args("[[1]]") + ret,
      head + inv_args("[1") + ret,
      head + inv_args("[]") + ret,
      head + inv + ret_res("[5]"),
      head + inv + ret_res("[]"),
      head + inv + ret_res("nul"),
      head + inv + ret_res("nullx"),
      head + inv + ret_res("true"),
      head + inv + ret_res("7"),
      head + inv + ret_res("\"x\""),
      head + "{\"t\":999999999999999999,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"ins\",\"args\":[5]}\n",
      head + "{\"t\":18446744073709551615,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"ins\",\"args\":[5]}\n",
      head + "{\"t\":18446744073709551616,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"ins\",\"args\":[5]}\n",
      head + "{\"t\":-1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"ins\",\"args\":[5]}\n" + ret,
      head + "{\"t\":1,\"e\":\"inv\",\"op\":-7,\"actor\":-3,\"f\":\"ins\",\"args\":[5]}\n"
             "{\"t\":2,\"e\":\"ret\",\"op\":-7,\"actor\":-3,\"res\":null}\n",
      head + "{\"args\":[5],\"f\":\"ins\",\"actor\":0,\"op\":0,\"e\":\"inv\",\"t\":1}\n" + ret,
      head + "{\"t\":1,\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"ins\",\"args\":[5]}\n" + ret,
      head + "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"args\":[5]}\n" + ret,
      head + "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"ins\",\"args\":[5],\"x\":1}\n" + ret,
      head + "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"ins\",\"args\":[5],\"node\":1}\n" + ret,
      head + "{\"T\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"ins\",\"args\":[5]}\n" + ret,
      head + "{\"t\":1,\"e\":\"inx\",\"op\":0,\"actor\":0,\"f\":\"ins\",\"args\":[5]}\n" + ret,
      head + "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"\xc3\xa9\",\"args\":[5]}\n" + ret,
      head + "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"i\\u006es\",\"args\":[5]}\n" + ret,
      head + "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"ins\",\"args\":[5]}\r\n" + ret,
      head + "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"ins\",\"args\":[5]} \n" + ret,
      head + "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"ins\",\"args\":[5]}{}\n" + ret,
      head + "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"ins\",\"args\":[5]\n" + ret,
      head + "{\"t\":3,\"e\":\"acq\",\"op\":0,\"actor\":0,\"node\":1}\n" + inv +
             "{\"t\":4,\"e\":\"rel\",\"op\":0,\"actor\":0,\"node\":1}\n" + ret,
      head + inv + "{\"t\":1,\"e\":\"lp\",\"op\":0,\"actor\":0}\n" + ret,
      "{\"history\":1,\"model\":\"map\"}\n" + inv + ret_res("-12"),
      "{\"history\":1,\"model\":\"map\"}\n" + inv + ret_res("-0"),
      "{\"history\":1,\"model\":\"set\"}\n" + inv + ret_res("false"),
      "{\"history\":1,\"model\":\"set\"}\n" + inv + ret_res("truex"),
  };
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    const Outcome want = reference([&] { return read_history_text(text, "c"); });
    for (unsigned threads : {1u, 2u})
      EXPECT_TRUE(same_outcome(outcome_of([&] { return read_key_history_text(text, "c", threads); }), want));
  }
}

TEST(KeyReader, BinaryOfOtherModelTurnedAway) {
  const std::string path = test::temp_path("register.bin");
  write_history_binary(path, read_history_file(test::examples_dir() + "/register.jsonl"));
  EXPECT_TRUE(test::throws_format_error([&] { read_key_history_any(path); }, 0, "model register has non-key payloads"));
}

// ---- random corruptions (RapidCheck) -----------------------------------------------

// Bytes that make interesting damage to JSON, and now and then any byte.
char damage(uint32_t pick) {
  static const std::string kBytes = "0123456789-+.eE\"[]{},: \t\r\n#\\nultrfa";
  return pick % 4 == 0 ? static_cast<char>(pick >> 8) : kBytes[(pick >> 2) % kBytes.size()];
}

// A small generated history, its event lines shuffled or not, with zero or one
// byte changed.
struct Damaged {
  History history;
  std::string text;
  unsigned threads;
};

Damaged damaged_jsonl() {
  const auto ops = *rc::gen::inRange<size_t>(1, 30);
  const auto k = *rc::gen::inRange(1, 5);
  const auto seed = *rc::gen::arbitrary<uint64_t>();
  const auto actors = *rc::gen::inRange(1, 5);
  Damaged d{generate_pq_batch_history(ops, k, seed, actors), "", *rc::gen::inRange(1u, 5u)};
  std::vector<std::string> lines = split_lines(history_to_jsonl(d.history));
  if (*rc::gen::arbitrary<bool>()) {
    std::mt19937 rng(static_cast<uint32_t>(seed));
    std::shuffle(lines.begin() + 1, lines.end(), rng);
  }
  d.text = join_lines(lines);
  if (*rc::gen::inRange(0, 5) != 0) {
    const auto at = *rc::gen::inRange<size_t>(0, d.text.size());
    d.text[at] = damage(*rc::gen::arbitrary<uint32_t>());
  }
  return d;
}

RC_GTEST_PROP(KeyReaderProp, JsonlAgreesWithDomReader, ()) {
  const Damaged d = damaged_jsonl();
  const Outcome got = outcome_of([&] { return read_key_history_text(d.text, "r.jsonl", d.threads); });
  const Outcome want = reference([&] { return read_history_text(d.text, "r.jsonl"); });
  RC_TAG(want.history ? "reads" : want.error.find("integer keys") != std::string::npos ? "not keys" : "throws");
  const auto same = same_outcome(got, want);
  if (!same) RC_LOG() << same.message() << "\n" << d.text;
  RC_ASSERT(static_cast<bool>(same));
}

// A small pq-batch or keyed history (map, set, multimap with scalar results).
History small_history() {
  const auto ops = *rc::gen::inRange<size_t>(1, 20);
  const auto seed = *rc::gen::arbitrary<uint64_t>();
  const int model = *rc::gen::inRange(0, 4);
  if (model == 0) return generate_pq_batch_history(ops, *rc::gen::inRange(1, 4), seed, 3);
  KeyedHistoryOptions o;
  o.model = model == 1 ? "map" : model == 2 ? "set" : "multimap";
  o.ops = ops;
  o.actors = 3;
  o.keys = 4;
  o.seed = seed;
  return expand(generate_keyed_history(o));
}

RC_GTEST_PROP(KeyReaderProp, BinaryAgreesWithBinaryReader, ()) {
  const History h = small_history();
  std::string bytes = history_to_binary(h);
  const auto changes = *rc::gen::inRange(0, 3);
  for (int i = 0; i < changes; ++i) {
    const auto at = *rc::gen::inRange<size_t>(0, bytes.size());
    bytes[at] = static_cast<char>(*rc::gen::arbitrary<uint8_t>());
  }
  if (*rc::gen::inRange(0, 8) == 0) bytes.resize(*rc::gen::inRange<size_t>(0, bytes.size()));
  const std::string path = test::temp_path("prop.bin");
  spit(path, bytes);
  const unsigned threads = *rc::gen::inRange(0u, 5u);  // runs of records parsed apart
  const Outcome got = outcome_of([&] { return read_key_history_any(path, threads); });
  const Outcome want = bytes.size() >= 8 && bytes.compare(0, 8, "GPULINH1") == 0
                           ? reference([&] { return read_history_binary(path); })
                           : reference([&] { return read_history_file(path); });
  RC_TAG(want.history ? "reads" : "throws");
  const auto same = same_outcome(got, want);
  if (!same) RC_LOG() << same.message();
  RC_ASSERT(static_cast<bool>(same));
}

// ---- keyed models (map, set, multimap) --------------------------------------------------

// Generated keyed histories: the KeyHistory writers give the bytes expand()'s do,
// and both readers, in any number of chunks or runs of records, read them back
// as the DOM and binary readers do.
TEST(KeyReader, KeyedModelsWriteAndReadBack) {
  for (const char* model : {"map", "set", "multimap"}) {
    SCOPED_TRACE(model);
    KeyedHistoryOptions o;
    o.model = model;
    o.ops = 3000;
    o.actors = 16;
    o.keys = 64;
    const KeyHistory kh = generate_keyed_history(o);
    const History h = expand(kh);
    std::ostringstream text_out;
    write_history(text_out, kh);
    const std::string text = text_out.str();
    EXPECT_EQ(text, history_to_jsonl(h));
    const std::string bin = test::temp_path(std::string(model) + ".bin");
    write_history_binary(bin, kh);
    EXPECT_EQ(slurp(bin), history_to_binary(h));

    const KeyHistory want = to_key_history(read_history_text(text, "k"));
    for (unsigned threads : {1u, 3u}) {
      const KeyHistory got = read_key_history_text(text, "k", threads);
      EXPECT_TRUE(same_keys(got, want));
      EXPECT_TRUE(test::same_history(expand(got), h));
    }
    const KeyHistory want_bin = to_key_history(read_history_binary(bin));
    for (unsigned threads : {0u, 1u, 2u, 7u}) EXPECT_TRUE(same_keys(read_key_history_any(bin, threads), want_bin));
  }
}

// Scalar results need a keyed model: under pq they stay the key reader's error.
TEST(KeyReader, ScalarResultsOnlyForKeyedModels) {
  const std::string inv = "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"del\", \"args\": []}\n";
  const std::string ret = "{\"t\": 2, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": 5}\n";
  EXPECT_TRUE(test::throws_format_error(
      [&] { read_key_history_text("{\"history\": 1, \"model\": \"pq\"}\n" + inv + ret, "s"); }, 3,
      "args/res must be arrays of integer keys for model pq"));
  const KeyHistory k = read_key_history_text("{\"history\": 1, \"model\": \"map\"}\n" + inv + ret, "s");
  ASSERT_EQ(k.ops.size(), 1u);
  EXPECT_EQ(k.ops[0].res_kind, KeyOp::kValueResult);
  EXPECT_EQ(k.keys[k.ops[0].res_off], 5);
  EXPECT_EQ(expand(k).ops[0].res, Value::integer(5));
}

}  // namespace
}  // namespace gpulin
