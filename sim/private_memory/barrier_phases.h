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
// thread, or several) as two stamps of 64 bits: which code made the access (a
// number that grows at every change of code, so that a phase's stamps are those
// not below its first code's) and which thread. Phases only grow, so nothing is
// reset at a barrier, and a check is a compare or two. Which code a number names
// (the context call and its line, the operation) is kept once per code, not per
// word: only accesses of the current phase can race. The first race ends the run
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

// One access: its code's number (high 32 bits) and its thread (low 32 bits); 0: no
// access yet (numbers start at 1).
using PhaseStamp = uint64_t;

// What a word of private memory saw in its last phases.
struct PhaseShadow {
  PhaseStamp write = 0;
  PhaseStamp read = 0;  // the last read; thread kSeveralThreads when two threads read
};

class BarrierPhases {
 public:
  static constexpr uint32_t kEveryThread = ~0u;
  static constexpr uint32_t kSeveralThreads = ~0u - 1;

  // Which code of the block made an access: kept once per code, for reports.
  struct Code {
    PhaseCode kind = PhaseCode::Uniform;
    memory::SourceSite at;
    int64_t op = 0;
  };
  // The block actor `actor` of `threads` threads, its races reported to `sim`. Its
  // codes are kept in `storage` (the records of an earlier actor's phases, which a
  // runner kept: sim/private_memory/kept_memory.h), each written before it is read.
  BarrierPhases(Simulator& sim, uint32_t actor, uint32_t threads, std::vector<Code> storage = {})
      : sim_(sim), actor_(actor), threads_(threads), codes_(std::move(storage)) {
    room_ = static_cast<uint32_t>(codes_.size());
    if (room_ == 0) grow_codes();  // a phase's first code is kept without a check (barrier)
    barrier({});                   // the actor's start: actor-uniform code, line 0 (no barrier before it)
  }
  // The codes' storage, for a later actor's phases (this one checks nothing after).
  std::vector<Code> take_storage() {
    kept_ = room_ = 0;
    return std::move(codes_);
  }

  // A barrier of the whole block: the next phase begins, in actor-uniform code. Its
  // first code is kept at codes_[0], which always exists: no check of the room
  // left, at every barrier of a schedule.
  [[gnu::always_inline]] void barrier(const memory::SourceSite& at) {
    code_ += kOneCode;
    phase_floor_ = code_;
    codes_[0] = {PhaseCode::Uniform, at, op_};
    kept_ = 1;
    accessed_ = false;
    thread(kEveryThread);
  }
  // Code of one kind (not actor-uniform) begins at `at`; its accesses are made by
  // thread(t)'s thread until the next barrier.
  [[gnu::always_inline]] void enter(PhaseCode kind, const memory::SourceSite& at) {
    code_ += kOneCode;
    if (kept_ == room_) [[unlikely]]
      grow_codes();
    codes_[kept_++] = {kind, at, op_};
  }
  void thread(uint32_t t) { now_ = code_ | t; }
  // The operation the actor is in (history op id), for reports: the running code
  // goes on under a number of its own.
  void set_op(int64_t op) {
    op_ = op;
    const Code running = codes_[kept_ - 1];
    enter(running.kind, running.at);
    thread(thread_of(now_));
  }
  uint32_t threads() const { return threads_; }
  // The running code's number (high 32 bits), for a loop of the context's own that
  // stamps each access with its thread itself (check_read, check_write).
  PhaseStamp code_stamp() const { return code_; }

  // An access to word `index` of private region `region`, checked against the
  // phase's others; the first race ends the run. A block of one thread is never
  // checked (its regions do not call these).
  // `region` by reference: read only to report a race, not at every access.
  [[gnu::always_inline]] void read(PhaseShadow& e, const uint32_t& region, uint64_t index) {
    check_read(e, now_, region, index);
  }
  [[gnu::always_inline]] void write(PhaseShadow& e, const uint32_t& region, uint64_t index) {
    check_write(e, now_, region, index);
  }
  // The same for an access stamped `now`: the running code's number and a thread.
  [[gnu::always_inline]] void check_read(PhaseShadow& e, PhaseStamp now, const uint32_t& region, uint64_t index) {
    accessed_ = true;
    const PhaseStamp floor = phase_floor_;
    if (e.write >= floor && conflict(thread_of(e.write), thread_of(now))) [[unlikely]]
      report(e.write, now, "wrote", "read", region, index);
    const PhaseStamp r = e.read;
    if (r < floor) {
      e.read = now;
    } else if (r != now && thread_of(r) != thread_of(now) && thread_of(r) != kEveryThread) {
      e.read = thread_of(now) == kEveryThread ? now : (now & kCodeBits) | kSeveralThreads;
    }
  }
  [[gnu::always_inline]] void check_write(PhaseShadow& e, PhaseStamp now, const uint32_t& region, uint64_t index) {
    accessed_ = true;
    const PhaseStamp floor = phase_floor_;
    if (e.write >= floor && conflict(thread_of(e.write), thread_of(now))) [[unlikely]]
      report(e.write, now, "wrote", "wrote", region, index);
    if (e.read >= floor && conflict(thread_of(e.read), thread_of(now))) [[unlikely]]
      report(e.read, now, "read", "wrote", region, index);
    e.write = now;
  }
  // Whether no access of the running phase touched words[0, n) in a way that a
  // later access of this phase could race with: no write, and for a later write
  // (`writing`) no read either. Most phases have had no access yet when asked.
  [[gnu::always_inline]] bool untouched(const PhaseShadow* words, size_t n, bool writing) const {
    return !accessed_ || untouched_words(words, n, writing);
  }
  // The same, word by word: reads only, no branch on the words.
  bool untouched_words(const PhaseShadow* words, size_t n, bool writing) const {
    const PhaseStamp floor = phase_floor_;
    const PhaseStamp read_floor = writing ? floor : ~PhaseStamp{0};
    bool touched = false;
    for (size_t i = 0; i < n; ++i) touched |= (words[i].write >= floor) | (words[i].read >= read_floor);
    return !touched;
  }
  // An access outside a private region.
  [[noreturn]] void out_of_bounds(uint32_t region, uint64_t index, uint64_t size);

 private:
  static constexpr PhaseStamp kOneCode = PhaseStamp{1} << 32;
  static constexpr PhaseStamp kCodeBits = ~PhaseStamp{0} << 32;
  static uint32_t thread_of(PhaseStamp s) { return static_cast<uint32_t>(s); }
  // Whether accesses by threads a and b (one a write) race: different threads;
  // every thread (actor-uniform code) against every thread is one value written.
  static bool conflict(uint32_t a, uint32_t b) {
    if (a == kEveryThread && b == kEveryThread) return false;
    return a != b || a == kSeveralThreads;
  }
  [[gnu::cold]] void grow_codes();
  [[noreturn]] void report(PhaseStamp first, PhaseStamp second, const char* first_did, const char* second_did,
                           uint32_t region, uint64_t index);
  std::string describe(PhaseStamp a, const char* did) const;

  Simulator& sim_;
  uint32_t actor_;
  uint32_t threads_;
  int64_t op_ = 0;
  // The running code's number (high 32 bits), the current phase's first code's, and
  // the access now made (the code's number and the running thread). Numbers start at
  // 1, so that a word no phase touched (0) is below every phase.
  PhaseStamp code_ = 0;
  PhaseStamp phase_floor_ = 0;
  PhaseStamp now_ = 0;
  bool accessed_ = false;  // a checked access since the last barrier (untouched)
  // The current phase's codes: codes_[0, kept_), the i-th under number phase_floor_
  // + i, kept as each begins (the vector only grows, so that keeping one is a store).
  std::vector<Code> codes_;
  uint32_t kept_ = 0;
  uint32_t room_ = 0;  // codes_.size(), compared at every code without the vector's arithmetic
};

}  // namespace gpulin::sim
