// The slab (slab hash, §IV-B): 32 words of 32 bits, one per lane of the warp that
// reads it. Lanes 0-29 hold data, lane 30 is auxiliary, lane 31 holds the address
// of the next slab. Key-value pairs occupy an even lane (key) and the odd lane
// after it (value), so a slab holds 15 pairs or 30 keys (§IV-B: at most 94 %
// memory utilization).
#pragma once

#include <cstdint>

#include "common/host_device.h"

namespace gpulin::slab_hash {

inline constexpr uint32_t kSlabWords = 32;
inline constexpr uint32_t kAuxLane = 30;
inline constexpr uint32_t kAddressLane = 31;

// Reserved key values (§III-B, footnote 1): an empty spot and a deleted key. Keys
// given to the table must be below kDeletedKey.
inline constexpr uint32_t kEmptyKey = 0xFFFFFFFFu;
inline constexpr uint32_t kDeletedKey = 0xFFFFFFFEu;
inline constexpr uint32_t kMaxKey = kDeletedKey - 1;
// The address lane of a list's last slab.
inline constexpr uint32_t kEmptyPointer = 0xFFFFFFFFu;
// `next` naming the bucket's base slab rather than an allocated one.
inline constexpr uint32_t kBaseSlab = 0xFFFFFFFEu;

// The three modes of the models: unique keys with values (REPLACE,
// model `map`), unique keys alone (model `set`), and duplicate keys with values
// (INSERT, model `multimap`).
enum class Mode : uint8_t { Map, Set, Multimap };

template <Mode M>
struct ModeTraits {
  static constexpr bool kPairs = M != Mode::Set;
  // Lanes that hold keys: even lanes 0-28 for pairs, lanes 0-29 for keys alone.
  static constexpr uint32_t kKeyLanes = kPairs ? 0x15555555u : 0x3FFFFFFFu;
  static constexpr uint32_t kSlotsPerSlab = kPairs ? 15 : 30;
  // Unique keys: a deleted key is marked DELETED so that a later insert does not
  // take its spot while the key lives on further down the list (§III-B, 3). With
  // duplicates (the paper variant) a deleted pair becomes EMPTY again, its spot
  // reusable; the fixed multimap marks it DELETED as well (kDeletedPair), so that
  // no spot is reused (slab_hash_view.h, Variant).
  static constexpr uint32_t kDeletedMark = M == Mode::Multimap ? kEmptyKey : kDeletedKey;
};

// A pair as one 64-bit word: key in the low half (the even lane), value in the
// high half (the odd lane), as a little-endian 64-bit CAS on the even lane's
// address sees them.
GPULIN_HD inline uint64_t pack_pair(uint32_t key, uint32_t value) { return (uint64_t{value} << 32) | key; }
inline constexpr uint64_t kEmptyPair = ~uint64_t{0};
// A pair the fixed multimap deleted: key DELETED, value lane EMPTY. Neither an
// EMPTY spot (no insert takes it) nor a key (no search finds it); FLUSH (§IV-C4)
// drops it as it drops the unique modes' DELETED keys.
inline constexpr uint64_t kDeletedPair = (uint64_t{kEmptyKey} << 32) | kDeletedKey;

}  // namespace gpulin::slab_hash
