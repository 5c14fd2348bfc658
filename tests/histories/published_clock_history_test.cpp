// Published-clock records to a history (histories/published_clock_history.h): each
// ret is ordered at the first ticker sighting of its multiprocessor's clock at or
// past it; an operation precedes another exactly when its ret was published at a G
// below the other's inv; every malformed input is refused, naming the op.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "histories/published_clock_history.h"
#include "histories/rules.h"
#include "test_util.h"

namespace gpulin {
namespace {

using test::throws_format_error;

const std::vector<std::string> kPublishedFns = {"replace", "delete", "search"};

PublishedRecord rec(uint32_t inv, uint32_t ret, uint32_t fn, uint32_t sm, uint32_t args_len, bool has_res, uint32_t res,
                    uint32_t launch = 0) {
  return {inv, ret, res, published_shape(args_len, has_res, !has_res, fn, sm, launch)};
}

// Operation `id`'s entry (the history keeps its ops in inv order).
const KeyOp& op(const KeyHistory& k, int64_t id) {
  for (const KeyOp& o : k.ops)
    if (o.id == id) return o;
  throw std::out_of_range("no op " + std::to_string(id));
}

KeyHistory assemble(const std::vector<PublishedRecord>& r, const std::vector<PublishedTick>& ticks,
                    bool overflow = false) {
  std::vector<PublishedCall> calls(r.size(), PublishedCall{5, 50});
  Header h;
  h.model = "map";
  return assemble_published_history(r, calls, ticks, overflow, h, kPublishedFns, "<gpu>");
}

// Op 0 on multiprocessor 3 returns with its clock at 1; the ticker sees 1 there and
// bumps G from 0. Op 1 loaded G = 1: after op 0. Op 2 loaded G = 0 (before the
// bump): concurrent with op 0, though its own ret (multiprocessor 4, seen at the
// next tick, g = 1) comes later.
TEST(PublishedClockHistory, AnOpPrecedesExactlyTheInvsThatLoadedALaterG) {
  const std::vector<PublishedRecord> r = {rec(0, 1, 0, 3, 2, false, 0), rec(1, 2, 2, 3, 1, true, 50),
                                          rec(0, 1, 2, 4, 1, true, 50)};
  const std::vector<PublishedTick> ticks = {{3, 1, 0, 0}, {3, 2, 1, 0}, {4, 1, 1, 0}};
  const KeyHistory k = assemble(r, ticks);
  EXPECT_NO_THROW(check_header(k.header, k.source, 0));
  EXPECT_NO_THROW(check_events(k.events, k.source));
  ASSERT_EQ(k.ops.size(), 3u);
  EXPECT_LT(op(k, 0).ret_t, op(k, 1).inv_t);  // published at g 0 < 1
  EXPECT_GT(op(k, 0).ret_t, op(k, 2).inv_t);  // op 2 loaded G before the bump
  EXPECT_LT(op(k, 2).inv_t, op(k, 2).ret_t);
  EXPECT_EQ(op(k, 1).args_len, 1u);
  EXPECT_TRUE(k.header.lp_rule.empty());
  for (const auto& [field, value] : k.header.extra) EXPECT_NE(field, kOrderField);  // one order: real time
}

// A later sighting publishes every ret up to its value: op 1's ret (2) was never
// seen exactly, but the sighting of 3 covers it.
TEST(PublishedClockHistory, ASightingPublishesEveryRetUpToIt) {
  const std::vector<PublishedRecord> r = {rec(0, 2, 0, 7, 2, false, 0), rec(2, 0, 1, 7, 1, false, 0),
                                          rec(1, 3, 2, 7, 1, true, 50)};
  const KeyHistory k = assemble(r, {{7, 1, 0, 0}, {7, 3, 1, 0}});
  EXPECT_LT(op(k, 0).ret_t, op(k, 1).inv_t);  // published at g 1 < 2
  EXPECT_TRUE(op(k, 1).pending());            // ret 0: it never returned
}

TEST(PublishedClockHistory, MalformedRecordsAndLogsAreRefused) {
  const std::vector<PublishedTick> ticks = {{3, 1, 0, 0}};
  EXPECT_TRUE(throws_format_error([&] { assemble({rec(0, 2, 0, 3, 2, false, 0)}, ticks); }, 0,
                                  "published-clock record of op 0: its ret (multiprocessor 3 at 2) was never published"));
  EXPECT_TRUE(throws_format_error([&] { assemble({rec(0, 1, 0, 3, 2, false, 0), PublishedRecord{}}, ticks); }, 0,
                                  "record of op 1: never written"));
  EXPECT_TRUE(throws_format_error([&] { assemble({rec(0, 1, 0, 3, 2, false, 0)}, ticks, true); }, 0,
                                  "the ticker's log was full and lost sightings"));
  EXPECT_TRUE(throws_format_error([&] { assemble({rec(0, 1, 0, 3, 2, false, 0)}, {{3, 2, 0, 0}, {3, 1, 1, 0}}); }, 0,
                                  "multiprocessor 3's sightings go back"));
  EXPECT_TRUE(throws_format_error([&] { assemble({rec(0, 1, 9, 3, 2, false, 0)}, ticks); }, 0,
                                  "unknown operation 9"));
  EXPECT_TRUE(throws_format_error([&] { assemble({rec(4, 1, 0, 3, 2, false, 0)}, ticks); }, 0,
                                  "record of op 0: its ret was published at G 0, before its inv loaded G 4"));
  Header h;
  h.model = "map";
  EXPECT_TRUE(throws_format_error(
      [&] { assemble_published_history({rec(0, 1, 0, 3, 2, false, 0)}, {}, ticks, false, h, kPublishedFns, "<gpu>"); }, 0,
      "1 records but 0 calls"));
}

// Some ops only (a check of a few keys): the history keeps their ids, in its ops,
// actors and events, and an error names the op by its id.
TEST(PublishedClockHistory, SomeOpsKeepTheirIds) {
  const std::vector<PublishedRecord> r = {rec(0, 1, 0, 3, 2, false, 0), rec(1, 2, 2, 3, 1, true, 50)};
  const std::vector<PublishedTick> ticks = {{3, 1, 0, 0}, {3, 2, 1, 0}};
  const std::vector<PublishedCall> calls(2, PublishedCall{5, 50});
  Header h;
  h.model = "map";
  const KeyHistory k = assemble_published_ops(r, calls, {40, 97}, ticks, false, h, kPublishedFns, "<gpu>");
  EXPECT_NO_THROW(check_events(k.events, k.source));
  ASSERT_EQ(k.ops.size(), 2u);
  EXPECT_LT(op(k, 40).ret_t, op(k, 97).inv_t);
  EXPECT_EQ(op(k, 97).actor, 97);
  for (const Event& e : k.events) {
    EXPECT_TRUE(e.op == 40 || e.op == 97) << e.op;
    EXPECT_EQ(e.actor, e.op);
  }
  EXPECT_TRUE(throws_format_error(
      [&] { assemble_published_ops({r[0], PublishedRecord{}}, calls, {40, 97}, ticks, false, h, kPublishedFns, "<gpu>"); },
      0, "record of op 97: never written"));
  EXPECT_TRUE(throws_format_error(
      [&] { assemble_published_ops(r, calls, {40}, ticks, false, h, kPublishedFns, "<gpu>"); }, 0,
      "2 records but 1 op ids"));
}

}  // namespace
}  // namespace gpulin
