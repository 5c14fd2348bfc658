// The byte layout of the binary form (binary_format.h has the table), written once
// for its two readers: read_history_binary_bytes (Values, exact errors) and the
// keys-only reader (key_history_reader.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "histories/history.h"

namespace gpulin::binary_layout {

inline constexpr char kMagic[8] = {'G', 'P', 'U', 'L', 'I', 'N', 'H', '1'};
inline constexpr size_t kRecordSize = 40;
enum Tag : uint8_t { kNull, kFalse, kTrue, kInt, kString, kArray, kObject };

inline uint64_t get_le(const char* p, int bytes) {
  uint64_t x = 0;
  for (int i = 0; i < bytes; ++i) x |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return x;
}

// One event record (record index i: line i + 1). `kind_byte` and `padding_zero`
// are for the caller to judge; `ev.kind` is set only when the kind byte is known.
struct Record {
  Event ev;
  uint64_t aux = 0;  // acq/rel: node; inv/ret: payload offset; lp: 0
  uint8_t kind_byte = 0;
  bool padding_zero = true;
  bool known_kind() const { return kind_byte <= static_cast<uint8_t>(EventKind::Lp); }
};

inline Record decode_record(const char* rec, uint64_t i) {
  Record r;
  r.ev.t = get_le(rec, 8);
  r.ev.op = static_cast<int64_t>(get_le(rec + 8, 8));
  r.ev.actor = static_cast<int64_t>(get_le(rec + 16, 8));
  r.aux = get_le(rec + 24, 8);
  r.kind_byte = static_cast<uint8_t>(rec[32]);
  r.padding_zero = get_le(rec + 33, 7) == 0;
  r.ev.line = static_cast<uint32_t>(i + 1);
  if (r.known_kind()) r.ev.kind = static_cast<EventKind>(r.kind_byte);
  return r;
}

}  // namespace gpulin::binary_layout
