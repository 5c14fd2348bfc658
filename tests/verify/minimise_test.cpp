// Counterexample minimisation shrinks a failing history to its core, and the core
// fails for the whole history's reason: at the op the whole history's check blames,
// with the writes that op's result (and theirs) came from (verify/minimise.h).
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/verify/history_builder.h"
#include "verify/minimise.h"
#include "verify/model_registry.h"
#include "verify/witness_checker.h"

namespace gpulin {
namespace {

using namespace gpulin::testing;

std::vector<int64_t> ids(const History& h) {
  std::vector<int64_t> out;
  for (const Operation& op : h.ops) out.push_back(op.id);
  std::sort(out.begin(), out.end());
  return out;
}

// The op the search blames (the one its message names), or -1 when it does not fail.
int64_t search_blames(const History& h) {
  const SearchResult r = check_search(h);
  return r.verdict == Verdict::NotLinearizable ? r.stuck_ops.front() : -1;
}

// Minimises by the search, expecting the minimal history to fail at the same op as
// the whole one.
MinimalFailure minimise_by_search(const History& h) {
  MinimalFailure m = minimise(h, CheckMethod::Search);
  EXPECT_EQ(m.blame.op, search_blames(h)) << "the blame is the whole history's";
  EXPECT_EQ(search_blames(m.history), m.blame.op) << "the minimal history fails at the same op";
  return m;
}

TEST(Minimise, TwentyOpsShrinkToTheStaleReadCore) {
  // 18 concurrent writes on keys 1..9 (harmless whatever is dropped), and on key
  // 0 a replace followed by a search that misses it: the core, ops 100 and 101.
  HistoryBuilder b("map");
  for (int64_t i = 0; i < 18; ++i)
    b.op(i, 10 + 3 * i, 200 + 5 * i, "replace", L({1 + i % 9, i}), N());
  b.op(100, 50, 60, "replace", L({0, 7}), N());
  b.op(101, 70, 80, "search", L({0}), N());
  const History h = b.build();
  ASSERT_EQ(h.ops.size(), 20u);
  const MinimalFailure core = minimise_by_search(h);
  EXPECT_EQ(ids(core.history), (std::vector<int64_t>{100, 101}));
  EXPECT_EQ(core.history.header.model, "map");
  EXPECT_EQ(core.history.events.size(), 4u);  // each op keeps its inv and ret
  EXPECT_GT(core.checks, 2u);
}

// The example: replace(7,1), replace(7,2), search(7) -> 2, then the stale
// search(7) -> 1. Whatever still fails is not enough: search(7) -> 2 alone fails
// too, only because the replace it read was dropped. The stale search is blamed;
// it keeps replace(7,1), which it read; replace(7,2) overlaps it, so search -> 2,
// which returned before it, is what puts replace(7,2) first: all four stay.
TEST(Minimise, StaleMapSearchKeepsTheWritesTheSearchesRead) {
  HistoryBuilder b("map");
  b.op(0, 1, 2, "replace", L({7, 1}), N());
  b.op(1, 3, 20, "replace", L({7, 2}), N());
  b.op(2, 5, 6, "search", L({7}), I(2));
  b.op(3, 7, 8, "search", L({7}), I(1));
  for (int64_t i = 0; i < 6; ++i) b.op(10 + i, 30 + 2 * i, 31 + 2 * i, "replace", L({8, i}), N());
  b.op(16, 50, 51, "search", L({8}), I(5));
  const History h = b.build();
  ASSERT_EQ(search_blames(h), 3);
  const MinimalFailure m = minimise_by_search(h);
  EXPECT_EQ(ids(m.history), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(m.blame.op, 3);
  EXPECT_EQ(m.fixed, (std::vector<int64_t>{3, 0})) << "the stale search and the replace it read";
}

TEST(Minimise, StaleRegisterReadKeepsTheWriteItRead) {
  // write 1, write 2, then a read of 1; before them a read of the initial null.
  HistoryBuilder b("register");
  b.op(9, 1, 2, "read", A({}), N());
  b.op(0, 10, 11, "write", A({I(1)}), N());
  b.op(1, 12, 13, "write", A({I(2)}), N());
  b.op(2, 14, 15, "read", A({}), I(1));
  b.op(3, 16, 17, "cas", A({I(5), I(6)}), B(false));
  const MinimalFailure m = minimise_by_search(b.build());
  EXPECT_EQ(ids(m.history), (std::vector<int64_t>{0, 1, 2})) << "not the read of 1 alone";
  EXPECT_EQ(m.blame.op, 2);
}

TEST(Minimise, LostCounterUpdateKeepsBothAdds) {
  // histories/examples/counters_lost_update.jsonl, with a second counter beside it.
  HistoryBuilder b("counters");
  b.op(0, 1, 4, "add", L({0, 2}), N());
  b.op(1, 2, 3, "add", L({0, 3}), N());
  b.op(5, 3, 8, "add", L({1, 4}), N());
  b.op(2, 5, 6, "get", L({0}), L({3}));
  b.op(6, 9, 10, "get", L({1}), L({4}));
  const MinimalFailure m = minimise_by_search(b.build());
  EXPECT_EQ(ids(m.history), (std::vector<int64_t>{0, 1, 2})) << "the get and both adds, the lost one included";
  EXPECT_EQ(m.blame.op, 2);
}

TEST(Minimise, LostKvAppendKeepsIt) {
  HistoryBuilder b("kv");
  b.op(0, 1, 2, "append", A({S("x"), S("a")}), N());
  b.op(1, 3, 4, "append", A({S("x"), S("b")}), N());
  b.op(3, 5, 6, "put", A({S("y"), S("c")}), N());
  b.op(2, 7, 8, "get", A({S("x")}), S("b"));
  const MinimalFailure m = minimise_by_search(b.build());
  EXPECT_EQ(ids(m.history), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(m.fixed, (std::vector<int64_t>{2, 1})) << "the get and the append of what it read";
}

TEST(Minimise, PqDeleteOfAKeyThatIsNotTheMinimumKeepsItsInsert) {
  // ins 1, ins 5, then a delete returning 5; inserts of larger keys after it.
  HistoryBuilder b("pq");
  b.op(0, 1, 2, "ins", L({1}), N());
  b.op(1, 3, 4, "ins", L({5}), N());
  b.op(2, 5, 6, "del", A({}), L({5}));
  for (int64_t i = 0; i < 6; ++i) b.op(10 + i, 7 + i, 20 + i, "ins", L({100 + i}), N());
  const MinimalFailure m = minimise_by_search(b.build());
  EXPECT_EQ(ids(m.history), (std::vector<int64_t>{0, 1, 2})) << "not the delete alone";
  EXPECT_EQ(m.fixed, (std::vector<int64_t>{2, 1}));
}

TEST(Minimise, PqDeleteOfAKeyNeverInsertedStandsAlone) {
  HistoryBuilder b("pq");
  b.op(0, 1, 2, "ins", L({1}), N());
  b.op(1, 3, 4, "del", A({}), L({9}));
  const MinimalFailure m = minimise_by_search(b.build());
  EXPECT_EQ(ids(m.history), (std::vector<int64_t>{1})) << "nothing wrote 9: the failure depends on no other op";
}

TEST(Minimise, LostInsertOfAPriorityQueue) {
  // The delete misses the completed insert of key 1. The other 18 ops are
  // concurrent inserts invoked later, harmless whatever is dropped (a delete
  // among them would fail beside the insert of key 1: a second core).
  HistoryBuilder b("pq");
  b.op(50, 1, 2, "ins", L({1}), N());
  b.op(51, 3, 4, "del", A({}), L({}));
  for (int64_t i = 0; i < 18; ++i) b.op(i, 10 + i, 100 + i, "ins", L({100 + i}), N());
  const History h = b.build();
  ASSERT_EQ(h.ops.size(), 20u);
  EXPECT_EQ(ids(minimise_by_search(h).history), (std::vector<int64_t>{50, 51}));
}

// The whole history fails at the stale read of 1 (op 4); a read of 3, which nobody
// wrote, runs over all of it and fails too. Whatever still fails would shrink to
// that read alone: a failure the report never named.
TEST(Minimise, TheMinimalHistoryBlamesTheWholeHistorysOp) {
  HistoryBuilder b("register");
  b.op(0, 1, 100, "read", A({}), I(3));
  b.op(1, 2, 3, "write", A({I(1)}), N());
  b.op(2, 4, 5, "read", A({}), I(1));
  b.op(3, 6, 7, "write", A({I(2)}), N());
  b.op(4, 8, 9, "read", A({}), I(1));
  const History h = b.build();
  ASSERT_EQ(search_blames(h), 4);
  const MinimalFailure m = minimise_by_search(h);
  EXPECT_EQ(m.blame.op, 4);
  EXPECT_EQ(ids(m.history), (std::vector<int64_t>{1, 3, 4}));
}

TEST(Minimise, WitnessMethodKeepsTheWrongResultAndTheKeysItMissed) {
  HistoryBuilder b("pq-batch", Value::object({{"k", I(1)}}), "root-release");
  for (int64_t i = 0; i < 5; ++i)
    b.op(i, 100 * i + 1, 100 * i + 9, "ins", L({i}), N()).hold(i, 1, 100 * i + 2, 100 * i + 3);
  b.op(9, 600, 700, "del", A({}), L({3})).hold(9, 1, 610, 620);  // should be [0]
  const History h = b.build();
  const MinimalFailure m = minimise(h, CheckMethod::Witness);
  // The delete and the insert of 3 it returned are fixed; one smaller key makes
  // the delete wrong (ddmin tries the first half of the others first).
  EXPECT_EQ(m.fixed, (std::vector<int64_t>{9, 3}));
  EXPECT_EQ(ids(m.history), (std::vector<int64_t>{0, 3, 9}));
  const WitnessResult w = check_witness(m.history);
  ASSERT_EQ(w.verdict, Verdict::NotLinearizable);
  EXPECT_EQ(w.violation->op, 9);
  EXPECT_EQ(w.violation->kind, WitnessViolation::Kind::WrongResult);
  EXPECT_EQ(m.blame.op, check_witness(h).violation->op);
}

TEST(Minimise, RefusesAHistoryThatDoesNotFail) {
  const History h = HistoryBuilder("set").op(1, 1, 2, "insert", L({1}), N()).build();
  EXPECT_THROW(minimise(h, CheckMethod::Search), std::invalid_argument);
}

// Model::sources, per model: the ops that may have produced a result, leaving out
// ops invoked after it responded.
std::vector<int64_t> sources_of(const History& h, int64_t reader) {
  std::vector<int64_t> out;
  for (size_t j : model_for(h).sources(h, static_cast<size_t>(h.index_of(reader)))) out.push_back(h.ops[j].id);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ModelSources, EveryModelNamesTheWritesAResultSaw) {
  using V = std::vector<int64_t>;
  {
    HistoryBuilder b("register");
    b.op(1, 1, 2, "write", A({I(5)}), N()).op(2, 3, 4, "cas", A({I(5), I(6)}), B(true));
    b.op(3, 5, 6, "cas", A({I(0), I(6)}), B(false)).pending(4, 7, "cas", A({I(1), I(6)}));
    b.op(5, 8, 9, "read", A({}), I(6)).op(6, 10, 11, "write", A({I(6)}), N());
    const History h = b.build();
    EXPECT_EQ(sources_of(h, 5), (V{2, 4})) << "the cas that stored 6 and the pending one; not the failed one, nor a later write";
    EXPECT_EQ(sources_of(h, 2), (V{1})) << "a successful cas saw its old value";
  }
  {
    HistoryBuilder b("map");
    b.op(1, 1, 2, "replace", L({7, 1}), N()).op(2, 3, 4, "replace", L({8, 1}), N());
    b.op(3, 5, 6, "delete", L({7}), N()).op(4, 7, 8, "search", L({7}), I(1));
    b.op(5, 9, 10, "search", L({7}), N());
    const History h = b.build();
    EXPECT_EQ(sources_of(h, 4), (V{1}));
    EXPECT_EQ(sources_of(h, 5), (V{3})) << "nothing found: the delete";
  }
  {
    HistoryBuilder b("set");
    b.op(1, 1, 2, "insert", L({7}), N()).op(2, 3, 4, "delete", L({7}), N());
    b.op(3, 5, 6, "contains", L({7}), B(true)).op(4, 7, 8, "contains", L({7}), B(false));
    const History h = b.build();
    EXPECT_EQ(sources_of(h, 3), (V{1}));
    EXPECT_EQ(sources_of(h, 4), (V{2}));
  }
  {
    HistoryBuilder b("multimap");
    b.op(1, 1, 2, "insert", L({7, 1}), N()).op(2, 3, 4, "insert", L({7, 2}), N());
    b.op(3, 5, 6, "deleteall", L({7}), N()).op(4, 7, 8, "searchall", L({7}), L({2, 1}));
    b.op(5, 9, 10, "search", L({7}), I(2)).op(6, 11, 12, "searchall", L({7}), L({}));
    const History h = b.build();
    EXPECT_EQ(sources_of(h, 4), (V{1, 2}));
    EXPECT_EQ(sources_of(h, 5), (V{2}));
    EXPECT_EQ(sources_of(h, 6), (V{3}));
  }
  {
    HistoryBuilder b("kv");
    b.op(1, 1, 2, "put", A({S("x"), S("ab")}), N()).op(2, 3, 4, "append", A({S("x"), S("c")}), N());
    b.op(3, 5, 6, "append", A({S("x"), S("z")}), N()).op(4, 7, 8, "get", A({S("x")}), S("abc"));
    const History h = b.build();
    EXPECT_EQ(sources_of(h, 4), (V{1, 2}));
  }
  {
    HistoryBuilder b("counters");
    b.op(1, 1, 2, "add", L({0, 2}), N()).op(2, 3, 4, "add", L({1, 2}), N());
    b.op(3, 5, 6, "get", L({0}), L({2}));
    EXPECT_EQ(sources_of(b.build(), 3), (V{1}));
  }
  for (const char* model : {"pq", "pq-batch"}) {
    HistoryBuilder b(model, std::string(model) == "pq" ? Value::object() : Value::object({{"k", I(2)}}));
    b.op(1, 1, 2, "ins", L({4}), N()).op(2, 3, 4, "ins", L({5}), N());
    b.op(3, 5, 6, "del", A({}), L({4})).op(4, 7, 8, "del", A({}), L({}));
    const History h = b.build();
    EXPECT_EQ(sources_of(h, 3), (V{1})) << model;
    EXPECT_EQ(sources_of(h, 4), (V{})) << model;
  }
  {
    HistoryBuilder b("psync-pq", Value::object({{"r", I(1)}}));
    b.op(1, 1, 2, "cycle", L({4, 9}), L({4})).op(2, 3, 4, "cycle", L({3}), L({3}));
    b.op(3, 5, 6, "cycle", L({}), L({9}));
    const History h = b.build();
    EXPECT_EQ(sources_of(h, 3), (V{1}));
    EXPECT_EQ(sources_of(h, 2), (V{})) << "its own new key is its own doing";
  }
  {
    HistoryBuilder b("bucket-pq");
    b.op(1, 1, 2, "update", A({L({1, 5}), L({2, 3})}), N()).op(2, 3, 4, "update", A({L({1, 6})}), N());
    b.op(3, 5, 6, "extractmin", A({}), L({1, 5}));
    EXPECT_EQ(sources_of(b.build(), 3), (V{1}));
  }
}

}  // namespace
}  // namespace gpulin
