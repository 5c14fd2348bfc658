// The execution context of the simulator (structures/exec/context.h): every shared
// access is a scheduling point, spin-waits park, block-cooperative loops run their
// lanes one after the other, and recording appends to the host recorder.
#pragma once

#include <algorithm>
#include <cstdint>

#include "histories/recorder.h"
#include "sim/simulator.h"

namespace gpulin::sim {

class SimContext {
 public:
  SimContext(Simulator& sim, uint32_t actor, HostRecorder* recorder, uint32_t threads)
      : sim_(sim), actor_(actor), rec_(recorder), threads_(threads) {}

  uint32_t load(uint32_t* p) {
    sim_.point();
    return *p;
  }
  void store(uint32_t* p, uint32_t v) {
    sim_.point();
    write(p, v);
  }
  void store_guarded(uint32_t* p, uint32_t v) { store(p, v); }
  uint32_t cas(uint32_t* p, uint32_t expected, uint32_t desired) {
    sim_.point();
    const uint32_t old = *p;
    if (old == expected) write(p, desired);
    return old;
  }
  uint32_t fetch_add(uint32_t* p, uint32_t v) {
    sim_.point();
    const uint32_t old = *p;
    write(p, old + v);
    return old;
  }
  void wait_while_equals(uint32_t* p, uint32_t seen) { sim_.park(p, seen); }

  template <class Key>
  void load_block(Key* dst, const Key* src, uint32_t n) {
    sim_.point();
    std::copy_n(src, n, dst);
  }
  template <class Key>
  void load_two_blocks(Key* dst, const Key* src_a, const Key* src_b, uint32_t n) {
    load_block(dst, src_a, n);
    load_block(dst + n, src_b, n);
  }
  template <class Key, class F>
  void load_gather(Key* dst, uint32_t n, F&& src_of) {
    sim_.point();
    for (uint32_t i = 0; i < n; ++i) dst[i] = *src_of(i);
  }
  template <class Key>
  void store_block(Key* dst, const Key* src, uint32_t n) {
    sim_.point();
    std::copy_n(src, n, dst);
  }

  template <class F>
  void parallel_for(uint32_t n, F&& f) {
    for (uint32_t i = 0; i < n; ++i) f(i);
  }
  uint32_t threads() const { return threads_; }

  void begin_op(int64_t op) {
    op_ = op;
    sim_.op_begin();
  }
  void end_op() { sim_.op_end(); }

  void record_acq(int64_t node) {
    if (rec_) rec_->hold(EventKind::Acq, op_, actor_, node);
  }
  void record_rel(int64_t node) {
    if (rec_) rec_->hold(EventKind::Rel, op_, actor_, node);
  }
  template <class Key>
  void record_inv(uint32_t fn, const Key* args, uint32_t n) {
    if (rec_) rec_->inv(op_, actor_, fn, args, n);
  }
  template <class Key>
  void record_ret(const Key* res, uint32_t n, bool is_null) {
    if (rec_) rec_->ret(op_, actor_, res, n, is_null);
  }
  [[noreturn]] void fail(const char* what) { sim_.fault(what); }

 private:
  void write(uint32_t* p, uint32_t v) {
    if (*p == v) return;
    *p = v;
    sim_.wrote(p);
  }

  Simulator& sim_;
  uint32_t actor_;
  HostRecorder* rec_;
  uint32_t threads_;
  int64_t op_ = 0;
};

}  // namespace gpulin::sim
