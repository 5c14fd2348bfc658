// Keys of the recorded key type, whole, from the recorders' buffers to a history
// file and back: the device recorder's 64-bit key words (assemble_device_history,
// what DeviceRecorder64::download runs on the host) and the host recorder with
// 64-bit keys. Keys above 2^32 must survive every step; a key above 2^63 - 1, which
// no history integer holds (history-format.md: signed 64-bit), is refused with
// its op named, never wrapped.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "histories/device_recorder.h"
#include "histories/jsonl_reader.h"
#include "histories/jsonl_writer.h"
#include "histories/key_history.h"
#include "histories/key_history_reader.h"
#include "histories/recorder.h"
#include "test_util.h"

namespace gpulin {
namespace {

// Keys above 2^32 that a narrowing to 32 bits would change: the two share their low
// word (a truncation makes them equal), the largest history integer, and one with
// every byte different.
constexpr uint64_t kAbove32 = (uint64_t{1} << 32) + 7;
constexpr uint64_t kSameLowWord = (uint64_t{0x2345} << 40) + 7;
constexpr uint64_t kLargest = uint64_t{INT64_MAX};
constexpr uint64_t kMixed = 0x123456789abcdef0ull;

Header pq_header() {
  Header h;
  h.model = "pq-batch";
  h.params = Value::object({{"k", Value::integer(4)}});
  h.lp_rule = "root-release";
  return h;
}

// Two actors as the device recorder leaves them: actor 0 inserts three keys (its
// key buffer from 0), actor 1 deletes and gets them back ascending (its buffer
// from key_cap), each holding the root in between.
constexpr uint32_t kKeyCap = 4;
std::vector<DeviceEvent> two_ops() {
  // {t, op, node, kind (0 inv, 1 ret, 2 acq, 3 rel), fn, key_off, key_len, is_null, actor}; not in t order.
  return {DeviceEvent{5, 1, 0, 0, 1, 0, 0, 0, 1}, DeviceEvent{1, 0, 0, 0, 0, 0, 3, 0, 0},
          DeviceEvent{2, 0, 1, 2, 0, 0, 0, 0, 0}, DeviceEvent{3, 0, 1, 3, 0, 0, 0, 0, 0},
          DeviceEvent{4, 0, 0, 1, 0, 0, 0, 1, 0}, DeviceEvent{6, 1, 1, 2, 0, 0, 0, 0, 1},
          DeviceEvent{7, 1, 1, 3, 0, 0, 0, 0, 1}, DeviceEvent{8, 1, 0, 1, 0, 0, 3, 0, 1}};
}
template <class W>
std::vector<W> buffers(W a, W b, W c) {
  std::vector<W> keys(2 * kKeyCap, W{0xdd});  // unused slots: never read
  keys[0] = a, keys[1] = b, keys[2] = c;                      // actor 0: the insert's args
  keys[kKeyCap] = b, keys[kKeyCap + 1] = c, keys[kKeyCap + 2] = a;  // actor 1: the delete's result
  return keys;
}

std::vector<int64_t> span_keys(const KeyHistory& h, KeySpan s) { return {h.begin_of(s), h.end_of(s)}; }
std::vector<int64_t> ints(const Value& v) { return v.to_ints(); }

TEST(DeviceKeys, SixtyFourBitKeysReachTheHistoryWhole) {
  const std::vector<uint64_t> keys = buffers(kLargest, kAbove32, kMixed);
  const KeyHistory h =
      assemble_device_history(two_ops(), keys, kKeyCap, pq_header(), {"ins", "del"}, "<key64 test>");
  ASSERT_EQ(h.ops.size(), 2u);
  const std::vector<int64_t> args = {int64_t(kLargest), int64_t(kAbove32), int64_t(kMixed)};
  const std::vector<int64_t> res = {int64_t(kAbove32), int64_t(kMixed), int64_t(kLargest)};
  EXPECT_EQ(span_keys(h, h.ops[0].args()), args);
  EXPECT_EQ(span_keys(h, h.ops[1].res()), res);

  // Through the JSON Lines text and both readers: the same integers, written in full.
  const std::string text = history_to_jsonl(expand(h));
  EXPECT_NE(text.find("[9223372036854775807,4294967303,1311768467463790320]"), std::string::npos) << text;
  const History back = read_history_text(text, "<key64 text>");
  ASSERT_EQ(back.ops.size(), 2u);
  EXPECT_EQ(ints(back.ops[0].args), args);
  ASSERT_TRUE(back.ops[1].res);
  EXPECT_EQ(ints(*back.ops[1].res), res);
  const KeyHistory keyed = read_key_history_text(text, "<key64 text>");
  EXPECT_EQ(span_keys(keyed, keyed.ops[0].args()), args);
  EXPECT_EQ(span_keys(keyed, keyed.ops[1].res()), res);
}

TEST(DeviceKeys, KeysSharingTheirLowWordStayApart) {
  const std::vector<uint64_t> keys = buffers(kAbove32, kSameLowWord, uint64_t{7});
  const KeyHistory h = assemble_device_history(two_ops(), keys, kKeyCap, pq_header(), {"ins", "del"}, "<key64 test>");
  const std::vector<int64_t> args = span_keys(h, h.ops[0].args());
  EXPECT_EQ(args, (std::vector<int64_t>{int64_t(kAbove32), int64_t(kSameLowWord), 7}))
      << "three keys with the low word 7: a 32-bit narrowing anywhere would make them one";
}

TEST(DeviceKeys, ThirtyTwoBitWordsAreUnchanged) {
  const std::vector<uint32_t> keys = buffers<uint32_t>(0xfffffffeu, 5, 7);
  const KeyHistory h = assemble_device_history(two_ops(), keys, kKeyCap, pq_header(), {"ins", "del"}, "<key32 test>");
  EXPECT_EQ(span_keys(h, h.ops[0].args()), (std::vector<int64_t>{4294967294, 5, 7}));
  EXPECT_EQ(span_keys(h, h.ops[1].res()), (std::vector<int64_t>{5, 7, 4294967294}));
}

TEST(DeviceKeys, AKeyAboveTheLargestHistoryIntegerIsRefusedNotWrapped) {
  // The delete returned 2^63 (as a heap's MAX_VALUE would, 2^64 - 1): a history
  // integer cannot hold it, and -2^63 would be a different key.
  const std::vector<uint64_t> keys = buffers(kAbove32, kMixed, uint64_t{1} << 63);
  EXPECT_TRUE(test::throws_format_error(
      [&] { assemble_device_history(two_ops(), keys, kKeyCap, pq_header(), {"ins", "del"}, "<key64 test>"); }, 0,
      "(op 0, actor 0): key 9223372036854775808 is above 2^63 - 1"));
  const std::vector<uint64_t> max_value = buffers(kAbove32, kMixed, ~uint64_t{0});
  EXPECT_TRUE(test::throws_format_error(
      [&] { assemble_device_history(two_ops(), max_value, kKeyCap, pq_header(), {"ins", "del"}, "<key64 test>"); },
      0, "key 18446744073709551615 is above 2^63 - 1"));
}

TEST(DeviceKeys, HostRecorderKeepsSixtyFourBitKeys) {
  HostRecorder rec({"ins", "del"});
  const uint64_t in[] = {kMixed, kAbove32};
  const uint64_t out[] = {kAbove32, kMixed};
  rec.inv(0, 0, 0, in, 2);
  rec.hold(EventKind::Acq, 0, 0, 1);
  rec.hold(EventKind::Rel, 0, 0, 1);
  rec.ret<uint64_t>(0, 0, nullptr, 0, true);
  rec.inv<uint64_t>(1, 1, 1, nullptr, 0);
  rec.hold(EventKind::Acq, 1, 1, 1);
  rec.hold(EventKind::Rel, 1, 1, 1);
  rec.ret(1, 1, out, 2, false);
  const KeyHistory h = rec.to_key_history(pq_header(), "<host recorder>");
  EXPECT_EQ(span_keys(h, h.ops[0].args()), (std::vector<int64_t>{int64_t(kMixed), int64_t(kAbove32)}));
  EXPECT_EQ(span_keys(h, h.ops[1].res()), (std::vector<int64_t>{int64_t(kAbove32), int64_t(kMixed)}));

  const uint64_t too_big = uint64_t{1} << 63;
  try {
    rec.inv(2, 0, 0, &too_big, 1);
    ADD_FAILURE() << "a key of 2^63 was recorded";
  } catch (const std::range_error& e) {
    EXPECT_NE(std::string(e.what()).find("9223372036854775808 is above 2^63 - 1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpulin
