// The one memory-order choice a structure makes at a shared-word access
// (structures/exec/context.h). By default every read-modify-write and store is
// ordered (acquire/release at device scope): right for lock words and for data
// published by them. `exec::relaxed` asks for an atomic access with no ordering
// beyond the word itself (coherence), for lock-free structures whose words carry
// everything a reader needs - the slab hash's key-value pair in one 64-bit word,
// a next pointer to a slab that was all-EMPTY before the kernel began, a bitmap
// word (slab hash §III-B, §V: the original uses plain atomicCAS). On the GPU it
// saves the fence around the atomic (MEMBAR.GPU before, an L1 invalidation
// after). The simulator gives each access its order under the ptx memory mode
// (sim/sim_context.h) and none under sc, where every access is sequentially
// consistent.
#pragma once

#include <type_traits>

namespace gpulin::exec {

struct Relaxed {};
inline constexpr Relaxed relaxed{};

// `exec::acquire`, for a CAS that takes a lock: an acquire without the release
// half. Taking a lock publishes nothing (what the taker wrote before is published
// by its own releases), and on the GPU the release half is a fence that waits for
// every store the actor has in flight - in a hand-over-hand step the parent's new
// batch, just stored - before the CAS may go out.
struct Acquire {};
inline constexpr Acquire acquire{};
// Whether an operation's tags (cas_until, cas_pair) ask for exec::acquire.
template <class... Tags>
inline constexpr bool is_acquire_v = (std::is_same_v<Tags, Acquire> || ...);
// Whether they ask for exec::relaxed (cas_until on a claim that orders nothing).
template <class... Tags>
inline constexpr bool is_relaxed_v = (std::is_same_v<Tags, Relaxed> || ...);

// `exec::release`, for a CAS that gives up a claim: a release without the acquire
// half. The actor reads nothing after it that another actor published (the heap's
// insert clearing a delete's MARKED on its target, td_insert.h), so on the GPU it
// saves the L1 invalidation an acquire costs.
struct Release {};
inline constexpr Release release{};

}  // namespace gpulin::exec
