// A run as a sequence of events, for the strategies that reason about which
// schedules are equivalent (partial-order reduction: sim/strategies/dpor_strategy.h;
// a trace's identity for coverage: trace_clocks.h). An event is what one actor does
// between two scheduling decisions: the accesses it makes to shared words, and the
// history records it appends. Two events commute unless they are dependent
// (`dependent`): they touch one word and one of them writes it, or their records'
// order would change the history's real-time order.
//
// The simulator fills the log while it runs (Simulator::run, when the strategy asks
// for one: Strategy::event_log); the execution context reports each access
// (SimContext, SimBlock). An event ends at every scheduling point (whether or not
// the scheduler has a choice there), where its actor parks, and where it finishes;
// so the same program cut by any schedule gives the same events. An event whose
// actor found a word it waits on unchanged and parked to retry is an await
// (`is_await`): not a step of the trace.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/strategy.h"

namespace gpulin::sim {

// What an event's records do to the history's order (under the sc memory mode). The
// real-time order of two operations changes only when a response and an invocation
// of different actors swap, so an invocation depends on other actors' responses and
// the other way round, not on their invocations; linearization points are kept in
// order with one another (the witness checkers read their order). Under ptx every
// record is an atomic on the recorder's one counter (memory::ModelMemory::
// record_event), so all records depend on one another: `Serial`.
enum RecordFlag : uint8_t {
  kOpens = 1,    // an invocation (or an operation's start)
  kCloses = 2,   // a response (or an operation's end)
  kLp = 4,       // a linearization point, a lock's hold recorded
  kSerial = 8,   // any record under ptx
};

// One shared word touched: its address (4-byte aligned) and whether it was written.
struct WordAccess {
  uintptr_t word = 0;
  bool write = false;
};

// What an event did, as far as commuting goes.
struct Footprint {
  std::vector<WordAccess> accesses;
  uint8_t records = 0;
};
bool records_dependent(uint8_t a, uint8_t b);

class EventLog {
 public:
  static constexpr uint32_t kForced = ~0u;  // an event that began without a decision
  struct Event {
    uint32_t actor = 0;
    uint32_t decision = kForced;  // the index in the run's picks of the pick that began it
    ActorSet enabled = 0;         // the actors that could run where it began
    uint32_t first = 0, last = 0;  // its accesses: accesses()[first, last)
    uint8_t records = 0;
    uint64_t choices = 0;  // the values its loads chose under ptx, mixed
    bool retry = false;            // it ended in a wait that its actor retries from scratch (Simulator::park)
  };

  void clear() {
    events_.clear();
    accesses_.clear();
  }
  // A new event of `actor`, begun by the decision `decision` (kForced: none) where
  // `enabled` could run.
  void begin(uint32_t actor, uint32_t decision, ActorSet enabled) {
    const uint32_t at = static_cast<uint32_t>(accesses_.size());
    events_.push_back({actor, decision, enabled, at, at, 0});
  }
  // `bytes` at `addr`, each 4-byte word of them.
  void touch(const void* addr, uint32_t bytes, bool write) {
    if (events_.empty()) return;
    const uintptr_t lo = reinterpret_cast<uintptr_t>(addr) & ~uintptr_t(3);
    const uintptr_t hi = reinterpret_cast<uintptr_t>(addr) + (bytes ? bytes : 1);
    for (uintptr_t w = lo; w < hi; w += 4) add(w, write);
  }
  // The event ended in a pure retry's wait: its actor parked and, once woken, does
  // again what it did, having kept nothing of it.
  void retries() {
    if (!events_.empty()) events_.back().retry = true;
  }
  void record(uint8_t flags) {
    if (!events_.empty()) events_.back().records |= flags;
  }
  void chose(uint32_t value) {
    if (!events_.empty()) events_.back().choices = events_.back().choices * 0x100000001b3ULL + value + 1;
  }

  const std::vector<Event>& events() const { return events_; }
  const std::vector<WordAccess>& accesses() const { return accesses_; }
  Footprint footprint(size_t event) const;
  // Whether the event `event` touched exactly the words of `f`, as `f` did.
  bool matches(const Footprint& f, size_t event) const;
  // Whether the event `event` of this log depends on one with footprint `f`.
  bool depends(const Footprint& f, size_t event) const;
  // Whether two events of this log are dependent (by their words and records).
  bool depends(size_t a, size_t b) const;
  // Whether the event is an await: a failed attempt that only read, recorded
  // nothing, and parked to be retried. It changes nothing, and its actor, woken,
  // is where it was before it: a run without it is a run of the program with the
  // same history. Traces leave awaits out (trace_clocks.h); DPOR uses them only to
  // find which actor could have gone first (dpor_strategy.h).
  bool is_await(size_t event) const;

 private:
  void add(uintptr_t word, bool write) {
    Event& e = events_.back();
    // An event reads and writes a handful of words: a short scan of its last ones
    // merges repeats (a bulk copy's words are all new).
    for (uint32_t i = e.last > e.first + 4 ? e.last - 4 : e.first; i < e.last; ++i)
      if (accesses_[i].word == word) {
        accesses_[i].write |= write;
        return;
      }
    accesses_.push_back({word, write});
    ++e.last;
  }
  std::vector<Event> events_;
  std::vector<WordAccess> accesses_;
};

}  // namespace gpulin::sim
