// The schedule text form: round trips and rejection of malformed text.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/schedule_string.h"

namespace gpulin::sim {
namespace {

TEST(ScheduleString, KnownEncoding) {
  std::vector<uint32_t> p(12, 0);
  p.insert(p.end(), 3, 1);
  p.push_back(0);
  EXPECT_EQ(encode_picks(p), "0*12.1*3.0");
  EXPECT_EQ(decode_picks("0*12.1*3.0"), p);
  EXPECT_EQ(encode_picks({}), "");
  EXPECT_TRUE(decode_picks("").empty());
  EXPECT_EQ(decode_picks("63"), std::vector<uint32_t>{63});
}

// A run length is refused past kMaxPicks decisions in all, before anything is
// allocated ("0*1073741824" once allocated 4 GiB until it was killed).
TEST(ScheduleString, HugeRunsAreRefused) {
  EXPECT_THROW(decode_picks("0*1073741824"), std::invalid_argument);
  EXPECT_THROW(decode_picks("0*18446744073709551615"), std::invalid_argument);
  EXPECT_THROW(decode_picks("1*1000.0*" + std::to_string(kMaxPicks)), std::invalid_argument);
  EXPECT_THROW(decode_picks("64"), std::invalid_argument);
  EXPECT_THROW(decode_picks("0*0"), std::invalid_argument);
  EXPECT_EQ(decode_picks("1*1000.0*1000").size(), 2000u);
}

RC_GTEST_PROP(ScheduleString, RoundTrip, ()) {
  // Long runs are likely: draw from few actors.
  const auto actors = *rc::gen::inRange<uint32_t>(1, 65);
  const auto picks = *rc::gen::container<std::vector<uint32_t>>(rc::gen::inRange<uint32_t>(0, actors));
  const std::string text = encode_picks(picks);
  RC_ASSERT(decode_picks(text) == picks);
  // The encoding is canonical: re-encoding gives the same text.
  RC_ASSERT(encode_picks(decode_picks(text)) == text);
}

RC_GTEST_PROP(ScheduleString, RoundTripLongRuns, ()) {
  const auto runs = *rc::gen::container<std::vector<std::pair<uint32_t, uint32_t>>>(
      rc::gen::pair(rc::gen::inRange<uint32_t>(0, 64), rc::gen::inRange<uint32_t>(1, 5000)));
  std::vector<uint32_t> picks;
  for (auto [a, n] : runs) picks.insert(picks.end(), n, a);
  RC_ASSERT(decode_picks(encode_picks(picks)) == picks);
}

// A choice of a value (kChoiceMark) is written rN, in runs like a pick.
TEST(ScheduleString, ChoicesAreWrittenWithAnR) {
  const std::vector<uint32_t> picks = {0, 0, 0, 0, 1u | kChoiceMark, 1u | kChoiceMark, 0u | kChoiceMark, 1};
  EXPECT_EQ(encode_picks(picks), "0*4.r1*2.r0.1");
  EXPECT_EQ(decode_picks("0*4.r1*2.r0.1"), picks);
  EXPECT_THROW(decode_picks("r64"), std::invalid_argument);
  EXPECT_THROW(decode_picks("rr1"), std::invalid_argument);
  EXPECT_THROW(decode_picks("r"), std::invalid_argument);
  EXPECT_THROW(decode_picks("0.r"), std::invalid_argument);
}

RC_GTEST_PROP(ScheduleString, RoundTripWithChoices, ()) {
  const auto picks = *rc::gen::container<std::vector<uint32_t>>(rc::gen::map(
      rc::gen::pair(rc::gen::inRange<uint32_t>(0, 64), rc::gen::arbitrary<bool>()),
      [](std::pair<uint32_t, bool> p) { return p.first | (p.second ? kChoiceMark : 0u); }));
  RC_ASSERT(decode_picks(encode_picks(picks)) == picks);
}

TEST(ScheduleString, MalformedTextThrowsInvalidArgument) {
  for (const char* bad : {"x", "0*", "*3", "0**2", ".0", "0..1", "0,1", "0 1", " 0", "0*x", "-1", "0*-1", "64",
                          "1000", "0*2000000000", "1.a", "0*3*4", "99999999999999999999999"}) {
    EXPECT_THROW(decode_picks(bad), std::invalid_argument) << "'" << bad << "'";
  }
}

TEST(ScheduleString, NonCanonicalSeparatorsAndEmptyRunsAreRejected) {
  // encode_picks never writes these; a trailing '.' or a zero-length run is not a
  // schedule in the "A[*N].A[*N]..." grammar (schedule_string.h).
  for (const char* bad : {"0.", "0.1.", "0*0", "1*0.0"}) {
    EXPECT_THROW(decode_picks(bad), std::invalid_argument) << "'" << bad << "'";
  }
}

}  // namespace
}  // namespace gpulin::sim
