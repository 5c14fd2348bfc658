// Races between the threads of one block actor in its private memory (shared
// memory on the GPU: a heap operation's scratch), between two barriers.
//
// The simulator runs a block actor as one fiber, so the block's threads take turns
// and never overlap; on the GPU they do, between two barriers. A block's barrier
// phase is the code between two barriers (__syncthreads: every execution-context
// operation that has one on the GPU, cuda/cuda_context.cuh). Within a phase, two
// accesses to one element by different threads, one of them a write, race: nothing
// orders them, whatever the scheduler does (compute-sanitizer's racecheck reports
// the same hazards on the GPU, docs/memory-model.md). Which thread makes an access
// is the GPU's: parallel_for's and a bulk transfer's element i is thread
// i % threads(), a collective's value i likewise (and a recorded event's key i), and
// actor-uniform code - everything outside those - is
// run by every thread of the block. Every thread writing one element in
// actor-uniform code writes one value (the code is actor-uniform), so two such
// accesses are not counted against each other; every other pair of threads is.
//
// Each element of private memory keeps its phase's last write and its reads (one
// thread, or several), so a check costs a few compares; phases only grow, so
// nothing is reset at a barrier. The first race ends the run (Simulator::race),
// both accesses named: which code (the context call, or the actor-uniform code
// after the barrier of a call, by its source line), which thread, which operation.
#pragma once

#include <cstdint>
#include <string>

#include "sim/memory/access_site.h"

namespace gpulin::sim {

class Simulator;

// Which code of a block actor made an access.
enum class PhaseCode : uint8_t {
  Uniform,      // actor-uniform code, run by every thread (at: the barrier before it)
  ParallelFor,  // a parallel_for's body
  BulkLoad,     // a transfer's writes of the keys it loaded (load_block, load_gather, ...)
  BulkStore,    // a transfer's reads of the keys it stores (store_block)
  Collective,   // a collective's reads of its values (exclusive_sum, sum_of, ...)
  Record,       // the recorder's copy of an event's keys
};

// One access, as a race report names it.
struct PhaseAccess {
  uint64_t phase = 0;  // 0: none in any phase yet
  uint32_t thread = 0;
  PhaseCode code = PhaseCode::Uniform;
  memory::SourceSite at;
  int64_t op = 0;
};

// What an element of private memory saw in its last phases.
struct PhaseShadow {
  PhaseAccess write;
  PhaseAccess read;  // the last read; thread kSeveralThreads when two threads read
};

class BarrierPhases {
 public:
  static constexpr uint32_t kEveryThread = ~0u;
  static constexpr uint32_t kSeveralThreads = ~0u - 1;

  // The block actor `actor` of `threads` threads, its races reported to `sim`.
  BarrierPhases(Simulator& sim, uint32_t actor, uint32_t threads) : sim_(sim), actor_(actor), threads_(threads) {}

  // A barrier of the whole block: the next phase begins, in actor-uniform code.
  void barrier(const memory::SourceSite& at) {
    ++phase_;
    code_ = PhaseCode::Uniform;
    at_ = at;
    thread_ = kEveryThread;
  }
  // Code of one kind (not actor-uniform) begins at `at`; its accesses are made by
  // thread(t)'s thread until the next barrier.
  void enter(PhaseCode code, const memory::SourceSite& at) {
    code_ = code;
    at_ = at;
  }
  void thread(uint32_t t) { thread_ = t; }
  // The operation the actor is in (history op id), for reports.
  void set_op(int64_t op) { op_ = op; }
  uint32_t threads() const { return threads_; }

  // An access to word `index` of private region `array`, checked against the
  // phase's others; the first race ends the run.
  void read(PhaseShadow& e, uint32_t array, uint64_t index) {
    if (threads_ > 1 && e.write.phase == phase_ && conflict(e.write.thread, thread_))
      report(e.write, "wrote", now(), "read", array, index);
    if (e.read.phase != phase_) {
      e.read = now();
    } else if (e.read.thread != thread_ && e.read.thread != kEveryThread) {
      e.read = now();
      if (thread_ != kEveryThread) e.read.thread = kSeveralThreads;
    }
  }
  void write(PhaseShadow& e, uint32_t array, uint64_t index) {
    if (threads_ > 1) {
      if (e.write.phase == phase_ && conflict(e.write.thread, thread_))
        report(e.write, "wrote", now(), "wrote", array, index);
      if (e.read.phase == phase_ && conflict(e.read.thread, thread_))
        report(e.read, "read", now(), "wrote", array, index);
    }
    e.write = now();
  }
  // An access outside a private region.
  [[noreturn]] void out_of_bounds(uint32_t array, uint64_t index, uint64_t size);

 private:
  // Whether accesses by threads a and b (one a write) race: different threads;
  // every thread (actor-uniform code) against every thread is one value written.
  static bool conflict(uint32_t a, uint32_t b) {
    if (a == kEveryThread && b == kEveryThread) return false;
    return a != b || a == kSeveralThreads;
  }
  PhaseAccess now() const { return {phase_, thread_, code_, at_, op_}; }
  [[noreturn]] void report(const PhaseAccess& first, const char* first_did, const PhaseAccess& second,
                           const char* second_did, uint32_t array, uint64_t index);
  std::string describe(const PhaseAccess& a, const char* did) const;

  Simulator& sim_;
  uint32_t actor_;
  uint32_t threads_;
  uint64_t phase_ = 1;
  uint32_t thread_ = kEveryThread;
  PhaseCode code_ = PhaseCode::Uniform;
  memory::SourceSite at_{};
  int64_t op_ = 0;
};

}  // namespace gpulin::sim
