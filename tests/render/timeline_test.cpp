// The timeline behind gpulin render (render/timeline.h, render/page.h): points in the
// rule's order with the state after each, the search's points placed inside their
// ops' intervals, the failing op, window and prefix, the fallback when a rule's holds
// cannot be read, and the page: data embedded safely, windowed by --from/--to.
#include <gtest/gtest.h>

#include <algorithm>

#include "render/page.h"
#include "render/timeline.h"
#include "tests/verify/history_builder.h"
#include "verify/minimise.h"

namespace gpulin::render {
namespace {

using namespace gpulin::testing;

// A map history under the explicit rule: replace k1 -> 10 (lp 30), a search that
// sees it (lp 45), a later search that sees it too.
HistoryBuilder map_history(int64_t last_result) {
  HistoryBuilder b("map", Value::object(), "explicit");
  b.op(1, 10, 40, "replace", L({1, 10}), N()).lp(1, 30);
  b.op(2, 20, 50, "search", L({1}), I(10)).lp(2, 45);
  b.op(3, 60, 70, "search", L({1}), I(last_result)).lp(3, 65);
  return b;
}

TEST(Timeline, RulePointsInOrderWithStates) {
  const History h = map_history(10).build();
  const Timeline tl = build_timeline(h);
  EXPECT_EQ(tl.verdict, Verdict::Linearizable);
  EXPECT_EQ(tl.method, "witness (rule explicit)");
  ASSERT_EQ(tl.points.size(), 3u);
  EXPECT_EQ(tl.points[0].t, 30);
  EXPECT_EQ(tl.points[1].t, 45);
  EXPECT_EQ(tl.points[2].t, 65);
  EXPECT_EQ(h.ops[tl.points[0].op].id, 1);
  for (const TimelinePoint& p : tl.points) EXPECT_NE(p.state.find("10"), std::string::npos) << p.state;
  EXPECT_EQ(tl.failing, -1);
  EXPECT_TRUE(tl.window.empty());
}

TEST(Timeline, RuleFailureMarksTheOpItsWindowAndPrefix) {
  const History h = map_history(11).build();  // the last search returns what nobody wrote
  const Timeline tl = build_timeline(h);
  EXPECT_EQ(tl.verdict, Verdict::NotLinearizable);
  ASSERT_GE(tl.failing, 0);
  EXPECT_EQ(h.ops[tl.failing].id, 3);
  EXPECT_EQ(tl.failing_t, 65) << "the failing op's lp";
  EXPECT_EQ(tl.prefix.size(), 2u);
  EXPECT_EQ(tl.points.size(), 2u) << "the states stop where the replay fails";
  EXPECT_FALSE(tl.window.empty());
}

TEST(Timeline, SearchPointsLieInsideTheirOpsInOrder) {
  const History h = HistoryBuilder("register")
                        .op(1, 2, 6, "write", A({I(1)}), N())
                        .op(2, 1, 7, "read", A({}), I(1))
                        .op(3, 8, 9, "read", A({}), I(1))
                        .build();
  const Timeline tl = build_timeline(h);
  EXPECT_EQ(tl.method, "search");
  ASSERT_EQ(tl.points.size(), 3u);
  double last = -1;
  for (const TimelinePoint& p : tl.points) {
    const Operation& op = h.ops[p.op];
    EXPECT_GT(p.t, static_cast<double>(op.inv_t));
    EXPECT_LT(p.t, static_cast<double>(op.ret_t));
    EXPECT_GT(p.t, last);
    last = p.t;
  }
  EXPECT_EQ(h.ops[tl.points[0].op].id, 1) << "the write before the read that sees it";
}

TEST(Timeline, SearchFailureIsMinimised) {
  // Two writes, then a read of a value never written, and an unrelated read.
  const History h = HistoryBuilder("register")
                        .op(1, 1, 2, "write", A({I(1)}), N())
                        .op(2, 3, 4, "read", A({}), I(1))
                        .op(3, 5, 6, "write", A({I(2)}), N())
                        .op(4, 7, 8, "read", A({}), I(1))
                        .build();
  const Timeline tl = build_timeline(h);
  EXPECT_EQ(tl.verdict, Verdict::NotLinearizable);
  ASSERT_FALSE(tl.window.empty());
  EXPECT_LT(tl.window.size(), h.ops.size()) << "the window is minimised";
  EXPECT_FALSE(tl.prefix.empty());
}

// The page's window is the minimal failing history (verify/minimise.h): it fails at
// the op the page marks, and keeps the writes that op and the searches before it
// read. Here the stale search (op 3) is marked; search -> 2 alone also fails, only
// because the replace it read is dropped, and must not be the window.
TEST(Timeline, SearchWindowFailsAtTheMarkedOpWithTheWritesItRead) {
  HistoryBuilder b("map");
  b.op(0, 1, 2, "replace", L({7, 1}), N());
  b.op(1, 3, 20, "replace", L({7, 2}), N());
  b.op(4, 4, 9, "replace", L({8, 5}), N());
  b.op(2, 5, 6, "search", L({7}), I(2));
  b.op(3, 7, 8, "search", L({7}), I(1));
  const History h = b.build();
  const Timeline tl = build_timeline(h);
  ASSERT_EQ(tl.verdict, Verdict::NotLinearizable);
  ASSERT_GE(tl.failing, 0);
  EXPECT_EQ(h.ops[tl.failing].id, 3);
  std::vector<int64_t> window;
  for (size_t i : tl.window) window.push_back(h.ops[i].id);
  std::sort(window.begin(), window.end());
  EXPECT_EQ(window, (std::vector<int64_t>{0, 1, 2, 3}));
  std::vector<int64_t> minimal;
  for (const Operation& op : minimise(h, CheckMethod::Search).history.ops) minimal.push_back(op.id);
  std::sort(minimal.begin(), minimal.end());
  EXPECT_EQ(window, minimal) << "the window is what gpulin check prints as minimal";
}

TEST(Timeline, UnreadableHoldsFallBackToTheSearch) {
  // A root-release history whose op releases node 2 it never acquired (findings F5).
  HistoryBuilder b("pq-batch", Value::object({{"k", I(2)}}), "root-release");
  b.op(1, 1, 10, "ins", L({5}), N()).hold(1, 1, 2, 3);
  b.op(2, 11, 20, "del", A({}), L({5})).hold(2, 1, 12, 13);
  History h = b.build();
  h.events.push_back(Event{15, EventKind::Rel, 2, 2, 2, 0});
  h.normalize();
  const Timeline tl = build_timeline(h);
  EXPECT_EQ(tl.method, "search");
  EXPECT_NE(tl.notes.find("cannot be read"), std::string::npos) << tl.notes;
  EXPECT_EQ(tl.verdict, Verdict::Linearizable);
}

TEST(Page, DataIsEmbeddedSafelyAndWindowed) {
  HistoryBuilder b("register");
  b.op(1, 1, 2, "write", A({S("</script><b>")}), N());
  b.op(2, 100, 101, "read", A({}), S("</script><b>"));
  const History h = b.build();
  const Timeline tl = build_timeline(h);
  const std::string page = timeline_page(h, tl, PageOptions{"t", "", {}, {}, {}, {}, "", ""});
  const size_t data = page.find("<script id=\"data\"");
  ASSERT_NE(data, std::string::npos);
  const size_t close = page.find("</script>", data);
  EXPECT_EQ(page.find("<\\/script>", data) < close, true) << "the args' </script> is escaped inside the data";
  EXPECT_NE(page.find("window.gpulin"), std::string::npos);
  const std::string all = page_json(h, tl, PageOptions{});
  const std::string late = page_json(h, tl, PageOptions{"", "", 50, 200, {}, {}, "", ""});
  EXPECT_NE(all.find("\"write\""), std::string::npos);
  EXPECT_EQ(late.find("\"write\""), std::string::npos) << "the write ends before --from";
  EXPECT_NE(late.find("\"read\""), std::string::npos);
}

// The run's marks (a stale read, a race) between drawn ops, in the page's op indices
// and times less t0; a read of a value from before the run starts at the timeline's
// start on its reader's lane; a mark whose op is not drawn is left out.
TEST(Page, RunMarksJoinTheirOpsAndSkipThoseNotDrawn) {
  HistoryBuilder b("register");
  b.op(7, 10, 20, "write", A({S("a")}), N());
  b.op(9, 15, 30, "read", A({}), S("a"));
  const History h = b.build();
  const Timeline tl = build_timeline(h);
  PageOptions o;
  o.marks = {{true, 7, 9, 12.5, 16.5, "race"},
             {false, -1, 9, 0, 17.5, "stale"},
             {false, 7, 42, 12.5, 18.5, "op 42 is no op of the history"}};
  const std::string j = page_json(h, tl, o);
  EXPECT_NE(j.find("\"marks\":[[1,0,2.5,1,6.5,\"race\"],[0,1,0,1,7.5,\"stale\"]]"), std::string::npos) << j;
  o.from = 25;  // the write is not drawn: the race is left out
  const std::string late = page_json(h, tl, o);
  EXPECT_NE(late.find("\"marks\":[[0,0,0,0,"), std::string::npos) << late;
}

}  // namespace
}  // namespace gpulin::render
