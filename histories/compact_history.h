// A history too large for one Value per key (a GPU run of a million operations of
// 1024 keys each): every event and operation as usual, but the keys of each
// operation's arguments and result live in one flat pool, addressed by spans.
// For integer-list payloads (pq-batch); `expand` turns it into a plain History.
#pragma once

#include <cstdint>
#include <vector>

#include "histories/history.h"

namespace gpulin {

struct KeySpan {
  uint64_t off = 0;
  uint32_t len = 0;
};

struct CompactHistory {
  // Events and operations; an operation's args are an empty array and its res is
  // null or an empty array (pending: none), standing for the keys below.
  History skeleton;
  std::vector<uint32_t> keys;
  std::vector<KeySpan> args;  // indexed like skeleton.ops
  std::vector<KeySpan> res;   // indexed like skeleton.ops; len 0 and res null: a null result
};

// The same history with every key as a Value (memory: about 100 bytes a key).
History expand(const CompactHistory& c);
// The inverse, for histories whose args and results are arrays of integers in
// [0, 2^32) (or null results). Throws FormatError naming the op's line otherwise.
CompactHistory compact(const History& h);

}  // namespace gpulin
