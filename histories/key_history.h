// The lean in-memory form of a history whose payloads are lists of integer keys
// (pq, pq-batch, psync-pq) or integer keys and values with scalar results (map,
// set, multimap: a search's value, a contains' true/false): a GPU run of a million operations of 1024 keys each,
// or a JSON Lines file of tens of millions of keys, read and checked without one
// Value per key. Events are as in History; each operation is a fixed-size record
// whose arguments and result are spans of one flat pool of keys.
//
// Memory: 40 bytes an event, 72 an operation, 8 a key. The binary form
// (binary_format.h) spends 40 an event, 9 a key and about 17 an operation's
// payload, so a KeyHistory stays below twice the binary form unless most of its
// operations are pending (a pending op costs 112 bytes here, 52 there).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "histories/history.h"

namespace gpulin {

struct KeySpan {
  uint64_t off = 0;  // into KeyHistory::keys
  uint32_t len = 0;
};

// 72 bytes. The spans are stored flat (no padding inside a KeySpan member).
struct KeyOp {
  // A result is null, a list of keys, or one key of the pool (res_len 1) read as
  // an integer (kValueResult) or as false (0) / true (kBoolResult).
  enum Result : uint8_t {
    kPendingResult = 0,
    kNullResult = 1,
    kKeysResult = 2,
    kValueResult = 3,
    kBoolResult = 4,
  };
  int64_t id = 0;
  int64_t actor = 0;
  uint64_t inv_t = 0;
  uint64_t ret_t = kPending;
  uint64_t args_off = 0;  // the inv's args, always an array of keys
  uint64_t res_off = 0;   // the ret's res when res_kind is kKeysResult, kValueResult or kBoolResult
  uint32_t args_len = 0;
  uint32_t res_len = 0;
  uint32_t inv_line = 0;
  uint32_t ret_line = 0;
  uint16_t fn = 0;        // index into KeyHistory::fn_names
  Result res_kind = kPendingResult;

  bool pending() const { return ret_t == kPending; }
  KeySpan args() const { return {args_off, args_len}; }
  KeySpan res() const { return {res_off, res_len}; }
};
static_assert(sizeof(KeyOp) == 72);

struct KeyHistory {
  std::string source;  // file name for messages
  Header header;
  std::vector<Event> events;           // every event, sorted by t (as History::events)
  std::vector<KeyOp> ops;              // sorted by inv_t (as History::ops)
  std::vector<std::string> fn_names;   // KeyOp::fn indexes it ("ins", "del", ...)
  std::vector<int64_t> keys;           // every args and res list, back to back (in no promised order: the spans say where)

  const std::string& fn_name(const KeyOp& op) const { return fn_names[op.fn]; }
  // The index of `name` in fn_names, added when new.
  uint16_t fn_index(std::string_view name);
  const int64_t* begin_of(const KeySpan& s) const { return keys.data() + s.off; }
  const int64_t* end_of(const KeySpan& s) const { return keys.data() + s.off + s.len; }
  size_t bytes() const;  // resident size of the vectors' contents, for the memory target
};

// The models whose args and res are lists of integer keys (or a null res): pq,
// pq-batch, psync-pq.
bool keys_only_model(const std::string& model);
// The models partitioned by key whose ops take integer keys and values and whose
// results may also be one integer or true/false: map, set, multimap.
bool keyed_model(const std::string& model);
// Either: the models a KeyHistory can hold.
inline bool key_payload_model(const std::string& model) { return keys_only_model(model) || keyed_model(model); }
// A history's integers are signed 64-bit (history-format.md), so a recorded key
// must be one: an unsigned 64-bit key above 2^63 - 1 has no history integer, and
// the recorders refuse it (naming it) rather than wrap it to a negative key.
// Narrower keys always fit; the test is compiled out for them.
template <class Key>
constexpr bool fits_history_integer(Key v) {
  if constexpr (std::is_unsigned_v<Key> && sizeof(Key) >= sizeof(int64_t)) return v <= static_cast<Key>(INT64_MAX);
  return true;
}
std::string key_out_of_history_range(uint64_t key);  // the message: which key, and why

// The plain History with every key a Value (about 100 bytes a key): for the
// generic checkers and writers on histories small enough.
History expand(const KeyHistory& h);
// The same, taking the events and header from a history no longer needed (the
// simulator's recorder builds one per schedule).
History expand(KeyHistory&& h);
// Only the ops h.ops[i], i in `op_indices` (ascending), and their events: a part
// of a large history for the generic checkers (one key's operations, say).
History expand(const KeyHistory& h, const std::vector<size_t>& op_indices);

// The inverse. Throws FormatError naming the op's line when an args is not an
// array of integers or a res neither null nor an array of integers (nor, for the
// keyed models, one integer or true/false).
KeyHistory to_key_history(const History& h);

// The op's f as text, for code written once over History and KeyHistory.
inline const std::string& op_name(const KeyHistory& h, size_t i) { return h.fn_names[h.ops[i].fn]; }
inline const std::string& op_name(const History& h, size_t i) { return h.ops[i].f; }

}  // namespace gpulin
