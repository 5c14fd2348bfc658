// The bucket heap's partitions (structures/bucket_heap/level_ops.h) against a
// reference written from §2.1: DELETEDUPLICATES keeps one element a value (the
// DELETE where the value has one, unless at the last level; else the copy of
// smallest priority), the split sends DELETEs and priorities past the threshold
// down, and the one partition above the last level does both. RESOLVE's SELECT,
// when too many stay, relies on the two parts merged by value being exactly
// DELETEDUPLICATES' output: checked here too.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <vector>

#include "structures/bucket_heap/level_ops.h"
#include "structures/bucket_heap/resolve_in_place.h"

namespace gpulin::bucket_heap {
namespace {

using P = Policy<Variant::Fixed>;

// A block actor as serial loops: every collective level_ops.h calls.
struct LoopContext {
  template <class F>
  void parallel_for(uint32_t n, F&& f) {
    for (uint32_t i = 0; i < n; ++i) f(i);
  }
  template <class F>
  uint64_t sum_of(uint32_t n, F&& f) {
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n; ++i) sum += f(i);
    return sum;
  }
  template <class F, class Out>
  uint64_t exclusive_sum_of(uint32_t n, F&& value, Out out) {
    uint64_t run = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t v = value(i);
      out[i] = run;
      run += v;
    }
    return run;
  }
};

// A level's sorted array: values with one to four copies of random priorities,
// a DELETE (the last copy, it sorts last) among some of them.
std::vector<Element> level_array() {
  const auto values = *rc::gen::inRange<uint32_t>(0, 40);
  std::vector<Element> a;
  for (uint32_t v = 0; v < values; ++v) {
    if (*rc::gen::inRange(0, 3) == 0) continue;  // a value absent
    const auto copies = *rc::gen::inRange<uint32_t>(1, 5);
    const bool del = *rc::gen::inRange(0, 3) == 0;
    for (uint32_t c = 0; c < copies; ++c)
      a.push_back(make_element(v, del && c + 1 == copies ? kDel : *rc::gen::inRange<uint32_t>(0, 50)));
  }
  std::sort(a.begin(), a.end());
  return a;
}

std::vector<Element> reference_dedup(const std::vector<Element>& a, bool last_level) {
  std::vector<Element> out;
  for (size_t i = 0; i < a.size();) {
    size_t end = i;
    while (end + 1 < a.size() && value_of(a[end + 1]) == value_of(a[i])) ++end;
    if (!is_del(a[end])) out.push_back(a[i]);
    else if (!last_level) out.push_back(a[end]);
    i = end + 1;
  }
  return out;
}

RC_GTEST_PROP(BucketLevelOps, DeleteDuplicatesKeepsOneElementAValue, ()) {
  const std::vector<Element> a = level_array();
  const bool last_level = *rc::gen::arbitrary<bool>();
  const auto n = static_cast<uint32_t>(a.size());
  std::vector<Element> out(n, kNoElement);
  std::vector<uint64_t> places(n);
  LoopContext x;
  const uint32_t kept = delete_duplicates<LoopContext, P>(x, a.data(), n, out.data(), last_level, places.data());
  out.resize(kept);
  RC_ASSERT(out == reference_dedup(a, last_level));
}

RC_GTEST_PROP(BucketLevelOps, DedupAndSplitIsTheDedupThenTheSplit, ()) {
  const std::vector<Element> a = level_array();
  const auto n = static_cast<uint32_t>(a.size());
  // A threshold among the rank keys, or past all of them.
  const uint64_t th = *rc::gen::element(uint64_t{0}, rank_key(make_element(20, 25)), kNoThreshold);
  std::vector<Element> stay(n, kNoElement), down(n, kNoElement), stay2(n, kNoElement), down2(n, kNoElement);
  std::vector<uint64_t> places(n);
  LoopContext x;
  const Parts both = dedup_and_split<LoopContext, P>(x, a.data(), n, th, stay.data(), down.data(), places.data());
  stay.resize(both.first);
  down.resize(both.second);

  const std::vector<Element> deduped = reference_dedup(a, false);
  std::vector<Element> want_stay, want_down;
  for (Element e : deduped) (goes_down(e, th) ? want_down : want_stay).push_back(e);
  RC_ASSERT(stay == want_stay);
  RC_ASSERT(down == want_down);
  // split_by alone over the deduplicated array: the same parts.
  const Parts split = split_by(x, deduped.data(), static_cast<uint32_t>(deduped.size()), th, stay2.data(),
                               down2.data(), places.data());
  stay2.resize(split.first);
  down2.resize(split.second);
  RC_ASSERT(stay2 == want_stay);
  RC_ASSERT(down2 == want_down);
  // The parts merged by value are DELETEDUPLICATES' output (what SELECT runs over).
  std::vector<Element> merged;
  std::merge(stay.begin(), stay.end(), down.begin(), down.end(), std::back_inserter(merged));
  RC_ASSERT(merged == deduped);
}

// RESOLVE in place against the merge: B (one element a value, no DELETE, every rank
// key at or below th) and a short S of copies of B's values (at smaller or larger
// priorities), new values past th, DELETEs of values B does not hold, and now and
// then a new value at or below th or a DELETE of one B holds (which need the merge).
RC_GTEST_PROP(BucketLevelOps, ResolveInPlaceIsTheMergeWhereItMovesNothing, ()) {
  const uint64_t th = rank_key(make_element(0, 100));  // priorities up to 99 stay; 100 itself at value 0
  std::vector<Element> b;
  for (uint32_t v = 0; v < 60; ++v)
    if (*rc::gen::inRange(0, 2) == 0) b.push_back(make_element(v, *rc::gen::inRange<uint32_t>(0, 100)));
  const bool may_move = *rc::gen::inRange(0, 4) == 0;
  std::vector<Element> s;
  const auto ns = *rc::gen::inRange<uint32_t>(0, 12);
  for (uint32_t k = 0; k < ns; ++k) {
    const auto v = *rc::gen::inRange<uint32_t>(0, 60);
    const bool held = std::any_of(b.begin(), b.end(), [&](Element e) { return value_of(e) == v; });
    const int what = *rc::gen::inRange(0, 3);
    if (what == 0 && (!held || may_move)) s.push_back(make_element(v, kDel));
    else if (held || what == 1) s.push_back(make_element(v, *rc::gen::inRange<uint32_t>(held ? 0 : 101, 200)));
    else if (may_move) s.push_back(make_element(v, *rc::gen::inRange<uint32_t>(0, 100)));
  }
  std::sort(s.begin(), s.end());
  std::vector<Element> merged, want_stay, want_down;
  std::merge(b.begin(), b.end(), s.begin(), s.end(), std::back_inserter(merged));
  for (Element e : reference_dedup(merged, false)) (goes_down(e, th) ? want_down : want_stay).push_back(e);

  const auto nb = static_cast<uint32_t>(b.size()), n = static_cast<uint32_t>(s.size());
  std::vector<Element> bucket(b), down(n + 1, kNoElement);
  std::vector<uint64_t> looked(n + 1), places(n + 1);
  uint32_t down_n = 0;
  LoopContext x;
  const bool done =
      resolve_in_place<LoopContext, P>(x, bucket.data(), nb, s.data(), n, th, looked.data(), down.data(), places.data(), &down_n);
  RC_CLASSIFY(done, "in place");
  if (done) {
    RC_ASSERT(bucket == want_stay);
    down.resize(down_n);
    RC_ASSERT(down == want_down);
  } else {
    RC_ASSERT(bucket == b);  // nothing written
    // The merge moves something: a value of B goes, or one comes.
    std::vector<uint32_t> before, after;
    for (Element e : b) before.push_back(value_of(e));
    for (Element e : want_stay) after.push_back(value_of(e));
    RC_ASSERT(before != after);
  }
}

}  // namespace
}  // namespace gpulin::bucket_heap
