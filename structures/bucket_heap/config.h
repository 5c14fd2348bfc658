// The parallel bucket heap's compile-time choices (Berney, Iacono, Karsin,
// Sitchinava; ../shared/papers/parallel-bucket-heap.txt) and its elements.
//
// An element is a value and a priority packed in 64 bits, value high: levels keep
// their arrays sorted by value (§2.1), and a value's copies sit together, the
// smaller priority first. A DELETE is an element of the special priority kDel; it
// moves down the levels removing the value's copies (§2.1).
#pragma once

#include <cstdint>

#include "common/host_device.h"

namespace gpulin::bucket_heap {

using Element = uint64_t;
inline constexpr uint32_t kDel = 0xffffffffu;  // never a priority
inline constexpr Element kNoElement = ~Element{0};

GPULIN_HD inline Element make_element(uint32_t value, uint32_t prio) { return (Element{value} << 32) | prio; }
GPULIN_HD inline uint32_t value_of(Element e) { return static_cast<uint32_t>(e >> 32); }
GPULIN_HD inline uint32_t prio_of(Element e) { return static_cast<uint32_t>(e); }
GPULIN_HD inline bool is_del(Element e) { return prio_of(e) == kDel; }
// The order of priorities, ties by value (values are unique after
// DELETEDUPLICATES): SELECT's order and the thresholds p_i.
GPULIN_HD inline uint64_t rank_key(Element e) { return (uint64_t{prio_of(e)} << 32) | value_of(e); }
inline constexpr uint64_t kNoThreshold = ~uint64_t{0};  // p_i before it is set: every element fits

// paper: EXTRACTMIN removes the one element it returns (§1.2, §2.1). fixed: it also
// sends a DELETE of the value down (as the buffer heap does), so that an older copy
// of the value, still deeper in the heap, never comes out later.
enum class Variant : uint32_t { Paper, Fixed };

enum class Mutant : uint32_t {
  None,
  EveryThird,      // RESOLVE(i) after every third RESOLVE(i-1), the rest of the schedule as it was
  AdjacentOverlap, // RESOLVE(i-1) does not wait for RESOLVE(i): adjacent levels overlap
  KeepDuplicates,  // DELETEDUPLICATES removes nothing
  ShiftInPlace,    // EXTRACTMIN closes B_0's gap in its scratch copy, in place, as the
                   // first GPU version did: a race between the level actor's threads
};

// When RESOLVE(0) fills B_0 from level 1 (Algorithm 1, lines 10-17). full: whenever
// it holds fewer than its capacity 2d, up to 2d (the postcondition |B_0| = 2d), so
// that nearly every operation's RESOLVE(0) merges all of level 1 to pull up the one
// element an EXTRACTMIN took. lazy: only when it holds fewer than d, and then d of
// them, so that B_0 holds between d and 2d after each RESOLVE(0). Each RESOLVE(0)
// still pulls at most d from level 1, what Theorem 1 counts, so the levels below
// keep their conditions. B_0 is never empty while level 1 is not: it holds at
// least d after each RESOLVE(0), and an operation takes at most one element from it
// (an EXTRACTMIN's, or a DELETE's copy). The levels below fill as Algorithm 1 says
// in both.
enum class Refill : uint32_t { Full, Lazy };

// The signal buffers of a level i > 0 (the schedule of §2.2.1). one: S_i, as the
// paper has it; RESOLVE(i) and RESOLVE(i-1) both touch it, so RESOLVE(i-1) waits
// for RESOLVE(i) before each RESOLVE that follows it (Res_i(k) -> Res_{i-1}(4k+1)),
// and RESOLVE(i) is on level i-1's path once every four. two: S_i and S'_i in
// turns. RESOLVE(i)'s k-th empties the buffer of k's parity, which RESOLVE(i-1)'s
// (4k-3)-th to 4k-th pushed down into, so RESOLVE(i-1) waits only for the RESOLVE(i)
// that emptied the buffer it pushes into next (Res_i(k-1) -> Res_{i-1}(4k+1)), and
// for the one in flight only when it fills B_{i-1} from level i (lines 10-17, the
// only steps that touch B_i and p_i). Level 0's S_0 takes the operations of its own
// actor: one buffer in both.
enum class SignalBuffers : uint32_t { One, Two };

template <Variant V, Mutant M = Mutant::None, Refill R = Refill::Full, SignalBuffers B = SignalBuffers::One>
struct Policy {
  static constexpr Variant variant = V;
  static constexpr Mutant mutant = M;
  static constexpr Refill refill = R;
  static constexpr SignalBuffers buffers = B;
};

// How many RESOLVE(i-1) come before RESOLVE(i)'s k-th (4, or 3 for the mutant).
template <class P>
GPULIN_HD constexpr uint32_t fan_in() {
  return P::mutant == Mutant::EveryThird ? 3u : 4u;
}
// The RESOLVE(i+1) that came before RESOLVE(i)'s k-th (1-based): the last one its
// k - 1 predecessors let start (Res_{i+1}(m) -> Res_i(4m+1)); 0 when none.
GPULIN_HD constexpr uint32_t resolve_below_before(uint32_t k) { return (k - 1) / 4; }
// The buffer of level i + 1 that RESOLVE(i)'s k-th (1-based) pushes down into and
// fills from: the one RESOLVE(i+1)'s ceil(k / 4)-th empties.
template <class P>
GPULIN_HD constexpr uint32_t pushed_buffer(uint32_t k) {
  return P::buffers == SignalBuffers::Two ? ((k + fan_in<P>() - 1) / fan_in<P>()) & 1u : 0u;
}
// The buffer of level i that RESOLVE(i)'s k-th empties.
template <class P>
GPULIN_HD constexpr uint32_t emptied_buffer(uint32_t i, uint32_t k) {
  return P::buffers == SignalBuffers::Two && i > 0 ? k & 1u : 0u;
}

// How many RESOLVE(i) pulls up from level i + 1 when B_i holds `kept` after its
// push down (0: no fill); `cap` is B_i's capacity d 2^(2i+1).
template <class P>
GPULIN_HD constexpr uint64_t fill_wanted(uint32_t i, uint64_t kept, uint64_t cap) {
  if (P::refill == Refill::Lazy && i == 0) return kept < cap / 2 ? cap / 2 : 0;
  return kept < cap ? cap - kept : 0;
}

}  // namespace gpulin::bucket_heap
