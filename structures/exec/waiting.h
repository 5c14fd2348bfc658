// How an actor waits (structures/exec/context.h: cas_until, wait_while_equals).
// By default a waiter on the GPU sleeps between its reads, longer each time, so
// that a queue of waiters does not flood the word's cache line. An actor that
// waits while it holds what others queue behind (a lock below one it holds) is on
// everyone's path: `exec::holding` asks it to re-try without sleeping. The
// simulator parks either waiter alike.
#pragma once

#include <type_traits>

#include "structures/exec/memory_order.h"

namespace gpulin::exec {

struct Holding {};
inline constexpr Holding holding{};

// A wait is a retry: after it the caller reads the word again and keeps nothing
// of what it read before (the simulator's DPOR leaves such failed attempts out of
// a run's trace: sim/trace/event_log.h, is_await). A caller that goes on with the
// value it saw (a guess of the holder's release) says so with exec::keeps_seen.
struct KeepsSeen {};
inline constexpr KeepsSeen keeps_seen{};

// A wait's tags (cas_until's may also name exec::acquire, memory_order.h).
template <class... Tags>
inline constexpr bool is_holding_v = (std::is_same_v<Tags, Holding> || ...);

}  // namespace gpulin::exec
