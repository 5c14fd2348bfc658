// Recording by key clocks: the layout shared by the recording kernels and the host
// that assembles their history (docs/history-format.md, "Order by key").
//
// The event recorder (device_events.h) takes every event's ticket from one global
// counter, three per operation: one hot line that serves far fewer tickets a
// second than a slab hash runs operations unrecorded (bench/results/
// architecture-notes.md, 1.1), so recording by events throttles the slab hash to a
// small fraction of its rate (bench/results/slab-record-h100.txt). A history
// of single-key operations (the map, set and multimap models) needs no global
// order: linearizability is local (Herlihy and Wing, Theorem 1), so the history is
// linearizable exactly when each key's sub-history is, and each key's sub-history
// needs only the real-time order of that key's events. So each key has a clock, a
// counter word (keys hash to 2^clock_bits clocks; keys that share one are ordered
// more than they need be, never less), and an operation's events take tickets
// from its key's clock:
//
//   inv  acquire, before the operation's first shared access;
//   lp   relaxed, right after the deciding access (same thread as inv and ret, so
//        coherence alone puts it between them);
//   ret  release, after its last shared access.
//
// A ret's release and a later inv's acquire on the same clock synchronise (every
// access to a clock is a read-modify-write, so it continues the release sequence),
// so an operation whose ret ticket precedes another's inv ticket happened before it,
// and what it wrote is visible to the other. Operations on different keys are
// ordered only by the launches they ran in. A recorded launch gives every thread
// one operation, so a thread's operations are ordered by the launches too, and each
// operation is its own actor in the history.
//
// Each operation writes one 32-byte record (its three tickets, its call and its
// result) at its own index: no shared append counter, one coalesced store per warp.
// The host turns the records into events whose t packs (launch, ticket, clock), a
// linear extension of every clock's order and of the launches' order.
//
// Recording by warp rounds (KeyClockMode::kWarpRounds, cuda/round_clock_context.cuh)
// keeps the records and drops two thirds of the atomics: ONE clock for every key,
// and a warp takes its round's 32 inv tickets with one atomic (acquire, before the
// round's first shared access) and its 32 ret tickets with another (release, after
// the last). A ticket block is one point of the clock's order, so an operation whose
// ret ticket precedes another's inv ticket happened before it, as above; and since
// one clock orders every event, the history's t is real time for all of them. The
// price: no lp tickets (an lp needs an atomic of its own operation), so such a
// history has no lp events and no lp_rule; checkers order each key's operations by
// their ret instead (verify/keyed_linear) and search the keys that order fails.
// One clock's 2^30 tickets (two an operation) bound such a history to 2^29
// operations; the assembler refuses a ticket past that, naming its operation.
//
// Recording by a published clock (KeyClockMode::kPublished, cuda/published_clock_
// context.cuh, cuda/published_clock_ticker.cuh) brackets a warp's round as warp
// rounds do, with no atomic on a shared hot line:
//
//   inv  an acquire LOAD of the one clock G (every warp reads it, only the ticker
//        writes it), before the round's first shared access;
//   ret  a release fetch_add of 1 on the clock of the warp's own multiprocessor
//        (%smid; one 128-byte line each), after the round's last shared access.
//
// A ticker (one extra block of the launch, block 0) repeatedly reads every
// multiprocessor's clock (relaxed loads, then an acquire fence) and, where one has
// moved, bumps G with a release fetch_add and logs (multiprocessor, value seen, G's
// old value g). A ret that a sighting at tick g reached (the clock at or past the
// value the ret left) happened before every round whose inv loaded G > g: the
// ret's release heads a release sequence of read-modify-writes that the ticker's
// acquire reads from, and the ticker's release on G is read by the later inv's
// acquire. So operation A precedes B in the history exactly when A's ret was
// published at a tick g_A below B's inv value. That orders fewer pairs than warp
// rounds (two rounds within one tick are left concurrent, never the other way), so
// the check is sound and a little weaker. How much weaker depends on how often the
// ticker ticks against how long a round lasts: `gpulin stress` prints the sightings
// a launch logged (bench/results/stress-h100-slab.txt), and a round spans several
// ticks (bench/results/architecture-notes.md, 3.4), so only rounds that nearly
// overlap anyway are left concurrent.
// The records are 16 bytes (PublishedRecord): an operation's key and value are the
// workload's, which the host has, and are not written again. With the atomics off
// the hot line and half the record it is the cheapest of these recorders; the
// ticker's block costs little beside it (bench/results/slab-record-h100.txt;
// architecture-notes.md, 3.4).
#pragma once

#include <cstdint>

#include "common/host_device.h"

namespace gpulin {

inline constexpr uint32_t kKeyClockMaxBits = 20;     // at most 2^20 clocks
inline constexpr uint32_t kKeyClockTicketBits = 30;  // at most 2^30 - 1 tickets a clock
inline constexpr uint32_t kKeyClockEpochBits = 13;   // at most 2^13 launches a history

// One operation. Tickets count from 1; 0 means none: lp_t 0, the operation took no
// point; ret_t 0, it is pending (it never returned: an insert that found no free
// memory); inv_t 0, the record was never written.
struct KeyClockRecord {
  uint32_t inv_t;
  uint32_t lp_t;
  uint32_t ret_t;
  uint32_t fn;        // the structure's operation index (the history's fn_names)
  uint32_t args[2];   // args[0] is the key
  uint32_t res;       // the result's one word, when res_len is 1
  uint32_t shape;     // args_len (bits 0-1) | res_len (bit 2) | res is null (bit 3) | launch (bits 8-31)
};
static_assert(sizeof(KeyClockRecord) == 32, "one record, one 32-byte sector");

GPULIN_HD constexpr uint32_t key_clock_shape(uint32_t args_len, bool has_res, bool res_null, uint32_t launch) {
  return args_len | (has_res ? 4u : 0u) | (res_null ? 8u : 0u) | (launch << 8);
}

// The clock of a key: a multiplicative hash's top bits (Knuth), so that keys
// drawn from a narrow range still spread over the clocks.
GPULIN_HD constexpr uint32_t key_clock_of(uint32_t key, uint32_t clock_bits) {
  return clock_bits == 0 ? 0u : static_cast<uint32_t>((key * 2654435769u) >> (32 - clock_bits));
}

// An event's t: launch above ticket above clock. Unique (one clock hands a ticket
// out once) and below 2^63.
GPULIN_HD constexpr uint64_t key_clock_t(uint32_t launch, uint32_t ticket, uint32_t clock) {
  return (uint64_t{launch} << (kKeyClockTicketBits + kKeyClockMaxBits)) | (uint64_t{ticket} << kKeyClockMaxBits) | clock;
}

// How the tickets are taken: each operation's own from its key's clock (inv, lp,
// ret: three atomics an operation), a warp round's 32 at once from one clock
// (two atomics a round of 32 operations, no lp), or a published clock (below).
// (Key rounds, each operation's inv and ret from its key's clock around the warp's
// round, were retired: costlier on the GPU than a published clock, slower on the
// host than warp rounds, and no more precise; bench/results/README.md.)
enum class KeyClockMode : uint32_t { kPerKey = 0, kWarpRounds = 1, kPublished = 2 };

// One operation recorded by a published clock. inv: the value of G its warp's
// round loaded; ret: the value its warp's ret left on its multiprocessor's clock
// (0: pending, the operation never returned); shape: published_shape.
struct PublishedRecord {
  uint32_t inv;
  uint32_t ret;
  uint32_t res;
  uint32_t shape;
};
static_assert(sizeof(PublishedRecord) == 16, "one record, half a sector");

// At most 2^8 multiprocessors: the record's shape holds the one its warp ran on.
inline constexpr uint32_t kPublishedMaxSms = 256;

// args_len (bits 0-1) | res_len (bit 2) | res is null (bit 3) | fn (bits 4-7) |
// multiprocessor (bits 8-15) | launch (bits 16-28).
GPULIN_HD constexpr uint32_t published_shape(uint32_t args_len, bool has_res, bool res_null, uint32_t fn, uint32_t sm,
                                             uint32_t launch) {
  return args_len | (has_res ? 4u : 0u) | (res_null ? 8u : 0u) | (fn << 4) | (sm << 8) | (launch << 16);
}

// The published clock's words in KeyClockRecorderRef::clocks: G at 0, each
// multiprocessor's on a line of its own.
GPULIN_HD constexpr uint32_t published_sm_clock(uint32_t sm) { return 32u * (1u + sm); }
inline constexpr uint32_t kPublishedClockBits = 14;  // 2^14 words hold G and 256 lines

// One tick's sighting: the ticker saw multiprocessor `sm`'s clock at `value`, then
// bumped G from `g` (so an inv that loads more than g comes after every ret up to
// `value` on that multiprocessor).
struct PublishedTick {
  uint32_t sm;
  uint32_t value;
  uint32_t g;
  uint32_t unused;
};

// The ticker's words (KeyClockRecorderRef::tick_state).
inline constexpr uint32_t kTickUsed = 0;      // sightings logged
inline constexpr uint32_t kTickOverflow = 1;  // 1: the log was full and a sighting was lost
inline constexpr uint32_t kTickRetsDone = 2;  // the rets of every launch so far (the clocks' sum)

// Passed by value to a recording kernel: operation `op` writes records[op]; the
// launcher refuses a launch whose op ids reach past record_cap. `launch` is the
// launch's index in the history.
struct KeyClockRecorderRef {
  uint32_t* clocks = nullptr;  // [1 << clock_bits]
  uint32_t clock_bits = 0;     // kWarpRounds: 0 (one clock)
  KeyClockMode mode = KeyClockMode::kPerKey;
  KeyClockRecord* records = nullptr;
  uint64_t record_cap = 0;
  uint32_t launch = 0;
  // kPublished: its records (instead of `records`), the ticker's log and words.
  PublishedRecord* published = nullptr;
  PublishedTick* ticks = nullptr;
  uint32_t tick_cap = 0;
  uint32_t* tick_state = nullptr;  // [3]: kTickUsed, kTickOverflow, kTickRetsDone
};

}  // namespace gpulin
