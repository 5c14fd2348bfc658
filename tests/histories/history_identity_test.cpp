// A history's identity (histories/history_identity.h) changes with everything a
// checker reads, and with nothing else: equal identities must mean equal verdicts,
// since the explorer passes a history whose identity passed before unchecked.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "histories/history_identity.h"
#include "histories/jsonl_reader.h"
#include "test_util.h"

namespace gpulin {
namespace {

History example() { return read_history_file(test::examples_dir() + "/pq_batch_linearizable.jsonl"); }

TEST(HistoryIdentity, WhereTheHistoryWasReadAndItsScheduleDoNotCount) {
  const History a = example();
  History b = read_history_text(
      "{\"history\":1,\"model\":\"pq-batch\",\"params\":{\"k\":2},\"lp_rule\":\"root-release\","
      "\"structure\":\"td-heap\",\"seed\":7,\"schedule\":\"gheap-td:fixed|0.1|0,1,1\"}\n",
      "other.jsonl");
  b.events = a.events;
  b.ops = a.ops;
  for (Event& e : b.events) e.line += 40;
  for (Operation& o : b.ops) o.inv_line += 40, o.ret_line += 40;
  EXPECT_EQ(history_identity(a), history_identity(b));
}

TEST(HistoryIdentity, EveryFieldACheckerReadsCounts) {
  const std::string base = history_identity(example());
  const std::vector<std::pair<std::string, std::function<void(History&)>>> changes = {
      {"event t", [](History& h) { h.events[3].t += 100; }},
      {"event kind", [](History& h) { h.events[1].kind = EventKind::Lp; }},
      {"event op", [](History& h) { h.events[1].op = 3; }},
      {"event actor", [](History& h) { h.events[1].actor = 1; }},
      {"event node", [](History& h) { h.events[1].node = 2; }},
      {"an event fewer", [](History& h) { h.events.pop_back(); }},
      {"op id", [](History& h) { h.ops[0].id = 9; }},
      {"op actor", [](History& h) { h.ops[0].actor = 1; }},
      {"op name", [](History& h) { h.ops[0].f = "del"; }},
      {"op args", [](History& h) { h.ops[0].args.as_array()[1] = Value::integer(10); }},
      {"op result", [](History& h) { h.ops[2].res->as_array()[1] = Value::integer(9); }},
      {"op pending", [](History& h) { h.ops[3].res.reset(); }},
      {"op inv_t", [](History& h) { h.ops[1].inv_t += 1; }},
      {"op ret_t", [](History& h) { h.ops[1].ret_t += 1; }},
      {"model", [](History& h) { h.header.model = "pq"; }},
      {"params", [](History& h) { h.header.params = Value::object({{"k", Value::integer(3)}}); }},
      {"lp_rule", [](History& h) { h.header.lp_rule = "explicit"; }},
      {"order", [](History& h) { h.header.extra.emplace_back(kOrderField, kOrderPerKey); }},
      {"another header field", [](History& h) { h.header.extra[0].second = "\"bu-heap\""; }},
  };
  for (const auto& [what, change] : changes) {
    History h = example();
    change(h);
    EXPECT_NE(history_identity(h), base) << what;
  }
}

}  // namespace
}  // namespace gpulin
