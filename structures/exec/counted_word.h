// A lock word that counts its holds (structures/exec/context.h: the accesses
// tagged exec::counted). Its low kCountedStateBits bits are the lock's state, the
// rest the number of holds that ended on it (mod 2^29): a change out of the held
// state (kCountedHeld) adds one, every other change keeps it. So the holder of a
// counted lock knows its hold's number from the very access that won the lock,
// with no counter of its own to update - what a recording by hold numbers needs
// (histories/device_events.h: the root-release rule orders the root's holds, and
// a version counter inside the lock word numbers them for free).
//
// An access to a counted word compares and changes its state only. On the GPU a
// CAS must name the whole word, so the count it expects is a guess (from the
// word last seen): a CAS that misses by the count alone is retried at once with
// the count it saw, inside the one access the structure asked for.
#pragma once

#include <cstdint>

#include "common/host_device.h"

namespace gpulin::exec {

inline constexpr uint32_t kCountedStateBits = 3;
inline constexpr uint32_t kCountedStateMask = (1u << kCountedStateBits) - 1;
inline constexpr uint32_t kCountedOneHold = 1u << kCountedStateBits;
inline constexpr uint32_t kCountedHeld = 1;

GPULIN_HD constexpr uint32_t counted_state(uint32_t word) { return word & kCountedStateMask; }
GPULIN_HD constexpr uint32_t counted_holds(uint32_t word) { return word >> kCountedStateBits; }
GPULIN_HD constexpr uint32_t with_counted_state(uint32_t word, uint32_t state) {
  return (word & ~kCountedStateMask) | state;
}
// The word `old` after its state becomes `to`: one hold more if that ends one.
GPULIN_HD constexpr uint32_t counted_change(uint32_t old, uint32_t to) {
  const bool ends_hold = counted_state(old) == kCountedHeld && to != kCountedHeld;
  return with_counted_state(old, to) + (ends_hold ? kCountedOneHold : 0u);
}
// What a counted word seen as `seen` will most likely be when its state is `want`:
// as it is if its state is `want` now, else as its state's next change to `want`
// leaves it (one hold more once its holder releases it). A guess: a wrong one
// costs a retry, never a wrong result.
GPULIN_HD constexpr uint32_t counted_guess(uint32_t seen, uint32_t want) {
  return counted_state(seen) == want ? seen : counted_change(seen, want);
}

// The tags: the access is to a counted word; of a release_pair's two words, the
// first (or the second) is a counted word, the other not.
struct Counted {};
inline constexpr Counted counted{};
struct FirstCounted {};
inline constexpr FirstCounted first_counted{};
struct SecondCounted {};
inline constexpr SecondCounted second_counted{};

}  // namespace gpulin::exec
