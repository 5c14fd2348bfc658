// The happens-before order of a logged run (event_log.h) as vector clocks, its races,
// and the identity of its Mazurkiewicz trace.
//
// Event j happens before event k when j == k or a chain of program order and
// dependent pairs leads from j to k. Two runs are equivalent (one Mazurkiewicz trace)
// when one reorders the other's independent adjacent events; equivalent runs have
// the same events with the same clocks, so `fingerprint`, an order-free sum over the
// events, names the trace. Awaits (EventLog::is_await: a failed attempt that parked
// to be retried) are not events of the trace: two runs that differ only in where an
// actor found a lock held and waited are one trace. An await still gets a clock,
// and is the later event of races (its actor could have gone before the write it
// read: the lock taken first), never the earlier one.
//
// A race (Abdulla et al., "Optimal dynamic partial order reduction", POPL 2014, §3):
// events i < j of different actors, dependent, with i happening before j only
// through their own dependence - no other event lies between them in the order. Its
// reversal (j's actor running first) is a different trace.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/trace/event_log.h"

namespace gpulin::sim {

class TraceClocks {
 public:
  // `races`: collect the races too (partial-order reduction); else only the clocks
  // and the fingerprint (coverage).
  TraceClocks(const EventLog& log, uint32_t actors, bool races) { compute(log, actors, races); }
  TraceClocks() = default;
  // Again for another run, reusing the memory (a strategy's runs, one after another).
  void compute(const EventLog& log, uint32_t actors, bool races);

  // Event k's clock: for each actor q, how many of q's visible events (those that
  // touched a word or recorded) happen before k (k itself counted for its own
  // actor). An event that touched nothing counts as its actor's next visible one.
  const uint32_t* clock(size_t k) const { return clocks_.data() + k * actors_; }
  // Event k's index among its actor's events.
  uint32_t local(size_t k) const { return local_[k]; }
  // Event j happens before event k (j <= k in the run).
  bool before(size_t j, size_t k) const { return clock(k)[actor_[j]] > local_[j]; }
  const std::vector<std::pair<uint32_t, uint32_t>>& races() const { return races_; }
  uint64_t fingerprint() const { return fingerprint_; }

 private:
  uint32_t actors_ = 0;
  std::vector<uint32_t> clocks_;
  std::vector<uint32_t> local_;
  std::vector<uint32_t> actor_;
  std::vector<std::pair<uint32_t, uint32_t>> races_;
  uint64_t fingerprint_ = 0;
};

}  // namespace gpulin::sim
