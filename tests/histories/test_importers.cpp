// The importers, on every file of ../shared/external/porcupine and on small
// hand-made logs for the corner cases (fresh actors, answers, errors).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "histories/import_jepsen_etcd.h"
#include "histories/import_porcupine_kv.h"
#include "histories/rules.h"
#include "test_util.h"

namespace gpulin {
namespace {

using test::throws_format_error;

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = test::temp_path(name);
  std::ofstream(path) << text;
  return path;
}

// Counts of a Jepsen log's lines by "type f", whatever separates the fields.
std::map<std::string, int> jepsen_counts(const std::string& path) {
  static const std::regex re(R"(jepsen\.util - \d+\s+:(\w+)\s+:(\w+)\s+(.*))");
  std::map<std::string, int> n;
  for (const std::string& l : lines_of(path)) {
    std::smatch m;
    if (!std::regex_search(l, m, re)) continue;
    ++n[m[1].str()];
    ++n[m[1].str() + " " + m[2].str()];
    if (m[3].str() == ":timed-out") ++n["timed-out " + m[1].str() + " " + m[2].str()];
  }
  return n;
}

TEST(HistImportJepsen, EveryEtcdLog) {
  const auto files = files_in(test::porcupine_dir() + "/jepsen");
  ASSERT_EQ(files.size(), 103u);
  size_t total_ops = 0, total_pending = 0;
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    const History h = import_jepsen_etcd(path);
    std::map<std::string, int> n = jepsen_counts(path);
    EXPECT_EQ(h.header.model, "register");
    EXPECT_TRUE(h.header.params.is_object() && h.header.params.as_object().empty());
    ASSERT_EQ(h.header.extra.size(), 1u);
    EXPECT_EQ(h.header.extra[0].first, "source");
    EXPECT_EQ(h.header.extra[0].second, "\"" + std::filesystem::path(path).filename().string() + "\"");
    EXPECT_EQ(n["fail write"], 0);  // so no operation is left out: ops == invocations
    EXPECT_EQ(h.ops.size(), static_cast<size_t>(n["invoke"]));
    // rets: every :ok and every :fail :cas; everything else is pending.
    size_t rets = 0, pending = 0;
    for (const Operation& op : h.ops) {
      EXPECT_TRUE(op.f == "read" || op.f == "write" || op.f == "cas") << op.f;
      if (op.pending()) { ++pending; continue; }
      ++rets;
      if (op.f == "read") {
        EXPECT_TRUE(op.res->is_null() || op.res->is_int());
      } else if (op.f == "write") {
        EXPECT_TRUE(op.res->is_null());
      } else {
        EXPECT_TRUE(op.res->is_bool());
      }
    }
    EXPECT_EQ(rets, static_cast<size_t>(n["ok"] + n["fail cas"]));
    EXPECT_EQ(pending, h.ops.size() - rets);
    EXPECT_EQ(n["fail read"], n["timed-out fail read"]);
    EXPECT_NO_THROW(validate_history(h));
    total_ops += h.ops.size();
    total_pending += pending;
  }
  EXPECT_GT(total_pending, 1000u);  // :info answers are common in these logs
  EXPECT_GT(total_ops, 8000u);
}

TEST(HistImportJepsen, FirstLinesOfEtcd000) {
  const std::string path = test::porcupine_dir() + "/jepsen/etcd_000.log";
  const History h = import_jepsen_etcd(path);
  EXPECT_EQ(h.source, path);
  // line 1: 0 :invoke :read nil ... line 7: 0 :ok :read nil
  const Operation& r = h.ops[0];
  EXPECT_EQ(r.id, 0);
  EXPECT_EQ(r.actor, 0);
  EXPECT_EQ(r.f, "read");
  EXPECT_EQ(r.args, Value::array());
  EXPECT_EQ(r.inv_t, 1u);
  EXPECT_EQ(r.ret_t, 7u);
  EXPECT_EQ(r.inv_line, 1u);
  EXPECT_EQ(r.ret_line, 7u);
  EXPECT_EQ(r.res, Value::null());
  // line 3: 2 :invoke :write 4 ... line 10: 2 :ok :write 4
  EXPECT_EQ(h.ops[2].f, "write");
  EXPECT_EQ(h.ops[2].args, Value::int_array({4}));
  EXPECT_EQ(h.ops[2].ret_t, 10u);
  // line 13: 0 :ok :read 3
  EXPECT_EQ(h.ops[6].f, "read");
  EXPECT_EQ(h.ops[6].res, Value::integer(3));
  // line 19/20: 2 :invoke/:ok :cas [3 0]
  EXPECT_EQ(h.ops[9].args, Value::int_array({3, 0}));
  EXPECT_EQ(h.ops[9].res, Value::boolean(true));
}

TEST(HistImportJepsen, SpaceSeparatedLogs) {
  // etcd_100..102 separate fields with runs of spaces instead of tabs.
  const History h = import_jepsen_etcd(test::porcupine_dir() + "/jepsen/etcd_100.log");
  EXPECT_EQ(h.ops[0].f, "write");
  EXPECT_EQ(h.ops[0].args, Value::int_array({3}));
}

TEST(HistImportJepsen, EmptyLogHasNoOperations) {
  const History h = import_jepsen_etcd(test::porcupine_dir() + "/jepsen/etcd_095.log");
  EXPECT_TRUE(h.ops.empty());
  EXPECT_TRUE(h.events.empty());
  EXPECT_EQ(h.header.model, "register");
}

TEST(HistImportJepsen, AnswersAndFreshActors) {
  const std::string log =
      "INFO  jepsen.util - 3\t:invoke\t:read\tnil\n"          // 1 op 0
      "INFO  jepsen.util - 3\t:fail\t:read\t:timed-out\n"     // 2 op 0 pending
      "INFO  jepsen.util - 3\t:invoke\t:cas\t[1 2]\n"         // 3 op 1: fresh actor 4
      "INFO  jepsen.util - 1\t:invoke\t:write\t5\n"           // 4 op 2
      "INFO  jepsen.util - 3\t:fail\t:cas\t[1 2]\n"           // 5 op 1 -> false
      "INFO  jepsen.util - 1\t:info\t:write\t:timed-out\n"    // 6 op 2 pending
      "\n"
      "INFO  jepsen.util - 1\t:invoke\t:write\t6\n"           // 8 op 3: fresh actor 5
      "INFO  jepsen.util - 3\t:invoke\t:write\t7\n"           // 9 op 4: actor 4 again
      "INFO  jepsen.util - 3\t:fail\t:write\t7\n"             // 10 op 4 left out
      "INFO  jepsen.util - 3\t:invoke\t:read\tnil\n"          // 11 op 4 (renumbered), never answered
      "INFO  jepsen.util - 1\t:ok\t:write\t6\n";              // 12 op 3 -> null
  const History h = import_jepsen_etcd(write_temp("answers.log", log));
  ASSERT_EQ(h.ops.size(), 5u);
  EXPECT_TRUE(h.ops[0].pending());
  EXPECT_EQ(h.ops[0].actor, 3);
  EXPECT_EQ(h.ops[1].actor, 4);
  EXPECT_EQ(h.ops[1].res, Value::boolean(false));
  EXPECT_EQ(h.ops[2].actor, 1);
  EXPECT_TRUE(h.ops[2].pending());
  EXPECT_EQ(h.ops[3].actor, 5);
  EXPECT_EQ(h.ops[3].inv_t, 8u);
  EXPECT_EQ(h.ops[3].ret_t, 12u);
  EXPECT_EQ(h.ops[3].res, Value::null());
  EXPECT_EQ(h.ops[4].id, 4);
  EXPECT_EQ(h.ops[4].f, "read");
  EXPECT_EQ(h.ops[4].actor, 4);
  EXPECT_EQ(h.ops[4].inv_t, 11u);
  EXPECT_TRUE(h.ops[4].pending());
}

// Process numbers at the 64-bit limits: a fresh actor goes below the smallest when
// nothing is left above the largest (max + 1 once overflowed), and a log whose
// numbers leave no room either way is refused, naming the line.
TEST(HistImportJepsen, FreshActorsAtTheLimits) {
  const std::string top = "9223372036854775807", bottom = "-9223372036854775808";
  const std::string again = write_temp("etcd_limits.log",
      "INFO  jepsen.util - " + top + "\t:invoke\t:read\tnil\n"
      "INFO  jepsen.util - " + top + "\t:info\t:read\t:timed-out\n"
      "INFO  jepsen.util - " + top + "\t:invoke\t:write\t1\n"
      "INFO  jepsen.util - " + top + "\t:ok\t:write\t1\n");
  const History h = import_jepsen_etcd(again);
  ASSERT_EQ(h.ops.size(), 2u);
  EXPECT_EQ(h.ops[0].actor, std::numeric_limits<int64_t>::max());
  EXPECT_EQ(h.ops[1].actor, std::numeric_limits<int64_t>::max() - 1);
  EXPECT_NO_THROW(check_events(h.events, h.source));
  const std::string full = write_temp("etcd_full.log",
      "INFO  jepsen.util - " + bottom + "\t:invoke\t:read\tnil\n"
      "INFO  jepsen.util - " + top + "\t:invoke\t:read\tnil\n"
      "INFO  jepsen.util - " + top + "\t:info\t:read\t:timed-out\n"
      "INFO  jepsen.util - " + top + "\t:invoke\t:write\t1\n");
  EXPECT_TRUE(throws_format_error([&] { import_jepsen_etcd(full); }, 4, "no actor id is left"));
}

TEST(HistImportJepsen, BadLinesNameFileAndLine) {
  struct Bad {
    const char* text;
    uint32_t line;
    const char* fragment;
  };
  const Bad cases[] = {
      {"garbage\n", 1, "not a Jepsen log line"},
      {"INFO  jepsen.util - x\t:invoke\t:read\tnil\n", 1, "process 'x' is not an integer"},
      {"INFO  jepsen.util - 0\t:invoke\t:pop\tnil\n", 1, "unknown function :pop"},
      {"INFO  jepsen.util - 0\t:invoke\t:write\tfive\n", 1, "value 'five' is not an integer"},
      {"INFO  jepsen.util - 0\t:invoke\t:cas\t[1]\n", 1, "cas value '[1]' is not of the form [from to]"},
      {"INFO  jepsen.util - 0\t:invoke\t:cas\t1 2\n", 1, "is not of the form [from to]"},
      {"INFO  jepsen.util - 0\t:ok\t:read\t1\n", 1, "without an invocation awaiting an answer"},
      {"INFO  jepsen.util - 0\t:invoke\t:read\tnil\nINFO  jepsen.util - 0\t:invoke\t:read\tnil\n", 2,
       "has no answer yet"},
      {"INFO  jepsen.util - 0\t:invoke\t:read\tnil\nINFO  jepsen.util - 0\t:ok\t:write\t1\n", 2,
       "its invocation (line 1) was :read"},
      {"INFO  jepsen.util - 0\t:invoke\t:read\tnil\nINFO  jepsen.util - 0\t:done\t:read\t1\n", 2, "unknown type :done"},
  };
  for (const Bad& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string path = write_temp("bad.log", c.text);
    EXPECT_TRUE(throws_format_error([&] { import_jepsen_etcd(path); }, c.line, c.fragment));
    EXPECT_TRUE(throws_format_error([&] { import_jepsen_etcd(path); }, c.line, path + ":"));
  }
  EXPECT_TRUE(throws_format_error([] { import_jepsen_etcd("/nonexistent/x.log"); }, 0, "cannot read"));
}

TEST(HistImportKv, EveryKvLog) {
  const auto files = files_in(test::porcupine_dir() + "/kv");
  ASSERT_EQ(files.size(), 6u);
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    const History h = import_porcupine_kv(path);
    size_t invokes = 0, oks = 0;
    for (const std::string& l : lines_of(path)) {
      invokes += l.find(":type :invoke") != std::string::npos;
      oks += l.find(":type :ok") != std::string::npos;
    }
    EXPECT_EQ(h.header.model, "kv");
    EXPECT_EQ(h.header.extra[0].second, "\"" + std::filesystem::path(path).filename().string() + "\"");
    EXPECT_EQ(h.ops.size(), invokes);
    size_t rets = 0;
    for (const Operation& op : h.ops) {
      ASSERT_TRUE(op.f == "get" || op.f == "put" || op.f == "append") << op.f;
      ASSERT_TRUE(op.args.is_array());
      EXPECT_EQ(op.args.as_array().size(), op.f == "get" ? 1u : 2u);
      for (const Value& a : op.args.as_array()) EXPECT_TRUE(a.is_string());
      if (op.pending()) continue;
      ++rets;
      EXPECT_TRUE(op.f == "get" ? op.res->is_string() : op.res->is_null());
    }
    EXPECT_EQ(rets, oks);
    EXPECT_NO_THROW(validate_history(h));
  }
}

TEST(HistImportKv, FirstLinesOfC01Ok) {
  const History h = import_porcupine_kv(test::porcupine_dir() + "/kv/c01-ok.txt");
  EXPECT_EQ(h.ops[0].f, "append");
  EXPECT_EQ(h.ops[0].args, Value::array({Value::string("0"), Value::string("x 0 0 y")}));
  EXPECT_EQ(h.ops[0].inv_t, 1u);
  EXPECT_EQ(h.ops[0].ret_t, 2u);
  EXPECT_EQ(h.ops[0].res, Value::null());
}

TEST(HistImportKv, AnswersAndValues) {
  const std::string log =
      "{:process 0, :type :invoke, :f :get, :key \"a\", :value nil}\n"       // 1 op 0
      "{:process 1, :type :invoke, :f :put, :key \"a\", :value \"x\\\"y\"}\n"  // 2 op 1
      "{:process 0, :type :ok, :f :get, :key \"a\", :value nil}\n"           // 3 -> ""
      "{:process 1, :type :info, :f :put, :key \"a\", :value \"x\\\"y\"}\n"  // 4 pending
      "{:process 0 :type :invoke :f :get :key \"a\"}\n"                      // 5 op 2
      "{:process 0, :type :ok, :f :get, :key \"a\"}\n"                       // 6 -> "" (no :value)
      "{:process 1, :type :invoke, :f :append, :key \"b\", :value \"z\"}\n"  // 7 op 3, fresh actor 2
      "{:process 1, :type :fail, :f :append, :key \"b\", :value \"z\"}\n"    // 8 left out
      "{:process 0, :type :invoke, :f :get, :key \"b\", :value nil}\n"       // 9 op 3, never answered
      "{:process 1, :type :invoke, :f :get, :key \"a\", :value nil}\n"       // 10 op 4, actor 2
      "{:process 1, :type :ok, :f :get, :key \"a\", :value \"x\\\"y\"}\n";   // 11
  const History h = import_porcupine_kv(write_temp("kv.txt", log));
  ASSERT_EQ(h.ops.size(), 5u);
  EXPECT_EQ(h.ops[0].res, Value::string(""));
  EXPECT_EQ(h.ops[1].args, Value::array({Value::string("a"), Value::string("x\"y")}));
  EXPECT_TRUE(h.ops[1].pending());
  EXPECT_EQ(h.ops[2].res, Value::string(""));
  EXPECT_EQ(h.ops[3].f, "get");
  EXPECT_TRUE(h.ops[3].pending());
  EXPECT_EQ(h.ops[4].actor, 2);
  EXPECT_EQ(h.ops[4].res, Value::string("x\"y"));
  EXPECT_EQ(h.ops[4].ret_t, 11u);
}

TEST(HistImportKv, BadLinesNameFileAndLine) {
  struct Bad {
    const char* text;
    uint32_t line;
    const char* fragment;
  };
  const Bad cases[] = {
      {"\n[:process 0]\n", 2, "expected '{'"},
      {"{:process 0, :type :invoke, :f :get, :key \"a}\n", 1, "unterminated string"},
      {"{:process 0, :type :invoke, :f :get}\n", 1, "the map has no :key"},
      {"{:process \"0\", :type :invoke, :f :get, :key \"a\"}\n", 1, ":process has the wrong type"},
      {"{:process 0, :type :invoke, :f :scan, :key \"a\"}\n", 1, "unknown function :scan"},
      {"{:process 0, :type :invoke, :f :put, :key \"a\", :value nil}\n", 1, "needs a string :value"},
      {"{:process 0, :type :invoke, :f :get, :key \"a\", :time 5}\n", 1, "unknown key :time"},
      {"{:process 0, :type :invoke, :f :get, :key \"a\"} x\n", 1, "text after the closing '}'"},
      {"{:process 0, :type :ok, :f :get, :key \"a\", :value \"\"}\n", 1, "without an invocation"},
  };
  for (const Bad& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string path = write_temp("bad.txt", c.text);
    EXPECT_TRUE(throws_format_error([&] { import_porcupine_kv(path); }, c.line, c.fragment));
  }
}

}  // namespace
}  // namespace gpulin
