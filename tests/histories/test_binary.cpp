// The binary form: lossless both ways, and truncated or corrupt files are
// FormatErrors whose line is the record index + 1.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <fstream>

#include "gen_history.h"
#include "histories/binary_format.h"
#include "histories/jsonl_reader.h"
#include "histories/jsonl_writer.h"
#include "test_util.h"

namespace gpulin {
namespace {

using test::throws_format_error;

History example(const char* name) { return read_history_file(test::examples_dir() + "/" + name + ".jsonl"); }

// Offset of record i in the bytes of h.
size_t record_offset(const History& h, size_t i) { return 8 + 4 + header_to_json(h.header).size() + 16 + 40 * i; }

TEST(HistBinary, JsonlToBinaryToJsonlIsIdentical) {
  for (const char* name : {"pq_batch_linearizable", "pq_batch_not_linearizable", "register", "pending"}) {
    SCOPED_TRACE(name);
    const History h = example(name);
    const std::string path = test::temp_path(std::string(name) + ".bin");
    write_history_binary(path, h);
    EXPECT_TRUE(is_binary_history_file(path));
    const History back = read_history_binary(path);
    EXPECT_TRUE(test::same_history(h, back));
    EXPECT_EQ(history_to_jsonl(back), history_to_jsonl(h));
    EXPECT_EQ(back.source, path);
    EXPECT_TRUE(test::same_history(read_history_any(path), h));
  }
  const std::string jsonl = test::examples_dir() + "/pending.jsonl";
  EXPECT_FALSE(is_binary_history_file(jsonl));
  EXPECT_TRUE(test::same_history(read_history_any(jsonl), example("pending")));
}

TEST(HistBinary, LayoutAsDocumented) {
  const History h = example("pending");
  const std::string b = history_to_binary(h);
  EXPECT_EQ(b.substr(0, 8), "GPULINH1");
  const std::string header = header_to_json(h.header);
  EXPECT_EQ(static_cast<uint8_t>(b[8]), header.size());
  EXPECT_EQ(b.substr(12, header.size()), header);
  EXPECT_EQ(static_cast<uint8_t>(b[12 + header.size()]), h.events.size());
  // Record 2 is op 1's ret (t 3): t, op, actor, aux (pool offset), kind 1.
  const size_t r = record_offset(h, 2);
  EXPECT_EQ(static_cast<uint8_t>(b[r]), 3);
  EXPECT_EQ(static_cast<uint8_t>(b[r + 8]), 1);
  EXPECT_EQ(static_cast<uint8_t>(b[r + 16]), 1);
  EXPECT_EQ(static_cast<uint8_t>(b[r + 32]), 1);
  // The file ends at the pool's end.
  const size_t pool = record_offset(h, h.events.size());
  const uint64_t pool_size = static_cast<uint8_t>(b[12 + header.size() + 8]);
  EXPECT_EQ(b.size(), pool + pool_size);
}

TEST(HistBinary, NotBinary) {
  EXPECT_TRUE(throws_format_error([] { read_history_binary_bytes("{\"history\":1}", "x"); }, 0,
                                  "the magic \"GPULINH1\" is missing"));
  EXPECT_TRUE(throws_format_error([] { read_history_binary("/nonexistent/x.bin"); }, 0, "cannot read"));
}

TEST(HistBinary, TruncatedInsideTheHeader) {
  const std::string b = history_to_binary(example("pending"));
  EXPECT_TRUE(throws_format_error([&] { read_history_binary_bytes(b.substr(0, 20), "x"); }, 0,
                                  "truncated inside the header"));
}

TEST(HistBinary, TruncatedInsideARecord) {
  const History h = example("pq_batch_linearizable");
  const std::string b = history_to_binary(h);
  // Cut inside record index 5: line 6.
  EXPECT_TRUE(throws_format_error([&] { read_history_binary_bytes(b.substr(0, record_offset(h, 5) + 13), "x"); },
                                  6, "binary record 6 (line = record index + 1): truncated"));
}

TEST(HistBinary, TruncatedInsideThePool) {
  const History h = example("pq_batch_linearizable");
  const std::string b = history_to_binary(h);
  // The last record (index 17) is op 3's ret; its payload is the pool's last bytes.
  EXPECT_TRUE(throws_format_error([&] { read_history_binary_bytes(b.substr(0, b.size() - 1), "x"); }, 18,
                                  "binary record 18 (line = record index + 1): payload runs past the end"));
}

TEST(HistBinary, CorruptRecords) {
  const History h = example("pq_batch_linearizable");
  const std::string good = history_to_binary(h);
  std::string b = good;
  b[record_offset(h, 3) + 32] = 9;  // kind byte of record index 3
  EXPECT_TRUE(throws_format_error([&] { read_history_binary_bytes(b, "x"); }, 4, "unknown event kind byte 9"));
  b = good;
  b[record_offset(h, 3) + 35] = 1;  // padding
  EXPECT_TRUE(throws_format_error([&] { read_history_binary_bytes(b, "x"); }, 4, "padding bytes are not zero"));
  b = good;
  b[record_offset(h, 2) + 24] = 100;  // record index 2 is op 1's inv; its pool offset
  EXPECT_TRUE(throws_format_error([&] { read_history_binary_bytes(b, "x"); }, 3, "payload offset 100"));
  b = good;
  b[record_offset(h, 4)] = 3;  // record index 4 (t 5) gets t 3, which record index 2 has
  EXPECT_TRUE(throws_format_error([&] { read_history_binary_bytes(b, "x"); }, 5, "duplicate t 3"));
  b = good;
  b[record_offset(h, 1) + 16] = 1;  // op 0's acq by actor 1
  EXPECT_TRUE(throws_format_error([&] { read_history_binary_bytes(b, "x"); }, 2, "but the op's inv has actor 0"));
  b = good;
  b[record_offset(h, h.events.size()) + 3] = 0x7f;  // top byte of op 0's f length, the pool's first field
  EXPECT_TRUE(throws_format_error([&] { read_history_binary_bytes(b, "x"); }, 1, "binary record 1"));
}

TEST(HistBinary, TrailingBytes) {
  const std::string b = history_to_binary(example("pending")) + "x";
  EXPECT_TRUE(throws_format_error([&] { read_history_binary_bytes(b, "x"); }, 0, "1 bytes follow the value pool"));
}

TEST(HistBinary, CorruptHeaderText) {
  const History h = example("pending");
  std::string b = history_to_binary(h);
  b[12] = '[';  // the header JSON's opening brace
  EXPECT_TRUE(throws_format_error([&] { read_history_binary_bytes(b, "x"); }, 0, "not valid JSON"));
}

// Any damage to a valid file is either harmless (the result is still a valid
// history) or a FormatError: never a crash, a hang or another exception.
RC_GTEST_PROP(HistBinaryProperty, DamagedBytesGiveFormatErrorsOnly, ()) {
  std::string b = history_to_binary(test::any_history());
  const int edits = *rc::gen::inRange(1, 4);
  for (int i = 0; i < edits; ++i) {
    const size_t at = *rc::gen::inRange<size_t>(0, b.size());
    switch (*rc::gen::inRange(0, 3)) {
      case 0: b[at] = *rc::gen::arbitrary<char>(); break;
      case 1: b.resize(at); break;
      default: b.insert(at, 1, *rc::gen::arbitrary<char>()); break;
    }
    if (b.empty()) break;
  }
  try {
    validate_history(read_history_binary_bytes(b, "damaged"));
  } catch (const FormatError&) {
  }
}

}  // namespace
}  // namespace gpulin
