// One event line in the compact form the writers emit (jsonl_writer.cpp: no
// whitespace, integers without sign games, names and strings in plain ASCII),
// scanned by hand for the keys-only reader (key_history_reader.cpp). A history
// of a million small operations is six million short lines; a general JSON parse
// per line (simdjson's on-demand setup, field lookup, UTF-8 checks) costs several
// times the scan of such a line.
//
// The scanner only ever says "this line, read as that" or "not taken": it takes
// a subset of JSON whose meaning is unambiguous and leaves everything else
// (whitespace, escapes, -0, numbers of 19 digits or more, floats, non-ASCII,
// unknown or repeated fields) to the general parser, which gives the DOM
// reader's verdict. So what it accepts, it reads exactly as simdjson would.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "histories/event_fields.h"
#include "histories/history.h"
#include "histories/key_history.h"

namespace gpulin::compact_event_line {

// What one line holds; the caller adds the line number and files it.
struct Scanned {
  Event ev;
  std::string_view f;  // inv: its f (points into the input)
  uint64_t args_off = 0, res_off = 0;  // into the key pool
  uint32_t args_len = 0, res_len = 0;
  uint8_t res_kind = KeyOp::kNullResult;  // ret: a KeyOp::Result
};

namespace detail {

// Eight bytes at p, the first in the lowest byte.
inline uint64_t load8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

// How many of the eight bytes in w, from the lowest, are decimal digits before
// the first that is not (0..8). A byte's carry or borrow only reaches the bytes
// above it, and the first non-digit stops the count below those.
inline unsigned leading_digits(uint64_t w) {
  const uint64_t x =
      ((w & 0xF0F0F0F0F0F0F0F0) | (((w + 0x0606060606060606) & 0xF0F0F0F0F0F0F0F0) >> 4)) ^ 0x3333333333333333;
  return x ? static_cast<unsigned>(__builtin_ctzll(x)) / 8 : 8;
}

// The value of w's lowest k digits (1 <= k <= 8), the first the most significant:
// shifted up, the bytes below count as leading zeros; then pairs, fours, eights.
inline uint64_t digits_value(uint64_t w, unsigned k) {
  w = (w << (8 * (8 - k))) & 0x0F0F0F0F0F0F0F0F;
  w = (w * 2561) >> 8;
  w = ((w & 0x00FF00FF00FF00FF) * 6553601) >> 16;
  return ((w & 0x0000FFFF0000FFFF) * 42949672960001) >> 32;
}

// -?(0|[1-9][0-9]{0,17}), eight digits at a time: 18 digits always fit in int64
// and uint64, so no overflow test; "-0" and longer numbers are left to the
// general parser (its range checks and its reading of -0 decide them).
inline bool scan_int(const char*& p, int64_t& v) {
  static constexpr uint64_t kPow10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
  const bool neg = *p == '-';
  const char* q = p + neg;
  uint64_t w = load8(q);
  unsigned k = leading_digits(w);
  if (k == 0 || (*q == '0' && (neg || k > 1))) return false;
  uint64_t x = digits_value(w, k);
  unsigned total = k;
  q += k;
  while (k == 8) {
    w = load8(q);
    k = leading_digits(w);
    if (k == 0) break;
    total += k;
    if (total > 18) return false;
    x = x * kPow10[k] + digits_value(w, k);
    q += k;
  }
  v = neg ? -static_cast<int64_t>(x) : static_cast<int64_t>(x);
  p = q;
  return true;
}

// A string of printable ASCII without quote or backslash: exactly its bytes.
inline bool scan_string(const char*& p, std::string_view& s) {
  if (*p != '"') return false;
  const char* q = ++p;
  while (*q >= 0x20 && *q < 0x7f && *q != '"' && *q != '\\') ++q;
  if (*q != '"') return false;
  s = std::string_view(p, static_cast<size_t>(q - p));
  p = q + 1;
  return true;
}

// [] or [int,int,...], appended to the pool.
inline bool scan_keys(const char*& p, std::vector<int64_t>& keys, uint64_t& off, uint32_t& len) {
  if (*p != '[') return false;
  ++p;
  off = keys.size();
  if (*p == ']') {
    ++p;
    len = 0;
    return true;
  }
  for (;;) {
    int64_t x;
    if (!scan_int(p, x)) return false;
    keys.push_back(x);
    if (*p == ']') break;
    if (*p != ',') return false;
    ++p;
  }
  ++p;
  if (keys.size() - off > UINT32_MAX) return false;
  len = static_cast<uint32_t>(keys.size() - off);
  return true;
}

inline bool scan_word(const char*& p, const char* word, size_t n) {
  if (std::memcmp(p, word, n) != 0) return false;
  p += n;
  return true;
}

// A field's name and the colon after it: its event_fields::Field, or -1.
inline int scan_name(const char*& p) {
  using namespace event_fields;
  if (*p != '"') return -1;
  const char* q = p + 1;
  while (*q >= 'a' && *q <= 'z') ++q;
  if (*q != '"' || q[1] != ':') return -1;
  const std::string_view name(p + 1, static_cast<size_t>(q - p - 1));
  for (int i = 0; i < kFieldCount; ++i)
    if (name == kFieldName[i]) {
      p = q + 2;
      return i;
    }
  return -1;
}

// A ret's res: null, keys, or (with `scalars`) one integer or true/false.
inline bool scan_res(const char*& p, bool scalars, std::vector<int64_t>& keys, Scanned& out) {
  if (*p == '[') {
    out.res_kind = KeyOp::kKeysResult;
    return scan_keys(p, keys, out.res_off, out.res_len);
  }
  if (scan_word(p, "null", 4)) {
    out.res_kind = KeyOp::kNullResult;
    return true;
  }
  if (!scalars) return false;
  // One integer, or true/false as 1/0: one key of the pool.
  int64_t x = 0;
  if (scan_word(p, "true", 4)) x = 1, out.res_kind = KeyOp::kBoolResult;
  else if (scan_word(p, "false", 5)) x = 0, out.res_kind = KeyOp::kBoolResult;
  else if (scan_int(p, x)) out.res_kind = KeyOp::kValueResult;
  else return false;
  out.res_off = keys.size();
  out.res_len = 1;
  keys.push_back(x);
  return true;
}

// After the object: the line's end, or nullptr.
inline const char* line_end(const char* p, const char* end) {
  if (*p != '}') return nullptr;
  ++p;
  return p == end || *p == '\n' ? p : nullptr;
}

// The fields in the writers' order (jsonl_writer.cpp, append_event), each name
// compared as one literal: nearly every line of a recorded history.
inline const char* scan_in_order(const char* p, const char* end, bool scalars, std::vector<int64_t>& keys,
                                 Scanned& out) {
  int64_t t = 0;
  if (!scan_word(p, "{\"t\":", 5) || *p == '-' || !scan_int(p, t)) return nullptr;
  out.ev.t = static_cast<uint64_t>(t);
  if (!scan_word(p, ",\"e\":\"", 6)) return nullptr;
  EventKind& kind = out.ev.kind;
  if (scan_word(p, "inv\"", 4)) kind = EventKind::Inv;
  else if (scan_word(p, "ret\"", 4)) kind = EventKind::Ret;
  else if (scan_word(p, "acq\"", 4)) kind = EventKind::Acq;
  else if (scan_word(p, "rel\"", 4)) kind = EventKind::Rel;
  else if (scan_word(p, "lp\"", 3)) kind = EventKind::Lp;
  else return nullptr;
  if (!scan_word(p, ",\"op\":", 6) || !scan_int(p, out.ev.op)) return nullptr;
  if (!scan_word(p, ",\"actor\":", 9) || !scan_int(p, out.ev.actor)) return nullptr;
  switch (kind) {
    case EventKind::Inv:
      if (!scan_word(p, ",\"f\":", 5) || !scan_string(p, out.f) || !scan_word(p, ",\"args\":", 8) ||
          !scan_keys(p, keys, out.args_off, out.args_len))
        return nullptr;
      break;
    case EventKind::Ret:
      if (!scan_word(p, ",\"res\":", 7) || !scan_res(p, scalars, keys, out)) return nullptr;
      break;
    case EventKind::Acq:
    case EventKind::Rel:
      if (!scan_word(p, ",\"node\":", 8) || !scan_int(p, out.ev.node)) return nullptr;
      break;
    case EventKind::Lp: break;
  }
  return line_end(p, end);
}

// The fields in any order, each once.
inline const char* scan_any_order(const char* p, const char* end, bool scalars, std::vector<int64_t>& keys,
                                  Scanned& out) {
  using namespace event_fields;
  if (*p != '{') return nullptr;
  ++p;
  std::string_view e;
  unsigned seen = 0;
  for (;;) {
    const int k = scan_name(p);
    if (k < 0 || (seen & (1u << k))) return nullptr;
    seen |= 1u << k;
    bool ok = true;
    int64_t t = 0;
    switch (k) {
      case kT:
        ok = *p != '-' && scan_int(p, t);
        out.ev.t = static_cast<uint64_t>(t);
        break;
      case kE: ok = scan_string(p, e); break;
      case kOp: ok = scan_int(p, out.ev.op); break;
      case kActor: ok = scan_int(p, out.ev.actor); break;
      case kNode: ok = scan_int(p, out.ev.node); break;
      case kF: ok = scan_string(p, out.f); break;
      case kArgs: ok = scan_keys(p, keys, out.args_off, out.args_len); break;
      case kRes: ok = scan_res(p, scalars, keys, out); break;
    }
    if (!ok) return nullptr;
    if (*p == '}') break;
    if (*p != ',') return nullptr;
    ++p;
  }
  if (!kind_of(e, out.ev.kind) || seen != fields_of(out.ev.kind)) return nullptr;
  return line_end(p, end);
}

}  // namespace detail

// Scans the line at p. `end`: the end of the input (a line without '\n' ends
// there); the bytes from `end` on must be readable and not part of JSON (the
// reader's zero padding), as the scan may look a few bytes past a line.
// `scalars`: a ret's res may also be one integer or true/false (keyed models).
// Returns the line's end (its '\n', or `end`), or nullptr when the line is not
// taken; then the pool is as it was.
inline const char* scan(const char* p, const char* end, bool scalars, std::vector<int64_t>& keys, Scanned& out) {
  const size_t pool_before = keys.size();
  if (const char* le = detail::scan_in_order(p, end, scalars, keys, out)) return le;
  keys.resize(pool_before);
  out = Scanned();
  if (const char* le = detail::scan_any_order(p, end, scalars, keys, out)) return le;
  keys.resize(pool_before);
  return nullptr;
}

}  // namespace gpulin::compact_event_line
