// IdIndex against a std::map: dense id ranges (a vector by id) and sparse ones
// (the open-addressing table, grown past the count it was sized for), ids set
// twice, ids never set.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <map>
#include <vector>

#include "histories/id_index.h"

namespace gpulin {
namespace {

RC_GTEST_PROP(IdIndex, FindsWhatWasSetLast, ()) {
  const bool sparse = *rc::gen::arbitrary<bool>();
  const auto ids = *rc::gen::container<std::vector<int64_t>>(rc::gen::inRange<int64_t>(-40, 40));
  auto id_of = [&](int64_t x) { return sparse ? x * (int64_t{1} << 20) : x; };
  int64_t lo = 0, hi = -1;
  for (size_t i = 0; i < ids.size(); ++i) {
    lo = i == 0 ? id_of(ids[i]) : std::min(lo, id_of(ids[i]));
    hi = i == 0 ? id_of(ids[i]) : std::max(hi, id_of(ids[i]));
  }
  // The count given may be short: the table grows.
  IdIndex index(lo, hi, *rc::gen::inRange<size_t>(0, ids.size() + 1));
  std::map<int64_t, uint32_t> want;
  for (size_t i = 0; i < ids.size(); ++i) {
    index.set(id_of(ids[i]), static_cast<uint32_t>(i));
    want[id_of(ids[i])] = static_cast<uint32_t>(i);
  }
  for (int64_t x = -41; x <= 41; ++x) {
    const auto it = want.find(id_of(x));
    RC_ASSERT(index.find(id_of(x)) == (it == want.end() ? IdIndex::kAbsent : it->second));
  }
}

TEST(IdIndex, EmptyFindsNothing) {
  const std::vector<int64_t> none;
  const IdIndex index = index_ids(none, [](int64_t x) { return x; });
  EXPECT_EQ(index.find(0), IdIndex::kAbsent);
  EXPECT_EQ(index.find(int64_t{3} << 40), IdIndex::kAbsent);
}

}  // namespace
}  // namespace gpulin
