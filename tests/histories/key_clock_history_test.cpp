// Key-clock records (histories/key_clock_records.h) to histories: the events' t
// pack (launch, ticket, clock), so each key's events keep their clock's order and
// every launch follows the one before; each op is its own actor; pending ops have no ret; the header says "order": "per-key", which
// check_header allows for the single-key models only. And what is refused, named
// by op: a record never written, a wrapped clock, launches out of order.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "histories/jsonl_writer.h"
#include "histories/key_clock_history.h"
#include "histories/result_shapes.h"
#include "histories/rules.h"
#include "test_util.h"

namespace gpulin {
namespace {

using test::map_header;
using test::throws_format_error;

const std::vector<std::string> kFns = {"replace", "delete", "search"};
constexpr uint32_t kBits = 4;

KeyClockRecord rec(uint32_t inv, uint32_t lp, uint32_t ret, uint32_t fn, uint32_t key, uint32_t value,
                   uint32_t args_len, bool has_res, uint32_t res, uint32_t launch) {
  return {inv, lp, ret, fn, {key, value}, res, key_clock_shape(args_len, has_res, !has_res, launch)};
}

// Launch 0: op 0 replaces key 5 by 50, op 1 searches 5 and finds 50 (the same
// clock, after op 0), op 2 searches key 9 (another clock) and finds nothing.
// Launch 1: op 3 deletes key 5.
std::vector<KeyClockRecord> two_launches() {
  return {rec(1, 2, 3, 0, 5, 50, 2, false, 0, 0), rec(4, 5, 6, 2, 5, 0, 1, true, 50, 0),
          rec(1, 2, 3, 2, 9, 0, 1, false, 0, 0), rec(7, 8, 9, 1, 5, 0, 1, false, 0, 1)};
}

KeyHistory assemble(const std::vector<KeyClockRecord>& r) {
  KeyHistory k = assemble_key_clock_history(r, kBits, map_header(), kFns, "<gpu>");
  apply_result_shapes(k, {{"search", ResultShape::Scalar}});
  return k;
}

TEST(KeyClockHistory, TicketsOrderEachKeyAndLaunchesOrderAll) {
  ASSERT_NE(key_clock_of(5, kBits), key_clock_of(9, kBits)) << "the test needs keys 5 and 9 on different clocks";
  const KeyHistory k = assemble(two_launches());
  EXPECT_NO_THROW(check_header(k.header, k.source, 0));
  EXPECT_NO_THROW(check_events(k.events, k.source));
  ASSERT_EQ(k.ops.size(), 4u);
  ASSERT_EQ(k.events.size(), 12u);
  auto op_of = [&](int64_t id) -> const KeyOp& {
    for (const KeyOp& o : k.ops)
      if (o.id == id) return o;
    throw std::logic_error("no op");
  };
  const uint32_t c5 = key_clock_of(5, kBits), c9 = key_clock_of(9, kBits);
  EXPECT_EQ(op_of(0).inv_t, key_clock_t(0, 1, c5));
  EXPECT_EQ(op_of(1).ret_t, key_clock_t(0, 6, c5));
  EXPECT_EQ(op_of(2).inv_t, key_clock_t(0, 1, c9));
  EXPECT_EQ(op_of(3).inv_t, key_clock_t(1, 7, c5));
  EXPECT_LT(op_of(0).ret_t, op_of(1).inv_t);  // one clock: real-time order kept
  for (const KeyOp& o : k.ops) {
    if (o.id != 3) {
      EXPECT_LT(o.ret_t, op_of(3).inv_t) << "op " << o.id << " ran in an earlier launch";
    }
  }
  for (const KeyOp& o : k.ops) EXPECT_EQ(o.actor, o.id);
  const std::string text = history_to_jsonl(expand(k));
  EXPECT_NE(text.find("\"order\":\"per-key\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"f\":\"replace\",\"args\":[5,50]"), std::string::npos) << text;
  EXPECT_NE(text.find("\"res\":50"), std::string::npos) << text;
}

TEST(KeyClockHistory, AnOpThatNeverReturnedIsPending) {
  std::vector<KeyClockRecord> r = two_launches();
  r[0].ret_t = 0;  // an insert that found no memory; op 3 (launch 1) ran on its thread
  const KeyHistory k = assemble(r);
  EXPECT_NO_THROW(check_events(k.events, k.source));
  EXPECT_EQ(k.events.size(), 11u);
  for (const KeyOp& o : k.ops) EXPECT_EQ(o.pending(), o.id == 0);
}

TEST(KeyClockHistory, MalformedRecordsAreRefusedByOp) {
  std::vector<KeyClockRecord> r = two_launches();
  r[2].inv_t = 0;
  EXPECT_TRUE(throws_format_error([&] { assemble(r); }, 0, "key-clock record of op 2: never written"));
  r = two_launches();
  r[1].ret_t = 1u << 30;
  EXPECT_TRUE(throws_format_error([&] { assemble(r); }, 0, "op 1: ticket 1073741824 is at or past 2^30: its key's clock wrapped"));
  r = two_launches();
  r[3].shape = key_clock_shape(1, false, true, 0), r[2].shape = key_clock_shape(1, false, true, 1);
  EXPECT_TRUE(throws_format_error([&] { assemble(r); }, 0, "op 3: launch 0 after a later one"));
  r = two_launches();
  r[0].fn = 3;
  EXPECT_TRUE(throws_format_error([&] { assemble(r); }, 0, "op 0: unknown operation 3"));
  r = two_launches();
  r[1].shape = key_clock_shape(0, true, false, 0);
  EXPECT_TRUE(throws_format_error([&] { assemble(r); }, 0, "op 1: malformed shape word"));
  // Three argument words where a record holds two (found by the published-clock
  // fuzz target, fuzz/corpus/published_assembler/args-len-3: it read past args).
  r = two_launches();
  r[1].shape = key_clock_shape(3, false, true, 0);
  EXPECT_TRUE(throws_format_error([&] { assemble(r); }, 0, "op 1: malformed shape word"));
}

// The rules judge what assembly passes on: an lp whose ticket lies outside its
// operation's (the recording's tickets out of order) is the format's error.
TEST(KeyClockHistory, AnLpOutsideItsOperationIsTheRulesError) {
  std::vector<KeyClockRecord> r = two_launches();
  r[1].lp_t = 10;  // after its ret (6)
  const KeyHistory k = assemble(r);
  EXPECT_TRUE(throws_format_error([&] { check_events(k.events, k.source); }, 0, "lp event of op 1"));
}

TEST(KeyClockHistory, PerKeyOrderOnlyForSingleKeyModels) {
  Header h;
  h.model = "pq";
  h.extra.emplace_back("order", "\"per-key\"");
  EXPECT_TRUE(throws_format_error([&] { check_header(h, "f.jsonl", 1); }, 1,
                                  "header field 'order' is \"per-key\", which only the single-key models map, set and "
                                  "multimap allow; model 'pq' needs real-time order across keys"));
  h.extra[0].second = "\"real-time\"";
  EXPECT_NO_THROW(check_header(h, "f.jsonl", 1));
  h.extra[0].second = "\"sideways\"";
  EXPECT_TRUE(throws_format_error([&] { check_header(h, "f.jsonl", 1); }, 1,
                                  "header field 'order' is \"sideways\"; it must be \"real-time\" or \"per-key\""));
  for (const char* model : {"map", "set", "multimap"}) {
    h.model = model;
    h.extra[0].second = "\"per-key\"";
    EXPECT_NO_THROW(check_header(h, "f.jsonl", 1)) << model;
  }
}

// Warp-round records (key_clock_records.h, KeyClockMode::kWarpRounds): one clock
// (clock_bits 0), so t is real time for every key and the header keeps the default
// order; no lp tickets, so no lp events.
TEST(KeyClockHistory, OneClockIsRealTimeAndWarpRoundsHaveNoLps) {
  Header h;
  h.model = "map";  // no lp_rule: a warp-round history has no points
  // A round of two ops (inv tickets 1, 2; ret tickets 3, 4), then one of one op on another key.
  const std::vector<KeyClockRecord> r = {rec(1, 0, 3, 0, 5, 50, 2, false, 0, 0), rec(2, 0, 4, 2, 9, 0, 1, false, 0, 0),
                                         rec(5, 0, 6, 2, 5, 0, 1, true, 50, 0)};
  KeyHistory k = assemble_key_clock_history(r, 0, h, kFns, "<gpu>");
  apply_result_shapes(k, {{"search", ResultShape::Scalar}});
  EXPECT_NO_THROW(check_header(k.header, k.source, 0));
  EXPECT_NO_THROW(check_events(k.events, k.source));
  EXPECT_EQ(k.events.size(), 6u);
  for (const Event& e : k.events) EXPECT_NE(e.kind, EventKind::Lp);
  EXPECT_LT(k.ops[1].ret_t, k.ops[2].inv_t);  // key 9's op before key 5's second: real time across keys
  const std::string text = history_to_jsonl(expand(k));
  EXPECT_EQ(text.find("\"order\""), std::string::npos) << text;
  EXPECT_EQ(text.find("lp_rule"), std::string::npos) << text;
}

}  // namespace
}  // namespace gpulin
