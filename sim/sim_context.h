// The execution context of the simulator (structures/exec/context.h): one class
// for both actor scopes. A block actor is one fiber standing for the whole block
// (block-cooperative loops run their lanes one after the other); a warp actor is
// one fiber standing for a warp's 32 lanes, and when its block's warps share
// shared-memory barriers (the merge), a SimBlock holds them.
//
// Every shared access is a scheduling point, spin-waits park, and recording
// appends to the host recorder. A warp step - the lanes of one for_each_lane, one
// after the other, or one per-lane load, or one barrier operation outside them -
// passes one scheduling point, so a warp's lanes advance together between points;
// arrivals made by the lanes take effect after the step's point.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "histories/recorder.h"
#include "sim/sim_block.h"
#include "sim/simulator.h"
#include "structures/exec/context.h"
#include "structures/exec/counted_word.h"
#include "structures/exec/memory_order.h"
#include "structures/exec/waiting.h"
#include "structures/exec/word_pair.h"

namespace gpulin::sim {

// Where a warp actor sits: its block, the grid's blocks, its index in the block,
// and the block's shared barriers (nullptr when its warps share none).
struct WarpPlace {
  uint64_t block = 0;
  uint64_t blocks = 1;
  uint32_t warp = 0;
  SimBlock* shared = nullptr;
};

class SimContext {
 public:
  // A structure's countable lock words count their holds (structures/exec/
  // counted_word.h) in every simulated run: the schedules explored are those of
  // the GPU's recording kernels, which count them.
  static constexpr bool kCountsHolds = true;
  // A block actor of `threads` threads.
  SimContext(Simulator& sim, uint32_t actor, HostRecorder* recorder, uint32_t threads)
      : sim_(sim), actor_(actor), rec_(recorder), threads_(threads) {}
  // A warp actor.
  SimContext(Simulator& sim, uint32_t actor, HostRecorder* recorder, WarpPlace place)
      : sim_(sim), actor_(actor), rec_(recorder), threads_(32), place_(place) {}

  // ---- shared words, actor-uniform ----------------------------------------
  uint32_t load(uint32_t* p) {
    sim_.point();
    return *p;
  }
  void store(uint32_t* p, uint32_t v) {
    sim_.point();
    write(p, v);
  }
  void store_guarded(uint32_t* p, uint32_t v) { store(p, v); }
  template <class W>
  W cas(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired) {
    static_assert(sizeof(W) == 4 || sizeof(W) == 8, "CAS on 32- or 64-bit words");
    sim_.point();
    const W old = *p;
    if (old == expected) write(p, desired);
    return old;
  }
  uint32_t fetch_add(uint32_t* p, uint32_t v) { return read_modify_write(p, [v](uint32_t o) { return o + v; }); }
  uint32_t fetch_and(uint32_t* p, uint32_t v) { return read_modify_write(p, [v](uint32_t o) { return o & v; }); }
  uint32_t fetch_or(uint32_t* p, uint32_t v) { return read_modify_write(p, [v](uint32_t o) { return o | v; }); }
  // exec::relaxed: the simulator runs every access sequentially consistent.
  template <class W>
  W cas(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, exec::Relaxed) {
    return cas(p, expected, desired);
  }
  template <class W>
  bool cas_won(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, exec::Relaxed) {
    return cas(p, expected, desired) == expected;
  }
  template <class W>
  W cas(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, exec::Acquire) {
    return cas(p, expected, desired);
  }
  uint32_t fetch_add(uint32_t* p, uint32_t v, exec::Relaxed) { return fetch_add(p, v); }
  uint32_t fetch_and(uint32_t* p, uint32_t v, exec::Relaxed) { return fetch_and(p, v); }
  void store(uint32_t* p, uint32_t v, exec::Relaxed) { store(p, v); }
  void wait_while_equals(uint32_t* p, uint32_t seen) { sim_.park(p, seen); }
  void wait_while_equals(uint32_t* p, uint32_t seen, exec::Holding) { sim_.park(p, seen); }
  template <class Done, class... Tags>
  uint32_t cas_until(uint32_t* p, uint32_t from, uint32_t to, Done&& done, Tags...) {
    for (;;) {
      const uint32_t old = cas(p, from, to);
      if (done(old)) return old;
      sim_.park(p, old);
    }
  }
  // The GPU stores `to` without reading; here the word is checked, so that a
  // broken lock explored in the simulator is named where it broke.
  void release(uint32_t* p, uint32_t held, uint32_t to) {
    if (cas(p, held, to) != held) fail("a release found the word changed while its holder held it");
  }
  void release_pair(uint32_t* p, uint32_t* q, uint32_t held, uint32_t to) {
    release(p, held, to);
    release(q, held, to);
  }
  // Counted words (structures/exec/counted_word.h): one point each, the state
  // compared and changed (exec::counted_change: a hold ended adds one).
  template <class... Tags>
  uint32_t cas(uint32_t* p, uint32_t from, uint32_t to, exec::Counted, Tags...) {
    sim_.point();
    const uint32_t old = *p;
    if (exec::counted_state(old) == from) write(p, exec::counted_change(old, to));
    return old;
  }
  template <class Done, class... Tags>
  uint32_t cas_until(uint32_t* p, uint32_t from, uint32_t to, Done&& done, exec::Counted, Tags...) {
    for (;;) {
      const uint32_t old = cas(p, from, to, exec::counted);
      if (done(old)) return old;
      sim_.park(p, old);
    }
  }
  void release(uint32_t* p, uint32_t held, uint32_t to, exec::Counted) {
    sim_.point();
    const uint32_t old = *p;
    if (exec::counted_state(old) != held) fail("a release found the word changed while its holder held it");
    write(p, exec::counted_change(old, to));
  }
  void release_pair(uint32_t* p, uint32_t* q, uint32_t held, uint32_t to, exec::FirstCounted) {
    release(p, held, to, exec::counted);
    release(q, held, to);
  }
  void release_pair(uint32_t* p, uint32_t* q, uint32_t held, uint32_t to, exec::SecondCounted) {
    release(p, held, to);
    release(q, held, to, exec::counted);
  }
  // Two points, p then q (the GPU issues both at once).
  exec::WordPair load_pair(uint32_t* p, uint32_t* q) {
    const uint32_t first = load(p);
    return {first, load(q)};
  }
  // Three points: the two words, then the batch (all guarded by the caller's lock,
  // so no other actor's step falls between them that could tell the orders apart).
  template <class Key>
  exec::WordPair load_block_and_guarded_pair(Key* dst, const Key* src, uint32_t n, uint32_t* p, uint32_t* q) {
    const exec::WordPair w = load_pair(p, q);
    load_block(dst, src, n);
    return w;
  }
  template <class... Tags>  // exec::acquire: the simulator runs every access sequentially consistent
  exec::WordPair cas_pair(uint32_t* p, uint32_t ep, uint32_t dp, uint32_t* q, uint32_t eq, uint32_t dq, Tags...) {
    const uint32_t first = cas(p, ep, dp);
    return {first, cas(q, eq, dq)};
  }

  // ---- shared bulk data, one scheduling point per transfer ------------------
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
  // Collectives (structures/exec/context.h): the GPU's block-wide ones, run serially.
  uint32_t exclusive_sum(const uint32_t* in, uint32_t n, uint32_t* out) {
    uint32_t run = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t v = in[i];
      out[i] = run;
      run += v;
    }
    return run;
  }
  template <class F>
  uint64_t sum_of(uint32_t n, F&& f) {
    uint64_t s = 0;
    for (uint32_t i = 0; i < n; ++i) s += f(i);
    return s;
  }
  template <class F>
  uint64_t min_of(uint32_t n, F&& f) {
    uint64_t m = ~uint64_t{0};
    for (uint32_t i = 0; i < n; ++i) m = std::min<uint64_t>(m, f(i));
    return m;
  }
  template <class F>
  uint64_t kth_smallest(uint32_t n, uint32_t k, F&& f) {
    std::vector<uint64_t> keys(n);
    for (uint32_t i = 0; i < n; ++i) keys[i] = f(i);
    std::nth_element(keys.begin(), keys.begin() + (k - 1), keys.end());
    return keys[k - 1];
  }

  // ---- ids -----------------------------------------------------------------
  uint32_t warp() const { return place_.warp; }
  uint64_t block() const { return place_.block; }
  uint64_t blocks() const { return place_.blocks; }
  uint32_t actor() const { return actor_; }
  bool first_thread() const { return place_.warp == 0; }  // warp 0's fiber stands for thread 0
  bool leader() const { return true; }                    // a fiber is one thread outside for_each_lane

  // ---- lanes of the calling warp ---------------------------------------------
  // Per-thread values across warp steps: 32 lanes' arrays, indexed by the consumer
  // thread's lane (a warp context owns only its own lanes).
  template <class T, uint32_t N>
  struct Regs {
    std::vector<T> v = std::vector<T>(32 * N);
    T* of(uint32_t t) { return v.data() + (t % 32) * N; }
  };
  template <class F>
  void for_each_lane(F&& f) {
    in_lanes_ = true;
    for (uint32_t lane = 0; lane < 32; ++lane) f(lane);
    in_lanes_ = false;
    sim_.point();
    for (uint64_t* bar : lane_arrivals_) shared("arrive").arrive(bar);
    lane_arrivals_.clear();
  }
  void warp_sync() {}
  // Lane `lane`'s register i becomes v (warp-uniform call, registers only).
  template <class T, uint32_t N>
  void set_lane(Regs<T, N>& r, uint32_t lane, uint32_t i, T v) {
    r.of(lane)[i] = v;
  }
  // Lane collectives: the warp's registers only, so no scheduling point. Outside
  // for_each_lane (warp-uniform code), as on the GPU every lane must take part.
  template <class F>
  uint32_t ballot(F&& pred) {
    outside_lanes("ballot");
    uint32_t mask = 0;
    for (uint32_t lane = 0; lane < 32; ++lane)
      if (pred(lane)) mask |= 1u << lane;
    return mask;
  }
  template <class F>
  auto shuffle(F&& value_of, uint32_t src_lane) {
    outside_lanes("shuffle");
    return value_of(src_lane % 32);
  }
  // One word per lane, one scheduling point: the warp reads a 128-byte line in
  // one transaction.
  template <class F>
  void load_lanes(Regs<uint32_t, 1>& dst, F&& src_of) {
    outside_lanes("load_lanes");
    sim_.point();
    for (uint32_t lane = 0; lane < 32; ++lane) dst.of(lane)[0] = *src_of(lane);
  }
  // A prefetch only changes when the GPU's read completes, not what it reads.
  template <class F>
  void prefetch_lanes(F&&) {
    outside_lanes("prefetch_lanes");
  }
  void copy16(void* dst, const void* src) {
    if (reinterpret_cast<uintptr_t>(dst) % 16 != 0 || reinterpret_cast<uintptr_t>(src) % 16 != 0)
      sim_.fault("copy16: misaligned vector access");
    std::memcpy(dst, src, 16);
  }

  // ---- the block's barriers (warp actors whose block shares them) ------------
  void block_sync() {
    outside_lanes("block_sync");
    sim_.point();
    shared("block_sync").block_sync();
  }
  void publish_barrier_init() {}
  void init_barrier(uint64_t* bar, uint32_t count) {
    sim_.point();
    shared("init_barrier").init_barrier(bar, count);
  }
  void expect_bytes(uint64_t* bar, uint32_t n) {
    sim_.point();
    shared("expect_bytes").expect_bytes(bar, n);
  }
  void bulk_load(void* dst, const void* src, uint32_t n, uint64_t* bar) {
    sim_.point();
    shared("bulk_load").bulk_load(dst, src, n, bar);
  }
  void arrive(uint64_t* bar) {
    if (in_lanes_) {
      lane_arrivals_.push_back(bar);
      return;
    }
    sim_.point();
    shared("arrive").arrive(bar);
  }
  void wait(uint64_t* bar, uint32_t parity) {
    outside_lanes("wait");
    sim_.point();
    shared("wait").wait(bar, parity);
  }

  // ---- recording -----------------------------------------------------------
  void begin_op(int64_t op) {
    op_ = op;
    sim_.op_begin();
  }
  void end_op() { sim_.op_end(); }
  void record_acq(int64_t node) {
    if (rec_) rec_->hold(EventKind::Acq, op_, actor_, node);
  }
  // The simulator's recorder orders every event itself: a counted lock's number
  // is not needed.
  void record_acq(int64_t node, uint32_t /*holds_before*/) { record_acq(node); }
  void record_rel(int64_t node) {
    if (rec_) rec_->hold(EventKind::Rel, op_, actor_, node);
  }
  void after_release(int64_t) {}
  void record_lp() {
    if (rec_) rec_->hold(EventKind::Lp, op_, actor_, 0);
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
  template <class W>
  void write(W* p, W v) {
    if (*p == v) return;
    *p = v;
    // Parked actors watch 32-bit words: a 64-bit write changes two.
    const auto* words = reinterpret_cast<const uint32_t*>(p);
    for (size_t i = 0; i < sizeof(W) / sizeof(uint32_t); ++i) sim_.wrote(words + i);
  }
  template <class F>
  uint32_t read_modify_write(uint32_t* p, F&& next) {
    sim_.point();
    const uint32_t old = *p;
    write(p, next(old));
    return old;
  }
  // A collective inside for_each_lane would be divergent: on the GPU a lane
  // waiting for its own warp's later arrival hangs.
  void outside_lanes(const char* what) {
    if (in_lanes_) sim_.fault(std::string(what) + " inside for_each_lane");
  }
  SimBlock& shared(const char* what) {
    if (!place_.shared) sim_.fault(std::string(what) + ": this actor's block shares no barriers");
    return *place_.shared;
  }

  Simulator& sim_;
  uint32_t actor_;
  HostRecorder* rec_;
  uint32_t threads_;
  WarpPlace place_;
  int64_t op_ = 0;
  bool in_lanes_ = false;
  std::vector<uint64_t*> lane_arrivals_;
};

// The contract (structures/exec/context.h), every part of it: one class serves
// block actors and warp actors alike.
static_assert(exec::SharedWords<SimContext>);
static_assert(exec::CountedWords<SimContext>);
static_assert(exec::PairedWords<SimContext>);
static_assert(exec::ActorLoops<SimContext>);
static_assert(exec::BulkData<SimContext>);
static_assert(exec::BlockCollectives<SimContext>);
static_assert(exec::Recording<SimContext>);
static_assert(exec::ActorIds<SimContext>);
static_assert(exec::WarpLanes<SimContext>);
static_assert(exec::BlockBarriers<SimContext>);

}  // namespace gpulin::sim
