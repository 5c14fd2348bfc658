// The keyed check (verify/keyed_linear) against the generic checkers on the same
// histories: the rule's verdict, the failing op, how many ops the rule's order
// explained before it and check_witness's message; and the verdict the search on
// the failing keys gives against check_search on the whole history. Generated
// map, set and multimap histories, random small ones with their results, lp
// events and points damaged (RapidCheck), and larger ones with a planted wrong
// search and a planted early lp.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <random>

#include "histories/key_clock_history.h"
#include "histories/published_clock_history.h"
#include "histories/key_history.h"
#include "histories/result_shapes.h"
#include "histories/rules.h"
#include "tests/verify/history_builder.h"
#include "tests/verify/witness_expect.h"
#include "verify/keyed_linear/keyed_check.h"
#include "verify/search_checker.h"
#include "verify/testing/generate_keyed_history.h"
#include "verify/testing/generate_published_recording.h"
#include "verify/witness_checker.h"

namespace gpulin {
namespace {

using testing::HistoryBuilder;
using testing::I;
using testing::L;
using testing::N;

KeyHistory generated(const std::string& model, size_t ops, int actors, uint64_t keys, uint64_t seed) {
  KeyedHistoryOptions o;
  o.model = model;
  o.ops = ops;
  o.actors = actors;
  o.keys = keys;
  o.seed = seed;
  return generate_keyed_history(o);
}

KeyedCheckResult keyed(const KeyHistory& kh, unsigned threads, bool decide = true) {
  KeyedCheckOptions o;
  o.threads = threads;
  o.decide = decide;
  return check_keyed_linear(kh, o);
}

// Checks kh both ways (and on 1 and 3 threads) and insists they agree; with
// `search`, also the verdict against check_search on the whole history.
KeyedCheckResult agree(const KeyHistory& kh, bool search = true) {
  const History h = expand(kh);
  const WitnessResult ref = check_witness(h);
  const KeyedCheckResult one = keyed(kh, 1), many = keyed(kh, 3);
  EXPECT_TRUE(one.applicable) << one.why;
  testing::expect_same_witness(one.witness, ref);
  if (one.witness.violation && ref.violation) {
    EXPECT_EQ(one.witness.violation->message, ref.violation->message);
  }
  EXPECT_EQ(one.failing_keys.empty(), ref.verdict == Verdict::Linearizable);
  if (search) {
    const SearchResult s = check_search(h);
    if (s.verdict != Verdict::Undecided && one.verdict != Verdict::Undecided) {
      EXPECT_EQ(one.verdict, s.verdict);
    }
  }
  EXPECT_EQ(many.verdict, one.verdict);
  EXPECT_EQ(many.failing_keys, one.failing_keys);
  EXPECT_EQ(many.keys, one.keys);
  EXPECT_EQ(many.witness.ops_replayed, one.witness.ops_replayed);
  if (many.witness.violation && one.witness.violation) {
    EXPECT_EQ(many.witness.violation->message, one.witness.violation->message);
  }
  return one;
}

TEST(KeyedCheck, GeneratedHistoriesPass) {
  for (const char* model : {"map", "set", "multimap"})
    for (uint64_t keys : {uint64_t{16}, uint64_t{100000}}) {  // keys shared by many ops, and mostly fresh ones
      SCOPED_TRACE(std::string(model) + ", " + std::to_string(keys) + " keys");
      const KeyHistory kh = generated(model, 4000, 32, keys, 5);
      const KeyedCheckResult r = agree(kh, /*search=*/false);
      EXPECT_EQ(r.verdict, Verdict::Linearizable);
      EXPECT_EQ(r.witness.ops_replayed, kh.ops.size());
      EXPECT_GT(r.keys, 0u);
      EXPECT_FALSE(r.search);
    }
}

// A planted wrong search fails the rule's order at that op, on its key only, and
// the search on that key finds no linearization either: not linearizable, with
// the search's counterexample on that key.
TEST(KeyedCheck, WrongSearchResultIsNotLinearizable) {
  KeyHistory kh = generated("map", 200000, 256, 4096, 9);
  const auto planted = plant_wrong_search(kh, kh.ops.size() / 2);
  ASSERT_TRUE(planted);
  const KeyedCheckResult r = agree(kh, /*search=*/false);
  ASSERT_TRUE(r.witness.violation);
  EXPECT_EQ(r.witness.violation->op, planted->op);
  EXPECT_EQ(r.failing_keys, std::vector<int64_t>{planted->key});
  ASSERT_TRUE(r.search);
  EXPECT_EQ(r.verdict, Verdict::NotLinearizable);
  EXPECT_NE(std::find(r.search->stuck_ops.begin(), r.search->stuck_ops.end(), planted->op), r.search->stuck_ops.end())
      << r.search->message;
  // The failing key's sub-history alone is what the search judged.
  const History sub = keys_sub_history(kh, {planted->key});
  EXPECT_EQ(r.failing_ops, sub.ops.size());
  EXPECT_EQ(check_search(sub).verdict, Verdict::NotLinearizable);
}

// A search whose lp was moved before the update it saw: the rule's order fails
// there, but the history is linearizable by other points.
TEST(KeyedCheck, EarlyLpIsLinearizableByOtherPoints) {
  for (const char* model : {"map", "set"}) {
    SCOPED_TRACE(model);
    KeyHistory kh = generated(model, 200000, 256, 256, 3);
    const auto planted = plant_early_lp(kh, kh.ops.size() / 3);
    ASSERT_TRUE(planted);
    EXPECT_NO_THROW(check_events(kh.events, kh.source));
    const KeyedCheckResult r = agree(kh, /*search=*/false);
    ASSERT_TRUE(r.witness.violation);
    EXPECT_EQ(r.witness.violation->kind, WitnessViolation::Kind::WrongResult);
    EXPECT_EQ(r.witness.violation->op, planted->op);
    EXPECT_EQ(r.failing_keys, std::vector<int64_t>{planted->key});
    ASSERT_TRUE(r.search);
    EXPECT_EQ(r.verdict, Verdict::Linearizable);
    // The witness alone (--method witness) reports the rule's failure.
    EXPECT_EQ(keyed(kh, 2, /*decide=*/false).verdict, Verdict::NotLinearizable);
  }
}

// Multimap: search answers the least recently inserted pair, delete removes it,
// searchall in any order; duplicates of one value.
TEST(KeyedCheck, MultimapSemantics) {
  const auto h = [](bool right) {
    return HistoryBuilder("multimap", Value::object(), "explicit")
        .op(0, 1, 3, "insert", L({1, 10}), N()).lp(0, 2)
        .op(1, 4, 6, "insert", L({1, 20}), N()).lp(1, 5)
        .op(2, 7, 9, "insert", L({1, 10}), N()).lp(2, 8)
        .op(3, 10, 12, "searchall", L({1}), L({10, 20, 10})).lp(3, 11)
        .op(4, 13, 15, "search", L({1}), I(10)).lp(4, 14)
        .op(5, 16, 18, "delete", L({1}), N()).lp(5, 17)
        .op(6, 19, 21, "search", L({1}), I(right ? 20 : 10)).lp(6, 20)
        .op(7, 22, 24, "searchall", L({1}), L({10, 20})).lp(7, 23)
        .op(8, 25, 27, "deleteall", L({1}), N()).lp(8, 26)
        .op(9, 28, 30, "search", L({1}), N()).lp(9, 29)
        .build();
  };
  EXPECT_EQ(agree(to_key_history(h(true))).verdict, Verdict::Linearizable);
  const KeyedCheckResult r = agree(to_key_history(h(false)));
  EXPECT_EQ(r.verdict, Verdict::NotLinearizable);
  EXPECT_EQ(r.witness.violation->op, 6);
}

// Two lp events of one op (a recorder that took two tickets) break the explicit
// rule: its key goes to the search, which decides without points.
TEST(KeyedCheck, TwoLpsOfOneOp) {
  const History h = HistoryBuilder("map", Value::object(), "explicit")
                        .op(0, 1, 5, "replace", L({1, 10}), N()).lp(0, 2).lp(0, 4)
                        .op(1, 6, 8, "search", L({1}), I(10)).lp(1, 7)
                        .op(2, 9, 11, "search", L({2}), N()).lp(2, 10)
                        .build();
  const KeyedCheckResult r = agree(to_key_history(h));
  EXPECT_EQ(r.witness.violation->kind, WitnessViolation::Kind::ExtraPoint);
  EXPECT_EQ(r.failing_keys, std::vector<int64_t>{1});
  EXPECT_EQ(r.verdict, Verdict::Linearizable);
}

TEST(KeyedCheck, NotApplicable) {
  // An op the model does not have: the generic path names it.
  const History misfit = HistoryBuilder("map", Value::object(), "explicit")
                             .op(0, 1, 3, "insert", L({1, 10}), N()).lp(0, 2).build();
  const KeyedCheckResult a = keyed(to_key_history(misfit), 1);
  EXPECT_FALSE(a.applicable);
  EXPECT_NE(a.why.find("op 0 does not fit model map"), std::string::npos) << a.why;
  // Keys over the whole 64-bit range do not pack beside a position.
  const History wide = HistoryBuilder("set", Value::object(), "explicit")
                           .op(0, 1, 3, "insert", L({INT64_MIN}), N()).lp(0, 2)
                           .op(1, 4, 6, "insert", L({INT64_MAX}), N()).lp(1, 5)
                           .build();
  const KeyedCheckResult b = keyed(to_key_history(wide), 1);
  EXPECT_FALSE(b.applicable);
  EXPECT_NE(b.why.find("keys span more than"), std::string::npos) << b.why;
  EXPECT_THROW(keyed(to_key_history(HistoryBuilder("register").build()), 1), FormatError);
}

// ---- random small histories, damaged (RapidCheck) -----------------------------------

// A small generated history and one damage: a result changed, two lp events
// swapped (when both stay inside their ops), an lp removed, or one added.
KeyHistory damaged() {
  const std::string model = *rc::gen::element<std::string>("map", "set", "multimap");
  KeyHistory kh = generated(model, *rc::gen::inRange<size_t>(1, 24), *rc::gen::inRange(1, 5),
                            *rc::gen::inRange<uint64_t>(1, 4), *rc::gen::arbitrary<uint64_t>());
  for (Event& e : kh.events) e.t *= 2;  // room for an added lp
  for (KeyOp& o : kh.ops) o.inv_t *= 2, o.ret_t *= 2;
  std::mt19937_64 rng(*rc::gen::arbitrary<uint64_t>());
  const auto pick_op = [&] { return rng() % kh.ops.size(); };
  switch (*rc::gen::inRange(0, 5)) {
    case 0: break;  // none
    case 1: {       // a result
      KeyOp& o = kh.ops[pick_op()];
      if (o.res_kind == KeyOp::kValueResult || o.res_kind == KeyOp::kBoolResult) {
        kh.keys[o.res_off] = o.res_kind == KeyOp::kBoolResult ? !kh.keys[o.res_off] : kh.keys[o.res_off] + 1;
      } else if (o.res_kind == KeyOp::kNullResult && kh.fn_name(o) == "search") {
        o.res_kind = KeyOp::kValueResult;
        o.res_off = kh.keys.size();
        o.res_len = 1;
        kh.keys.push_back(static_cast<int64_t>(rng() % 3));
      } else if (o.res_kind == KeyOp::kKeysResult && o.res_len > 0) {
        --o.res_len;
      }
      RC_TAG("result");
      break;
    }
    case 2: {  // two lps swapped
      std::vector<size_t> lps;
      for (size_t i = 0; i < kh.events.size(); ++i)
        if (kh.events[i].kind == EventKind::Lp) lps.push_back(i);
      if (lps.size() < 2) break;
      Event &a = kh.events[lps[rng() % lps.size()]], &b = kh.events[lps[rng() % lps.size()]];
      std::swap(a.op, b.op);
      std::swap(a.actor, b.actor);
      try {
        check_events(kh.events, kh.source);
        RC_TAG("lps swapped");
      } catch (const FormatError&) {  // an lp outside its op: undo
        std::swap(a.op, b.op);
        std::swap(a.actor, b.actor);
      }
      break;
    }
    case 3: {  // an lp removed
      std::vector<size_t> lps;
      for (size_t i = 0; i < kh.events.size(); ++i)
        if (kh.events[i].kind == EventKind::Lp) lps.push_back(i);
      if (lps.empty()) break;
      kh.events.erase(kh.events.begin() + static_cast<ptrdiff_t>(lps[rng() % lps.size()]));
      RC_TAG("lp removed");
      break;
    }
    case 4: {  // a second lp, just after the inv
      const KeyOp& o = kh.ops[pick_op()];
      kh.events.push_back(Event{o.inv_t + 1, EventKind::Lp, o.id, o.actor, 0, 0});
      std::sort(kh.events.begin(), kh.events.end(), [](const Event& x, const Event& y) { return x.t < y.t; });
      RC_TAG("lp added");
      break;
    }
  }
  return kh;
}

RC_GTEST_PROP(KeyedCheckProp, AgreesWithTheGenericCheckers, ()) {
  const KeyHistory kh = damaged();
  RC_PRE(kh.ops.size() > 0);
  const KeyedCheckResult r = agree(kh);
  RC_TAG(std::string("rule: ") + to_string(r.witness.verdict), to_string(r.verdict));
  RC_ASSERT(!::testing::Test::HasFailure());
}

// A history recorded by key clocks (t orders each key's events; keys only by
// launch) is judged key by key as any other, and the search on the whole history
// agrees (linearizability is local): a search of key 5 that still finds 50 after
// the delete's ret on the same clock is a violation, and is one whatever key 9's
// ops, interleaved by ticket, do.
TEST(KeyedCheck, KeyClockHistoryIsJudgedByKey) {
  auto record = [](uint32_t first, uint32_t fn, uint32_t key, uint32_t value, uint32_t args_len, bool has_res,
                   uint32_t res) {
    return KeyClockRecord{first, first + 1, first + 2, fn, {key, value}, res,
                          key_clock_shape(args_len, has_res, !has_res, 0)};
  };
  for (const bool stale : {true, false}) {
    const std::vector<KeyClockRecord> records = {
        record(1, 0, 5, 50, 2, false, 0),      // replace(5, 50)
        record(4, 1, 5, 0, 1, false, 0),       // delete(5)
        record(7, 2, 5, 0, 1, stale, 50),      // search(5): 50 (stale) or null
        record(1, 2, 9, 0, 1, false, 0),       // search(9): null
        record(4, 0, 9, 90, 2, false, 0)};     // replace(9, 90)
    Header header;
    header.model = "map";
    header.lp_rule = "explicit";
    KeyHistory kh = assemble_key_clock_history(records, 8, header, {"replace", "delete", "search"}, "<gpu>");
    apply_result_shapes(kh, {{"search", ResultShape::Scalar}});
    const KeyedCheckResult r = keyed(kh, 2);
    ASSERT_TRUE(r.applicable) << r.why;
    EXPECT_EQ(r.verdict, stale ? Verdict::NotLinearizable : Verdict::Linearizable);
    EXPECT_EQ(r.failing_keys.size(), stale ? 1u : 0u);
    EXPECT_EQ(check_search(expand(kh)).verdict, r.verdict);
  }
}

// The history as a recorder with no lp tickets writes it (warp rounds,
// histories/key_clock_records.h): no lp events, no lp_rule.
KeyHistory without_lps(KeyHistory kh) {
  kh.events.erase(std::remove_if(kh.events.begin(), kh.events.end(), [](const Event& e) { return e.kind == EventKind::Lp; }),
                  kh.events.end());
  kh.header.lp_rule.clear();
  return kh;
}

// Without lp events each key's ops are replayed in the order of their rets and the
// keys where that fails are searched: the verdict is the search's on the whole
// history, on generated histories of every keyed model, shared keys and fresh ones.
TEST(KeyedCheck, WithoutLpsTheRetOrderAndTheSearchDecide) {
  for (const char* model : {"map", "set", "multimap"})
    for (uint64_t keys : {uint64_t{8}, uint64_t{100000}}) {
      SCOPED_TRACE(std::string(model) + ", " + std::to_string(keys) + " keys");
      const KeyHistory kh = without_lps(generated(model, 3000, 16, keys, 11));
      ASSERT_NO_THROW(check_events(kh.events, kh.source));
      const KeyedCheckResult one = keyed(kh, 1), many = keyed(kh, 3);
      ASSERT_TRUE(one.applicable) << one.why;
      EXPECT_EQ(one.verdict, Verdict::Linearizable);
      EXPECT_EQ(check_search(expand(kh)).verdict, Verdict::Linearizable);
      EXPECT_EQ(many.verdict, one.verdict);
      EXPECT_EQ(many.failing_keys, one.failing_keys);
      EXPECT_GT(one.keys, 0u);
      // Where the rets' order failed, the search placed those keys' ops.
      EXPECT_EQ(one.search.has_value(), !one.failing_keys.empty());
    }
}

// A planted wrong search is still caught without lps, on its key.
TEST(KeyedCheck, WithoutLpsAWrongSearchIsNotLinearizable) {
  KeyHistory kh = generated("map", 20000, 64, 2048, 9);
  const auto planted = plant_wrong_search(kh, kh.ops.size() / 2);
  ASSERT_TRUE(planted);
  kh = without_lps(std::move(kh));
  const KeyedCheckResult r = keyed(kh, 2);
  EXPECT_EQ(r.verdict, Verdict::NotLinearizable);
  EXPECT_NE(std::find(r.failing_keys.begin(), r.failing_keys.end(), planted->key), r.failing_keys.end());
  ASSERT_TRUE(r.search);
  EXPECT_EQ(check_search(keys_sub_history(kh, {planted->key})).verdict, Verdict::NotLinearizable);
}

// Warp-round records (one clock, lp_t 0): a search that overlaps a replace of its
// key and missed it fails the rets' order (the replace returned first) but is
// linearizable before it; a search that still finds a value after the delete of it
// returned is not linearizable. Without the search (witness only) there is no
// verdict to give: refused, naming why.
TEST(KeyedCheck, WarpRoundHistoryIsOrderedByItsRets) {
  auto record = [](uint32_t inv, uint32_t ret, uint32_t fn, uint32_t key, uint32_t value, uint32_t args_len,
                   bool has_res, uint32_t res) {
    return KeyClockRecord{inv, 0, ret, fn, {key, value}, res, key_clock_shape(args_len, has_res, !has_res, 0)};
  };
  Header header;
  header.model = "map";
  const std::vector<std::string> fns = {"replace", "delete", "search"};
  {
    const std::vector<KeyClockRecord> records = {record(1, 33, 0, 5, 50, 2, false, 0),  // replace(5, 50)
                                                 record(2, 34, 2, 5, 0, 1, false, 0)};  // search(5): null, concurrent
    KeyHistory kh = assemble_key_clock_history(records, 0, header, fns, "<gpu>");
    apply_result_shapes(kh, {{"search", ResultShape::Scalar}});
    const KeyedCheckResult r = keyed(kh, 2);
    ASSERT_TRUE(r.applicable) << r.why;
    EXPECT_EQ(r.verdict, Verdict::Linearizable);
    EXPECT_EQ(r.failing_keys, std::vector<int64_t>{5});
    ASSERT_TRUE(r.witness.violation);
    EXPECT_NE(r.witness.violation->message.find("ret order"), std::string::npos) << r.witness.violation->message;
    EXPECT_THROW(keyed(kh, 2, /*decide=*/false), FormatError);
  }
  {
    const std::vector<KeyClockRecord> records = {record(1, 33, 0, 5, 50, 2, false, 0),    // replace(5, 50)
                                                 record(65, 97, 1, 5, 0, 1, false, 0),    // delete(5), after it
                                                 record(129, 161, 2, 5, 0, 1, true, 50)};  // search(5): 50, stale
    KeyHistory kh = assemble_key_clock_history(records, 0, header, fns, "<gpu>");
    apply_result_shapes(kh, {{"search", ResultShape::Scalar}});
    const KeyedCheckResult r = keyed(kh, 2);
    EXPECT_EQ(r.verdict, Verdict::NotLinearizable);
    EXPECT_EQ(check_search(expand(kh)).verdict, Verdict::NotLinearizable);
  }
}

// A "per-key" history with no lp events (key-clock records with lp_t 0, as the
// retired key-round recorder wrote them; `gpulin check` still reads such a file):
// tickets of different keys' clocks say nothing of each other, so only each key's
// order binds. A search of key 5 that returns the value a delete of it removed, after that
// delete's ret on key 5's clock, is not linearizable; the same search tickets on
// key 9, whose clock's tickets overlap key 5's, are judged against key 9 alone.
TEST(KeyedCheck, PerKeyHistoryWithoutLpsIsOrderedByEachKeysClock) {
  auto record = [](uint32_t inv, uint32_t ret, uint32_t fn, uint32_t key, uint32_t value, uint32_t args_len,
                   bool has_res, uint32_t res) {
    return KeyClockRecord{inv, 0, ret, fn, {key, value}, res, key_clock_shape(args_len, has_res, !has_res, 0)};
  };
  ASSERT_NE(key_clock_of(5, kKeyClockMaxBits), key_clock_of(9, kKeyClockMaxBits));
  Header header;
  header.model = "map";
  const std::vector<std::string> fns = {"replace", "delete", "search"};
  const std::vector<KeyClockRecord> records = {record(1, 2, 0, 5, 50, 2, false, 0),   // replace(5, 50)
                                               record(3, 4, 1, 5, 0, 1, false, 0),    // delete(5), after it
                                               record(5, 6, 2, 5, 0, 1, true, 50),    // search(5): 50, stale
                                               record(1, 2, 0, 9, 90, 2, false, 0),   // replace(9, 90)
                                               record(3, 4, 2, 9, 0, 1, true, 90)};   // search(9): 90
  KeyHistory kh = assemble_key_clock_history(records, kKeyClockMaxBits, header, fns, "<gpu>");
  EXPECT_TRUE(std::any_of(kh.header.extra.begin(), kh.header.extra.end(),
                          [](const auto& f) { return f.first == kOrderField && f.second == kOrderPerKey; }));
  apply_result_shapes(kh, {{"search", ResultShape::Scalar}});
  const KeyedCheckResult r = keyed(kh, 2);
  ASSERT_TRUE(r.applicable) << r.why;
  EXPECT_EQ(r.verdict, Verdict::NotLinearizable);
  EXPECT_EQ(r.failing_keys, std::vector<int64_t>{5});
  EXPECT_EQ(check_search(expand(kh)).verdict, Verdict::NotLinearizable);
}

// Published-clock records (KeyClockMode::kPublished): replace(5, 50) published at
// G 0, then delete(5) (its round loaded G 1) published at G 1, then a search of key
// 5 that returns the deleted 50. If the search's round loaded G 2 (after the
// delete's publication), the delete happened before it: not linearizable. If it
// loaded G 1, nothing orders it after the delete (it may have read first):
// linearizable. The check is only as fine as the ticks, never finer than the run.
TEST(KeyedCheck, APublishedClockOrdersOnlyWhatATickSeparates) {
  auto verdict_with_search_inv = [](uint32_t search_inv) {
    auto rec = [](uint32_t inv, uint32_t ret, uint32_t fn, uint32_t args_len, bool has_res, uint32_t res) {
      return PublishedRecord{inv, ret, res, published_shape(args_len, has_res, !has_res, fn, 2, 0)};
    };
    const std::vector<PublishedRecord> records = {rec(0, 1, 0, 2, false, 0),            // replace(5, 50)
                                                  rec(1, 2, 1, 1, false, 0),            // delete(5)
                                                  rec(search_inv, 3, 2, 1, true, 50)};  // search(5): 50
    const std::vector<PublishedCall> calls = {{5, 50}, {5, 0}, {5, 0}};
    // The ticker saw multiprocessor 2's clock at 1, 2 and 3, bumping G from 0, 1, 2.
    const std::vector<PublishedTick> ticks = {{2, 1, 0, 0}, {2, 2, 1, 0}, {2, 3, 2, 0}};
    Header header;
    header.model = "map";
    KeyHistory kh = assemble_published_history(records, calls, ticks, false, header, {"replace", "delete", "search"},
                                               "<gpu>");
    apply_result_shapes(kh, {{"search", ResultShape::Scalar}});
    const KeyedCheckResult r = keyed(kh, 2);
    EXPECT_TRUE(r.applicable) << r.why;
    EXPECT_EQ(check_search(expand(kh)).verdict, r.verdict);
    return r.verdict;
  };
  EXPECT_EQ(verdict_with_search_inv(2), Verdict::NotLinearizable);
  EXPECT_EQ(verdict_with_search_inv(1), Verdict::Linearizable);
}

namespace published_recordings {

// A generated published-clock recording as the host checks it (slab_stress's host path).
KeyedCheckResult check_recording(const PublishedRecording& rec, const std::string& model) {
  Header h;
  h.model = model;
  KeyHistory kh = assemble_published_history(rec.records, rec.calls, rec.ticks, false, h, rec.fn_names, "<gen>");
  apply_result_shapes(kh, {{"search", ResultShape::Scalar}, {"contains", ResultShape::Bool}});
  check_events(kh.events, kh.source);
  return check_keyed_linear(kh);
}

// The recordings the GPU check's tests feed it: with every answer the model's,
// linearizable (though ret order fails on some keys: rounds overlap); with wrong
// answers planted, some are not, and the search says so.
TEST(KeyedCheck, GeneratedPublishedRecordingsAreJudgedByTheirAnswers) {
  int failed_ret_order = 0, not_linearizable = 0;
  for (bool map : {true, false})
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      PublishedRecordingOptions o;
      o.map = map, o.seed = seed, o.ops = 600, o.pending = 0.01;
      const KeyedCheckResult ok = check_recording(generate_published_recording(o), map ? "map" : "set");
      ASSERT_TRUE(ok.applicable) << ok.why;
      EXPECT_EQ(ok.verdict, Verdict::Linearizable) << "seed " << seed;
      failed_ret_order += !ok.failing_keys.empty();
      o.wrong = 0.02;
      const KeyedCheckResult bad = check_recording(generate_published_recording(o), map ? "map" : "set");
      not_linearizable += bad.verdict == Verdict::NotLinearizable;
    }
  EXPECT_GT(failed_ret_order, 0);
  EXPECT_GT(not_linearizable, 10);
}

}  // namespace published_recordings

}  // namespace
}  // namespace gpulin
