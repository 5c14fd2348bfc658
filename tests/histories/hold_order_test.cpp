// Hold versions (histories/hold_order.h): holds numbered on their nodes instead of
// ticketed are put among the ticketed events in an order that respects every
// recorded order; the heap's root-release witness then judges the history by the
// root's hold numbers; recorded orders that contradict each other are refused
// naming the event. Random valid executions (RapidCheck) always get such an order.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "histories/device_recorder.h"
#include "histories/hold_order.h"
#include "test_util.h"
#include "structures/gheap/sim/heap_run.h"

namespace gpulin {
namespace {

using test::throws_format_error;

Header heap_header() {
  Header h;
  h.model = "pq-batch";
  h.params = Value::object({{"k", Value::integer(1)}});
  h.lp_rule = "root-release";
  return h;
}

// t, op, node, kind, fn (the hold's number), key_off, key_len, is_null, actor
DeviceEvent hold(uint32_t kind, int64_t op, uint32_t actor, uint32_t number) {
  return DeviceEvent{0, op, 1, kind, number, 0, 0, 0, actor};
}

// Actor 0 inserts 5, actor 1 deletes; both overlap; the root's hold numbers say
// who went first. Keys: actor 0's [5], actor 1's result [5].
std::vector<DeviceEvent> insert_and_delete(uint32_t insert_hold, uint32_t delete_hold) {
  return {
      {1, 0, 0, kDeviceInv, 0, 0, 1, 0, 0},  hold(kDeviceAcq, 0, 0, insert_hold), hold(kDeviceRel, 0, 0, insert_hold),
      {3, 0, 0, kDeviceRet, 0, 0, 0, 1, 0},  {2, 1, 0, kDeviceInv, 1, 0, 0, 0, 1},  hold(kDeviceAcq, 1, 1, delete_hold),
      hold(kDeviceRel, 1, 1, delete_hold),   {4, 1, 0, kDeviceRet, 0, 0, 1, 0, 1},
  };
}

explore::Failure judge(const std::vector<DeviceEvent>& events) {
  const std::vector<uint64_t> keys = {5, 0, 5, 0};  // key_cap 2: actor 0 at 0, actor 1 at 2
  const History h = expand(assemble_device_history(events, keys, 2, heap_header(), {"ins", "del"}, "<gpu>"));
  return explore::judge_history(h, explore::JudgeOptions{}).failure;
}

TEST(HoldOrder, TheRootsHoldNumbersOrderTheOperations) {
  EXPECT_EQ(judge(insert_and_delete(0, 1)), explore::Failure::None);
  // The delete's hold first: it took 5 before 5 was inserted.
  EXPECT_NE(judge(insert_and_delete(1, 0)), explore::Failure::None);
}

TEST(HoldOrder, EventsGetPlacesOneToNRespectingEveryOrder) {
  const std::vector<DeviceEvent> out = order_hold_versions(insert_and_delete(1, 0), "<gpu>");
  ASSERT_EQ(out.size(), 8u);
  std::map<std::pair<int64_t, uint32_t>, uint64_t> at;  // (op, kind) -> t
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(out[i].t, i + 1);
    at[{out[i].op, out[i].kind}] = out[i].t;
  }
  const auto t_of = [&](int64_t op, uint32_t kind) { return at[std::make_pair(op, kind)]; };
  EXPECT_LT(t_of(1, kDeviceRel), t_of(0, kDeviceAcq)) << "hold 0 (the delete's) ends before hold 1 starts";
  EXPECT_LT(t_of(0, kDeviceInv), t_of(1, kDeviceInv)) << "tickets 1 and 2 keep their order";
}

TEST(HoldOrder, ContradictoryRecordsAreRefusedNamingTheEvent) {
  // Actor 1 invoked after actor 0 returned (tickets 2 < 3), yet its hold is number
  // 0 and actor 0's number 1: no order has both.
  const std::vector<DeviceEvent> cycle = {
      {1, 0, 0, kDeviceInv, 0, 0, 1, 0, 0}, hold(kDeviceAcq, 0, 0, 1), hold(kDeviceRel, 0, 0, 1),
      {2, 0, 0, kDeviceRet, 0, 0, 0, 1, 0}, {3, 1, 0, kDeviceInv, 1, 0, 0, 0, 1}, hold(kDeviceAcq, 1, 1, 0),
      hold(kDeviceRel, 1, 1, 0),            {4, 1, 0, kDeviceRet, 0, 0, 0, 1, 1},
  };
  EXPECT_TRUE(throws_format_error([&] { order_hold_versions(cycle, "<gpu>"); }, 0, "op 0, actor 0, node 1, hold 1"));
  // One hold number twice.
  EXPECT_TRUE(throws_format_error([&] { order_hold_versions(insert_and_delete(0, 0), "<gpu>"); }, 0, "recorded twice"));
  // A hold waiting for one never recorded.
  EXPECT_TRUE(throws_format_error([&] { order_hold_versions(insert_and_delete(1, 2), "<gpu>"); }, 0, "waits for hold"));
  // A rel of a hold not on.
  std::vector<DeviceEvent> stray = insert_and_delete(0, 1);
  stray[2].fn = 7;
  EXPECT_TRUE(throws_format_error([&] { order_hold_versions(stray, "<gpu>"); }, 0, "not the node's current one"));
  // t 0 on an inv.
  std::vector<DeviceEvent> bad_inv = insert_and_delete(0, 1);
  bad_inv[0].t = 0;
  EXPECT_TRUE(throws_format_error([&] { order_hold_versions(bad_inv, "<gpu>"); }, 0, "not a hold"));
}

// As the GPU records them: an acq unnumbered, numbered by its rel; a hold never
// left (its actor stopped) after every hold of the node that ended.
TEST(HoldOrder, AnAcquisitionTakesItsReleasesNumber) {
  std::vector<DeviceEvent> events = insert_and_delete(1, 0);
  for (DeviceEvent& e : events)
    if (e.kind == kDeviceAcq) e.fn = kHoldUnnumbered;
  EXPECT_NE(judge(events), explore::Failure::None);  // the delete's hold first, as above
  for (DeviceEvent& e : events)
    if (e.kind == kDeviceRel) e.fn = 1 - e.fn;
  EXPECT_EQ(judge(events), explore::Failure::None);
  // Actor 1 stopped holding the root: its acq after actor 0's hold, no rel, no ret.
  std::vector<DeviceEvent> stopped = {
      {1, 0, 0, kDeviceInv, 0, 0, 1, 0, 0},        hold(kDeviceAcq, 0, 0, kHoldUnnumbered), hold(kDeviceRel, 0, 0, 0),
      {3, 0, 0, kDeviceRet, 0, 0, 0, 1, 0},        {2, 1, 0, kDeviceInv, 1, 0, 0, 0, 1},
      hold(kDeviceAcq, 1, 1, kHoldUnnumbered),
  };
  const std::vector<DeviceEvent> out = order_hold_versions(stopped, "<gpu>");
  ASSERT_EQ(out.size(), 6u);
  uint64_t rel0 = 0, acq1 = 0;
  for (const DeviceEvent& e : out) {
    if (e.kind == kDeviceRel) rel0 = e.t;
    if (e.kind == kDeviceAcq && e.op == 1) {
      acq1 = e.t;
      EXPECT_EQ(e.fn, 1u) << "after hold 0, the one that ended";
    }
  }
  EXPECT_LT(rel0, acq1);
}

// Implied acqs (device_events.h): each hold one record after its release
// (kDeviceHold); the assembly puts its acq right before its rel, and the history
// and its verdicts are those of the same holds recorded as acq and rel. A whole
// hold with a ticket is refused naming it.
TEST(HoldOrder, AWholeHoldIsItsAcqAndItsRel) {
  for (const auto& [ins, del] : {std::pair<uint32_t, uint32_t>{0, 1}, {1, 0}}) {
    std::vector<DeviceEvent> whole;
    for (DeviceEvent e : insert_and_delete(ins, del)) {
      if (e.kind == kDeviceAcq) continue;
      if (e.kind == kDeviceRel) e.kind = kDeviceHold;
      whole.push_back(e);
    }
    ASSERT_EQ(whole.size(), 6u);
    EXPECT_EQ(judge(whole), judge(insert_and_delete(ins, del)));
    const std::vector<uint64_t> keys = {5, 0, 5, 0};
    const History h = expand(assemble_device_history(whole, keys, 2, heap_header(), {"ins", "del"}, "<gpu>"));
    ASSERT_EQ(h.events.size(), 8u);
    for (size_t i = 0; i < h.events.size(); ++i) {
      const Event& e = h.events[i];
      if (e.kind != EventKind::Acq) continue;
      ASSERT_LT(i + 1, h.events.size());
      EXPECT_EQ(h.events[i + 1].kind, EventKind::Rel) << "the acq right before its rel";
      EXPECT_EQ(h.events[i + 1].op, e.op);
      EXPECT_EQ(e.node, 1);
    }
  }
  std::vector<DeviceEvent> ticketed = {{1, 0, 0, kDeviceInv, 0, 0, 1, 0, 0},
                                       {2, 0, 1, kDeviceHold, 0, 0, 0, 0, 0},
                                       {3, 0, 0, kDeviceRet, 0, 0, 0, 1, 0}};
  const std::vector<uint64_t> keys = {5, 0};
  EXPECT_TRUE(throws_format_error(
      [&] { assemble_device_history(ticketed, keys, 2, heap_header(), {"ins", "del"}, "<gpu>"); }, 0,
      "a whole hold (kind 5) with a ticket"));
}

// A random execution: actors run operations (inv, some holds of random nodes, one
// at a time, ret), interleaved at random; inv and ret take tickets, holds numbers.
RC_GTEST_PROP(HoldOrder, RandomExecutionsGetAnOrderRespectingEveryRecord, ()) {
  const uint32_t actors = *rc::gen::inRange(1, 5), nodes = *rc::gen::inRange(1, 4);
  std::mt19937_64 rng(*rc::gen::arbitrary<uint64_t>());
  struct Actor {
    std::vector<DeviceEvent> log;
    int64_t op = -1;
    uint32_t holds_left = 0;
    int64_t holding = -1;
    uint32_t ops_left = 0;
  };
  std::vector<Actor> a(actors);
  for (uint32_t i = 0; i < actors; ++i) a[i].ops_left = 1 + rng() % 4;
  std::vector<uint32_t> next_number(nodes + 1, 0);
  std::vector<bool> busy(nodes + 1, false);
  uint64_t ticket = 0;
  int64_t next_op = 0;
  for (bool progress = true; progress;) {
    progress = false;
    for (uint32_t step = 0; step < 4 * actors; ++step) {
      Actor& x = a[rng() % actors];
      const uint32_t me = static_cast<uint32_t>(&x - a.data());
      if (x.op < 0 && x.ops_left) {  // invoke
        x.op = next_op++, x.holds_left = rng() % 3, --x.ops_left;
        x.log.push_back({++ticket, x.op, 0, kDeviceInv, 0, 0, 0, 0, me});
      } else if (x.op >= 0 && x.holding >= 0) {  // release
        x.log.push_back({0, x.op, x.holding, kDeviceRel, next_number[x.holding]++, 0, 0, 0, me});
        busy[x.holding] = false, x.holding = -1;
      } else if (x.op >= 0 && x.holds_left) {  // acquire a free node
        const uint32_t n = 1 + rng() % nodes;
        if (busy[n]) continue;
        busy[n] = true, x.holding = n, --x.holds_left;
        x.log.push_back({0, x.op, n, kDeviceAcq, kHoldUnnumbered, 0, 0, 0, me});  // as the GPU records it
      } else if (x.op >= 0) {  // return
        x.log.push_back({++ticket, x.op, 0, kDeviceRet, 0, 0, 0, 1, me});
        x.op = -1;
      } else {
        continue;
      }
      progress = true;
    }
    for (const Actor& x : a) progress |= x.op >= 0 || x.ops_left;
  }
  // The download's order: actor by actor.
  std::vector<DeviceEvent> events;
  for (const Actor& x : a) events.insert(events.end(), x.log.begin(), x.log.end());
  const std::vector<DeviceEvent> out = order_hold_versions(events, "<gpu>");
  RC_ASSERT(out.size() == events.size());
  for (size_t i = 0; i < out.size(); ++i) RC_ASSERT(out[i].t == i + 1);
  // Each actor's order kept: its events in `out` are its log, in order.
  for (uint32_t me = 0; me < actors; ++me) {
    std::vector<DeviceEvent> mine;
    for (const DeviceEvent& o : out)
      if (o.actor == me) mine.push_back(o);
    RC_ASSERT(mine.size() == a[me].log.size());
    for (size_t j = 0; j < mine.size(); ++j) {
      const DeviceEvent& e = a[me].log[j];
      RC_ASSERT(mine[j].op == e.op && mine[j].kind == e.kind && mine[j].node == e.node);
      if (e.kind == kDeviceRel) RC_ASSERT(mine[j].fn == e.fn);
    }
  }
  // Each node's holds in their numbers: hold v's rel before hold v + 1's acq.
  std::map<std::pair<int64_t, uint32_t>, uint64_t> acq, rel;
  for (const DeviceEvent& o : out) {
    if (o.kind == kDeviceAcq) acq[{o.node, o.fn}] = o.t;
    if (o.kind == kDeviceRel) rel[{o.node, o.fn}] = o.t;
  }
  for (const auto& [key, t] : acq)
    if (key.second > 0) RC_ASSERT(rel.at({key.first, key.second - 1}) < t);
}

}  // namespace
}  // namespace gpulin
