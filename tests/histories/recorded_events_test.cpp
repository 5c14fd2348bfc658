// Recorded events (device_events.h) to histories: lp events (kind 4) from the
// device recorder's buffers and from the host recorder, with results reshaped to
// the model's single values (result_shapes.h: a map search's value, a set's
// contains) on the lean KeyHistory as on a History; and what is malformed about
// them: an lp of an op without an inv, an lp after its op's ret or before its
// inv, an unknown kind, a one-word result of several words. (Two lps of one op
// are well-formed; the explicit rule's witness check rejects them,
// tests/verify/keyed_check_test.cpp.)
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "histories/device_recorder.h"
#include "histories/jsonl_writer.h"
#include "histories/key_history.h"
#include "histories/recorder.h"
#include "histories/result_shapes.h"
#include "histories/rules.h"
#include "test_util.h"

namespace gpulin {
namespace {

using test::map_header;
using test::throws_format_error;

const std::vector<std::string> kMapFns = {"replace", "delete", "search"};

// A device recording of two warps (actors): actor 0 replaces key 7 by 9, actor 1
// searches key 7 and finds 9, each with its lp between inv and ret.
struct Recording {
  std::vector<DeviceEvent> events;
  std::vector<uint32_t> keys;  // actor a's keys at [a * kKeyCap, ...)
  static constexpr uint32_t kKeyCap = 8;

  Recording() : keys(2 * kKeyCap, 0) {
    keys[0] = 7, keys[1] = 9;                      // actor 0: replace [7, 9]
    keys[kKeyCap] = 7, keys[kKeyCap + 1] = 9;      // actor 1: search [7], then its result 9
    // t, op, node, kind, fn, key_off, key_len, is_null (result shape), actor; in any order
    events = {
        {5, 1, 0, kDeviceLp, 0, 0, 0, 0, 1},
        {1, 0, 0, kDeviceInv, 0, 0, 2, 0, 0},
        {2, 1, 0, kDeviceInv, 2, 0, 1, 0, 1},
        {3, 0, 0, kDeviceLp, 0, 0, 0, 0, 0},
        {4, 0, 0, kDeviceRet, 0, 0, 0, 1, 0},  // null
        {6, 1, 0, kDeviceRet, 0, 1, 1, 0, 1},  // [9]
    };
  }
  // As a recorded slab-hash run is downloaded: assembled, its searches' results reshaped.
  KeyHistory assemble() const {
    KeyHistory k = assemble_device_history(events, keys, kKeyCap, map_header(), kMapFns, "<gpu>");
    apply_result_shapes(k, {{"search", ResultShape::Scalar}});
    return k;
  }
};

TEST(RecordedEvents, DeviceLpEventsBecomeLpEvents) {
  const KeyHistory k = Recording().assemble();
  ASSERT_EQ(k.events.size(), 6u);
  EXPECT_EQ(k.events[2].kind, EventKind::Lp);
  EXPECT_EQ(k.events[2].op, 0);
  EXPECT_EQ(k.events[4].kind, EventKind::Lp);
  EXPECT_EQ(k.events[4].actor, 1);
  EXPECT_NO_THROW(check_events(k.events, k.source));
  EXPECT_EQ(history_to_jsonl(expand(k)),
            "{\"history\":1,\"model\":\"map\",\"lp_rule\":\"explicit\"}\n"
            "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"replace\",\"args\":[7,9]}\n"
            "{\"t\":2,\"e\":\"inv\",\"op\":1,\"actor\":1,\"f\":\"search\",\"args\":[7]}\n"
            "{\"t\":3,\"e\":\"lp\",\"op\":0,\"actor\":0}\n"
            "{\"t\":4,\"e\":\"ret\",\"op\":0,\"actor\":0,\"res\":null}\n"
            "{\"t\":5,\"e\":\"lp\",\"op\":1,\"actor\":1}\n"
            "{\"t\":6,\"e\":\"ret\",\"op\":1,\"actor\":1,\"res\":9}\n");
}

// The lean form's reshaping gives what the History's does, and its errors.
TEST(RecordedEvents, ResultShapesOnBothForms) {
  const Recording r;
  const KeyHistory raw = assemble_device_history(r.events, r.keys, Recording::kKeyCap, map_header(), kMapFns, "<gpu>");
  EXPECT_EQ(expand(raw).ops[1].res, Value::int_array({9}));
  for (const ResultShape shape : {ResultShape::Scalar, ResultShape::Bool, ResultShape::Keys}) {
    KeyHistory k = raw;
    History h = expand(raw);
    apply_result_shapes(k, {{"search", shape}});
    apply_result_shapes(h, {{"search", shape}});
    EXPECT_EQ(history_to_jsonl(expand(k)), history_to_jsonl(h));
  }
  Recording two;
  two.events[5].key_len = 2;  // a search's one word recorded as two
  KeyHistory k = assemble_device_history(two.events, two.keys, Recording::kKeyCap, map_header(), kMapFns, "<gpu>");
  History h = expand(k);
  EXPECT_TRUE(throws_format_error([&] { apply_result_shapes(h, {{"search", ResultShape::Scalar}}); }, 0,
                                  "op 1 (search): a result of one word was recorded as [9,0]"));
  EXPECT_TRUE(throws_format_error([&] { apply_result_shapes(k, {{"search", ResultShape::Scalar}}); }, 0,
                                  "op 1 (search): a result of one word was recorded as [9,0]"));
}

// The format's rules (check_events, as the checkers run them on a download) reject
// the recording with a message holding `fragment` (line 0: no file behind it).
::testing::AssertionResult rules_reject(const Recording& r, const std::string& fragment) {
  const KeyHistory k = r.assemble();
  return throws_format_error([&] { check_events(k.events, k.source); }, 0, fragment);
}

TEST(RecordedEvents, LpOfAnOpWithoutInv) {
  Recording r;
  r.events.push_back({7, 42, 0, kDeviceLp, 0, 0, 0, 0, 1});
  EXPECT_TRUE(rules_reject(r, "lp event of op 42, which has no inv"));
}

TEST(RecordedEvents, LpAfterItsOpsRet) {
  Recording r;
  r.events[0].t = 7;  // op 1's lp after its ret at t 6
  EXPECT_TRUE(rules_reject(r, "lp event of op 1 at t 7 is not strictly between its inv and ret: it comes after the "
                              "ret at t 6"));
}

TEST(RecordedEvents, LpBeforeItsOpsInv) {
  Recording r;
  r.events[1].t = 8, r.events[4].t = 9;  // op 0: inv at 8, ret at 9, its lp still at 3
  EXPECT_TRUE(rules_reject(r, "lp event of op 0 at t 3 is not strictly between its inv and ret: it comes before the "
                              "inv at t 8"));
}

TEST(RecordedEvents, TwoLpsAreWellFormed) {
  Recording r;
  r.events.push_back({7, 1, 0, kDeviceLp, 0, 0, 0, 0, 1});
  r.events[5].t = 8;  // op 1: lps at 5 and 7, ret at 8
  const KeyHistory k = r.assemble();
  EXPECT_NO_THROW(check_events(k.events, k.source));
}

// Kind 5 is a whole hold (device_events.h, kDeviceHold; hold_order_test has its
// cases); 6 is no kind at all.
TEST(RecordedEvents, UnknownKind) {
  Recording r;
  r.events[0].kind = 6;
  EXPECT_TRUE(throws_format_error([&] { r.assemble(); }, 0, "recorded event at t 5 (op 1, actor 1): unknown kind 6"));
}

// The host recorder (the simulator's) records the same events through the same
// conversion: lp events, and results reshaped afterwards (a bool, a value) or
// kept (null, a key list).
TEST(RecordedEvents, HostRecorderRecordsLp) {
  HostRecorder rec({"insert", "contains", "searchall", "search"});
  const int64_t key[] = {3}, yes[] = {1}, minus4[] = {-4};
  rec.inv(0, 0, 0, key, 1);
  rec.lp(0, 0);
  rec.ret<int64_t>(0, 0, nullptr, 0, true);
  rec.inv(1, 1, 1, key, 1);
  rec.lp(1, 1);
  rec.ret(1, 1, yes, 1, false);
  rec.inv(2, 1, 2, key, 1);
  rec.lp(2, 1);
  rec.ret(2, 1, key, 1, false);
  rec.inv(3, 0, 3, key, 1);
  rec.lp(3, 0);
  rec.ret(3, 0, minus4, 1, false);
  Header h;
  h.model = "multimap";
  h.lp_rule = "explicit";
  History got = rec.to_history(h, "<sim>");
  apply_result_shapes(got, {{"contains", ResultShape::Bool}, {"search", ResultShape::Scalar}});
  EXPECT_NO_THROW(validate_history(got));
  EXPECT_EQ(history_to_jsonl(got),
            "{\"history\":1,\"model\":\"multimap\",\"lp_rule\":\"explicit\"}\n"
            "{\"t\":1,\"e\":\"inv\",\"op\":0,\"actor\":0,\"f\":\"insert\",\"args\":[3]}\n"
            "{\"t\":2,\"e\":\"lp\",\"op\":0,\"actor\":0}\n"
            "{\"t\":3,\"e\":\"ret\",\"op\":0,\"actor\":0,\"res\":null}\n"
            "{\"t\":4,\"e\":\"inv\",\"op\":1,\"actor\":1,\"f\":\"contains\",\"args\":[3]}\n"
            "{\"t\":5,\"e\":\"lp\",\"op\":1,\"actor\":1}\n"
            "{\"t\":6,\"e\":\"ret\",\"op\":1,\"actor\":1,\"res\":true}\n"
            "{\"t\":7,\"e\":\"inv\",\"op\":2,\"actor\":1,\"f\":\"searchall\",\"args\":[3]}\n"
            "{\"t\":8,\"e\":\"lp\",\"op\":2,\"actor\":1}\n"
            "{\"t\":9,\"e\":\"ret\",\"op\":2,\"actor\":1,\"res\":[3]}\n"
            "{\"t\":10,\"e\":\"inv\",\"op\":3,\"actor\":0,\"f\":\"search\",\"args\":[3]}\n"
            "{\"t\":11,\"e\":\"lp\",\"op\":3,\"actor\":0}\n"
            "{\"t\":12,\"e\":\"ret\",\"op\":3,\"actor\":0,\"res\":-4}\n");
}

// Random host recordings: rets without an inv, an op id used twice, holds and lps,
// sparse op ids (the runners' actor << 20) or dense ones.
void record_randomly(HostRecorder& rec) {
  rec.clear();
  const bool sparse = *rc::gen::arbitrary<bool>();
  const auto n = *rc::gen::inRange<size_t>(0, 40);
  for (size_t i = 0; i < n; ++i) {
    const auto actor = *rc::gen::inRange<uint32_t>(0, 4);
    const int64_t op = (sparse ? int64_t{actor} << 20 : 0) + *rc::gen::inRange<int64_t>(0, 6);
    const auto keys = *rc::gen::container<std::vector<int64_t>>(*rc::gen::inRange<size_t>(0, 4),
                                                                  rc::gen::inRange<int64_t>(-5, 50));
    switch (*rc::gen::inRange(0, 5)) {
      case 0: rec.inv(op, actor, *rc::gen::inRange<uint32_t>(0, 3), keys.data(), static_cast<uint32_t>(keys.size())); break;
      case 1: rec.ret(op, actor, keys.data(), static_cast<uint32_t>(keys.size()), *rc::gen::arbitrary<bool>()); break;
      case 2: rec.hold(EventKind::Acq, op, actor, *rc::gen::inRange<int64_t>(0, 9)); break;
      case 3: rec.hold(EventKind::Rel, op, actor, *rc::gen::inRange<int64_t>(0, 9)); break;
      default: rec.lp(op, actor); break;
    }
  }
}

void assert_same_history(const History& got, const History& want) {
  RC_ASSERT(got.source == want.source);
  RC_ASSERT(got.header.model == want.header.model);
  RC_ASSERT(got.header.lp_rule == want.header.lp_rule);
  RC_ASSERT(got.events.size() == want.events.size());
  for (size_t i = 0; i < got.events.size(); ++i) {
    const Event &a = got.events[i], &b = want.events[i];
    RC_ASSERT(a.t == b.t && a.kind == b.kind && a.op == b.op && a.actor == b.actor && a.node == b.node && a.line == b.line);
  }
  RC_ASSERT(got.ops.size() == want.ops.size());
  for (size_t i = 0; i < got.ops.size(); ++i) {
    const Operation &a = got.ops[i], &b = want.ops[i];
    RC_ASSERT(a.id == b.id && a.actor == b.actor && a.f == b.f && a.args == b.args && a.res == b.res);
    RC_ASSERT(a.inv_t == b.inv_t && a.ret_t == b.ret_t && a.inv_line == b.inv_line && a.ret_line == b.ret_line);
  }
}

// The host recorder's one-pass to_history is expand(to_key_history(...)) for any
// recording, made afresh or in the storage of another recording's history.
RC_GTEST_PROP(RecordedEvents, HostToHistoryIsTheSharedConversion, ()) {
  HostRecorder rec({"ins", "del", "get"});
  Header header;
  header.model = "pq-batch";
  header.lp_rule = "root-release";
  record_randomly(rec);
  History first = rec.to_history(header, "<sim>");
  assert_same_history(first, expand(rec.to_key_history(header, "<sim>")));
  record_randomly(rec);
  const History again = rec.to_history(header, "<sim 2>", std::move(first));
  assert_same_history(again, expand(rec.to_key_history(header, "<sim 2>")));
}

// The recorder's vectors grow out of line, as many events and keys as are recorded
// (far past any first room): every one is in the history, in order.
TEST(RecordedEvents, ARecordingGrowsToEveryEvent) {
  HostRecorder rec({"ins"});
  const int64_t keys[3] = {7, 8, 9};
  for (int64_t op = 0; op < 1000; ++op) {
    rec.inv(op, 0, 0, keys, 3);
    rec.hold(EventKind::Acq, op, 0, op);
    rec.ret<int64_t>(op, 0, keys + 1, 2, false);
  }
  const History h = rec.to_history(Header{}, "<sim>");
  ASSERT_EQ(h.events.size(), 3000u);
  ASSERT_EQ(h.ops.size(), 1000u);
  for (size_t i = 0; i < h.ops.size(); ++i) {
    EXPECT_EQ(h.events[3 * i + 1].node, static_cast<int64_t>(i));
    EXPECT_EQ(h.ops[i].args, Value::int_array({7, 8, 9}));
    ASSERT_TRUE(h.ops[i].res);
    EXPECT_EQ(*h.ops[i].res, Value::int_array({8, 9}));
  }
}

// A history made in the storage of another has the header it is given, whether the
// other's was the same (kept) or not (replaced).
TEST(RecordedEvents, AHistoryMadeInAnothersStorageHasTheHeaderGiven) {
  HostRecorder rec({"ins"});
  const int64_t key = 5;
  rec.inv(1, 0, 0, &key, 1);
  rec.ret<int64_t>(1, 0, nullptr, 0, true);
  Header a;
  a.model = "pq-batch";
  a.lp_rule = "root-release";
  a.params = Value::object({{"k", Value::integer(4)}});
  Header b = a;
  b.params = Value::object({{"k", Value::integer(8)}});
  b.extra.emplace_back("source", "\"a source longer than a short string\"");
  History first = rec.to_history(a, "<sim>");
  History second = rec.to_history(b, "<sim>", std::move(first));
  EXPECT_TRUE(second.header == b);
  const History third = rec.to_history(b, "<sim>", std::move(second));
  EXPECT_TRUE(third.header == b);
  EXPECT_FALSE(third.header == a);
}

// A result made null or an integer array in the storage of another value (the
// conversion's reuse) is the fresh value in every respect the history shows.
TEST(RecordedEvents, AValueRemadeInPlaceEqualsAFreshOne) {
  const std::vector<int64_t> keys = {3, 1, 4};
  Value v = Value::int_array({9, 9, 9, 9, 9});
  v.set_null();
  EXPECT_EQ(v, Value::null());
  EXPECT_EQ(v.hash(), Value::null().hash());
  EXPECT_EQ(v.to_json(), "null");
  v.assign_integers_to(keys.data(), keys.size());
  EXPECT_EQ(v, Value::int_array(keys));
  EXPECT_EQ(v.hash(), Value::int_array(keys).hash());
  EXPECT_EQ(v.to_json(), "[3,1,4]");
  Value s = Value::string("x");
  s.assign_integers_to(keys.data(), 2);
  EXPECT_EQ(s, Value::int_array({3, 1}));
  s = Value::object({{"k", Value::integer(1)}});
  s.set_null();
  EXPECT_EQ(s, Value::null());
}

// What a device download can get wrong is refused by the assembler, naming the event
// (never std::out_of_range, an out-of-bounds read or a silent sort): two events with
// one ticket, keys past the actor's room (an overflow), keys past the buffer; a ret
// without its inv assembles, and the format's rules name it.
TEST(RecordedEvents, DuplicateTicketsAreRefused) {
  Recording r;
  r.events[2].t = 1;  // op 1's inv takes op 0's ticket
  EXPECT_TRUE(throws_format_error([&] { r.assemble(); }, 0, "its ticket is also op"));
}

TEST(RecordedEvents, KeysPastTheActorsRoomAreAnOverflow) {
  Recording r;
  r.events[1].key_off = Recording::kKeyCap - 1;  // replace's two keys from the last word on
  EXPECT_TRUE(throws_format_error([&] { r.assemble(); }, 0,
                                  "its keys [7, 9) run past the actor's key room of 8 words: the recorder overflowed"));
}

TEST(RecordedEvents, KeysPastTheBufferAreRefused) {
  Recording r;
  r.events[2].actor = 2, r.events[0].actor = 2, r.events[5].actor = 2;  // a third actor, with no buffer
  EXPECT_TRUE(throws_format_error([&] { r.assemble(); }, 0, "past the 16 words recorded"));
}

// Found by fuzz/fuzz_device_assembler: an event claiming 2^31 keys made the assembler
// reserve them all (std::bad_alloc, 16 GiB) before any range was checked.
TEST(RecordedEvents, AHugeKeyLengthIsRefusedBeforeAnythingIsSized) {
  Recording r;
  r.events[1].key_len = 1u << 31;
  EXPECT_TRUE(throws_format_error([&] { r.assemble(); }, 0, "run past the actor's key room of 8 words"));
}

TEST(RecordedEvents, RetWithoutInvIsNamedByTheRules) {
  Recording r;
  r.events.push_back({7, 42, 0, kDeviceRet, 0, 0, 0, 1, 1});
  EXPECT_TRUE(rules_reject(r, "ret event of op 42, which has no inv"));
}

}  // namespace
}  // namespace gpulin
