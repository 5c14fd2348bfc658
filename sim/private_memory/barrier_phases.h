// Races between the threads of one block actor in its private memory (shared
// memory on the GPU: a heap operation's scratch), between two barriers.
//
// The simulator runs a block actor as one fiber, so the block's threads take turns
// and never overlap; on the GPU they do, between two barriers. A block's barrier
// phase is the code between two barriers (__syncthreads: every execution-context
// operation that has one on the GPU, cuda/cuda_context.cuh). Within a phase, two
// accesses to one word by different threads, one of them a write, race: nothing
// orders them, whatever the scheduler does (compute-sanitizer's racecheck reports
// the same hazards on the GPU, docs/memory-model.md). Which thread makes an access
// is the GPU's: parallel_for's and a bulk transfer's element i is thread
// i % threads(), a collective's value i likewise (and a recorded event's key i), and
// actor-uniform code - everything outside those - is run by every thread of the
// block. Every thread writing one word in actor-uniform code writes one value (the
// code is actor-uniform), so two such accesses are not counted against each other;
// every other pair of threads is.
//
// Each word of private memory keeps its phase's last write and its reads (one
// thread, or several): 24 bytes, a few compares an access; phases only grow, so
// nothing is reset at a barrier. Which code made an access (the context call and
// its line, the operation) is kept once per phase and code, not per word: only
// accesses of the current phase can race. The first race ends the run
// (Simulator::race), both accesses named.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

// One access: its phase, its thread, and which code of the phase made it (an index
// into BarrierPhases' codes of the current phase).
struct PhaseAccess {
  uint32_t phase = 0;  // 0: none in any phase yet
  uint32_t thread = 0;
  uint32_t code = 0;
};

// What a word of private memory saw in its last phases.
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
    kept_ = 0;
    next_code(PhaseCode::Uniform, at);
    thread_ = kEveryThread;
  }
  // Code of one kind (not actor-uniform) begins at `at`; its accesses are made by
  // thread(t)'s thread until the next barrier.
  void enter(PhaseCode code, const memory::SourceSite& at) { next_code(code, at); }
  void thread(uint32_t t) { thread_ = t; }
  // The operation the actor is in (history op id), for reports.
  void set_op(int64_t op) {
    pending_.op = op;
    code_ = kNoCode;
  }
  uint32_t threads() const { return threads_; }

  // An access to word `index` of private region `region`, checked against the
  // phase's others; the first race ends the run.
  [[gnu::always_inline]] void read(PhaseShadow& e, uint32_t region, uint64_t index) {
    if (threads_ < 2) return;
    if (e.write.phase == phase_ && conflict(e.write.thread, thread_))
      report(e.write, "wrote", "read", region, index);
    if (e.read.phase != phase_) {
      e.read = now();
    } else if (e.read.thread != thread_ && e.read.thread != kEveryThread) {
      e.read = now();
      if (thread_ != kEveryThread) e.read.thread = kSeveralThreads;
    }
  }
  [[gnu::always_inline]] void write(PhaseShadow& e, uint32_t region, uint64_t index) {
    if (threads_ < 2) return;
    if (e.write.phase == phase_ && conflict(e.write.thread, thread_))
      report(e.write, "wrote", "wrote", region, index);
    if (e.read.phase == phase_ && conflict(e.read.thread, thread_)) report(e.read, "read", "wrote", region, index);
    e.write = now();
  }
  // An access outside a private region.
  [[noreturn]] void out_of_bounds(uint32_t region, uint64_t index, uint64_t size);

 private:
  static constexpr uint32_t kNoCode = ~0u;
  struct Code {
    PhaseCode kind = PhaseCode::Uniform;
    memory::SourceSite at;
    int64_t op = 0;
  };
  // Whether accesses by threads a and b (one a write) race: different threads;
  // every thread (actor-uniform code) against every thread is one value written.
  static bool conflict(uint32_t a, uint32_t b) {
    if (a == kEveryThread && b == kEveryThread) return false;
    return a != b || a == kSeveralThreads;
  }
  void next_code(PhaseCode kind, const memory::SourceSite& at) {
    pending_.kind = kind;
    pending_.at = at;
    code_ = kNoCode;
  }
  // The current code's index, kept the first time one of its accesses needs it.
  [[gnu::always_inline]] PhaseAccess now() {
    if (code_ == kNoCode) [[unlikely]]
      keep_code();
    return {phase_, thread_, code_};
  }
  // Once per code and phase, from every access site: a leaf, its growth apart.
  [[gnu::always_inline]] void keep_code() {
    if (kept_ == codes_.size()) [[unlikely]]
      grow_codes();
    code_ = kept_;
    codes_[kept_++] = pending_;
  }
  [[gnu::cold]] void grow_codes();
  [[noreturn]] void report(const PhaseAccess& first, const char* first_did, const char* second_did, uint32_t region,
                           uint64_t index);
  std::string describe(const PhaseAccess& a, const char* did) const;

  Simulator& sim_;
  uint32_t actor_;
  uint32_t threads_;
  uint32_t phase_ = 1;
  uint32_t thread_ = kEveryThread;
  Code pending_;                // the code now running (kept in codes_ once accessed)
  uint32_t code_ = kNoCode;     // its index in codes_, or none yet
  // The current phase's codes that made an access: codes_[0, kept_) (the vector only
  // grows, so that keeping one is a store).
  std::vector<Code> codes_;
  uint32_t kept_ = 0;
};

}  // namespace gpulin::sim
