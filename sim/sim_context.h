// The execution context of the simulator (structures/exec/context.h): one class
// for both actor scopes. A block actor is one fiber standing for the whole block
// (block-cooperative loops run their lanes one after the other); a warp actor is
// one fiber standing for a warp's 32 lanes, and when its block's warps share
// shared-memory barriers (the merge), a SimBlock holds them.
//
// Every shared access is a scheduling point, spin-waits park, and recording
// appends to the host recorder. Under the ptx memory mode (Simulator::memory())
// each access also goes through the memory model with the order and scope the
// GPU's access has, and a load may read an older store. A warp step - the lanes
// of one for_each_lane, one after the other, or one per-lane load, or one barrier
// operation outside them - passes one scheduling point, so a warp's lanes advance
// together between points; arrivals made by the lanes take effect after the
// step's point.
//
// A block actor's private memory (the GPU's shared memory: Private<T>, made by
// private_array or private_view) is checked for races between the block's
// threads within each barrier phase (sim/private_memory/barrier_phases.h), under
// every memory mode:
// each operation that has a barrier of the block on the GPU (cuda/cuda_context.cuh)
// ends a phase here, and the accesses inside parallel_for, the transfers and the
// collectives are made by the thread the GPU gives each index.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "histories/recorder.h"
#include "sim/memory/model_memory.h"
#include "sim/private_memory/barrier_phases.h"
#include "sim/private_memory/kept_memory.h"
#include "sim/private_memory/private_ptr.h"
#include "sim/sim_block.h"
#include "sim/simulator.h"
#include "structures/exec/context.h"
#include "structures/exec/counted_word.h"
#include "structures/exec/memory_order.h"
#include "structures/exec/private_memory.h"
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
  // The source line of a call into the context.
  using Site = memory::SourceSite;
  // A word and its caller's line, for the operations whose trailing tags leave no
  // room for a defaulted `at`: made implicitly from the word at the call.
  struct WordAt {
    WordAt(uint32_t* p, Site at = Site::here()) : word(p), at(at) {}  // NOLINT: implicit by design
    uint32_t* word;
    Site at;
  };
  // A structure's countable lock words count their holds (structures/exec/
  // counted_word.h) in every simulated run: the schedules explored are those of
  // the GPU's recording kernels, which count them.
  static constexpr bool kCountsHolds = true;
  // A block actor of `threads` threads.
  SimContext(Simulator& sim, uint32_t actor, HostRecorder* recorder, uint32_t threads)
      : SimContext(sim, actor, recorder, threads, nullptr) {}
  // The same, its private memory made in the storage its runner keeps across runs
  // (sim/private_memory/kept_memory.h), which it gives back at its end.
  SimContext(Simulator& sim, uint32_t actor, HostRecorder* recorder, uint32_t threads, KeptPrivateMemory& keep)
      : SimContext(sim, actor, recorder, threads, &keep) {}
  ~SimContext() {
    if (!keep_) return;
    // The regions made this run in their order, then any kept one it did not make.
    for (auto& r : spare_)
      if (r) regions_.push_back(std::move(r));
    keep_->regions = std::move(regions_);
    keep_->codes = phases_->take_storage();
  }
  SimContext(const SimContext&) = delete;
  SimContext& operator=(const SimContext&) = delete;
  // A warp actor.
  SimContext(Simulator& sim, uint32_t actor, HostRecorder* recorder, WarpPlace place)
      : sim_(sim), actor_(actor), rec_(recorder), threads_(32), place_(place) {
    sim_.uses_recorder(recorder);
    if (memory::ModelMemory* m = sim_.memory()) m->place(actor_, {static_cast<uint32_t>(place.block), 0});
    if (place.shared) place.shared->lanes().attach(actor, place.warp);
  }
  // An actor that is a block of `block_threads` threads on the GPU (its private
  // memory checked per barrier phase) and shares barriers with the other actors
  // through `place` (P-Sync's step actors: one block each, a grid-wide barrier
  // between steps).
  SimContext(Simulator& sim, uint32_t actor, HostRecorder* recorder, WarpPlace place, uint32_t block_threads)
      : SimContext(sim, actor, recorder, place) {
    threads_ = block_threads;
    phases_.emplace(sim, actor, block_threads);
    checked_ = block_threads >= 2;
  }

  // How the actor's accesses are ordered under the ptx memory mode (nothing
  // changes under sc): as the structure asks (the GPU's), or with every ordering
  // dropped - each word access relaxed and each batch access weak, as code written
  // with plain atomicCAS and plain loads and stores is - and then optionally a
  // fence.sc.gpu on either side of every word access (the heap's ordering mutants,
  // structures/gheap/config.h).
  enum class Orders { AsWritten, Dropped, DroppedFenced };
  void set_orders(Orders o) { orders_ = o; }

  // ---- shared words, actor-uniform ----------------------------------------
  // Under the ptx memory mode each access has the order and scope the GPU's gives
  // it (cuda/cuda_context.cuh: device scope; a load acquires, a store releases, a
  // read-modify-write does both, exec::relaxed neither, exec::acquire only the
  // first); under sc every access reads and writes the word itself. Every access
  // takes its caller's source line (`at`, filled in by the compiler: a structure
  // never passes it; an operation with trailing tags takes it with its first
  // word, WordAt), which race reports name.
  uint32_t load(uint32_t* p, Site at = Site::here()) {
    sim_.point();
    barrier(at);
    return read_word(p, Order::Acquire, at);
  }
  void store(uint32_t* p, uint32_t v, Site at = Site::here()) {
    sim_.point();
    barrier(at);
    put_word(p, v, Order::Release, at);
  }
  // Guarded by the caller's lock, whose release publishes it: relaxed.
  void store_guarded(uint32_t* p, uint32_t v, Site at = Site::here()) {
    sim_.point();
    put_word(p, v, Order::Relaxed, at);
  }
  template <class W>
  W cas(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, Site at = Site::here()) {
    return cas_ordered(p, expected, desired, Order::AcqRel, at);
  }
  uint32_t fetch_add(uint32_t* p, uint32_t v, Site at = Site::here()) {
    return read_modify_write(p, Order::AcqRel, at, [v](uint32_t o) { return o + v; });
  }
  uint32_t fetch_and(uint32_t* p, uint32_t v, Site at = Site::here()) {
    return read_modify_write(p, Order::AcqRel, at, [v](uint32_t o) { return o & v; });
  }
  uint32_t fetch_or(uint32_t* p, uint32_t v, Site at = Site::here()) {
    return read_modify_write(p, Order::AcqRel, at, [v](uint32_t o) { return o | v; });
  }
  template <class W>
  W cas(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, exec::Relaxed,
        Site at = Site::here()) {
    return cas_ordered(p, expected, desired, Order::Relaxed, at);
  }
  template <class W>
  bool cas_won(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, exec::Relaxed,
               Site at = Site::here()) {
    return cas_ordered(p, expected, desired, Order::Relaxed, at) == expected;
  }
  template <class W>
  W cas(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, exec::Acquire,
        Site at = Site::here()) {
    return cas_ordered(p, expected, desired, Order::Acquire, at);
  }
  template <class W>
  W cas(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, exec::Release,
        Site at = Site::here()) {
    return cas_ordered(p, expected, desired, Order::Release, at);
  }
  uint32_t fetch_add(uint32_t* p, uint32_t v, exec::Relaxed, Site at = Site::here()) {
    return read_modify_write(p, Order::Relaxed, at, [v](uint32_t o) { return o + v; });
  }
  uint32_t fetch_and(uint32_t* p, uint32_t v, exec::Relaxed, Site at = Site::here()) {
    return read_modify_write(p, Order::Relaxed, at, [v](uint32_t o) { return o & v; });
  }
  void store(uint32_t* p, uint32_t v, exec::Relaxed, Site at = Site::here()) {
    sim_.point();
    put_word(p, v, Order::Relaxed, at);
  }
  uint32_t load(uint32_t* p, exec::Relaxed, Site at = Site::here()) {
    sim_.point();
    barrier(at);  // the leader's load, broadcast
    return read_word(p, Order::Relaxed, at);
  }
  // The simulator parks on the word itself (its newest store): under ptx the
  // caller's next load may still read an older one, a bounded number of times
  // (memory::ModelMemory::kStaleRereads). A wait is a retry (exec/context.h): the
  // step that parked is an await, left out of traces; exec::keeps_seen says the
  // caller goes on with the value it saw, so the step is an ordinary one.
  void wait_while_equals(uint32_t* p, uint32_t seen, Site at = Site::here()) {
    sim_.park(p, seen, false, /*retry=*/true);
    barrier(at);
  }
  void wait_while_equals(uint32_t* p, uint32_t seen, exec::Holding, Site at = Site::here()) {
    sim_.park(p, seen, false, /*retry=*/true);
    barrier(at);
  }
  void wait_while_equals(uint32_t* p, uint32_t seen, exec::KeepsSeen, Site at = Site::here()) {
    sim_.park(p, seen);
    barrier(at);
  }
  template <class Done, class... Tags>
  uint32_t cas_until(WordAt p, uint32_t from, uint32_t to, Done&& done, Tags...) {
    constexpr Order order = tags_order<Tags...>();
    for (;;) {
      const uint32_t old = cas_ordered(p.word, from, to, order, p.at);
      if (done(old)) return old;
      sim_.park(p.word, old, false, /*retry=*/true);  // the same CAS again: an await
    }
  }
  // The GPU stores `to` without reading; here the word is checked, so that a
  // broken lock explored in the simulator is named where it broke (under ptx a
  // release read-modify-write: it reads the newest store, as the holder's own
  // word's last store is).
  void release(uint32_t* p, uint32_t held, uint32_t to, Site at = Site::here()) {
    if (cas_ordered(p, held, to, Order::Release, at) != held) fail("a release found the word changed while its holder held it");
  }
  // The GPU's release pattern: one release fence, then both words relaxed.
  void release_pair(uint32_t* p, uint32_t* q, uint32_t held, uint32_t to, Site at = Site::here()) {
    release_fence(at);
    if (cas_ordered(p, held, to, Order::Relaxed, at) != held || cas_ordered(q, held, to, Order::Relaxed, at) != held)
      fail("a release found the word changed while its holder held it");
  }
  // Counted words (structures/exec/counted_word.h): one point each, the state
  // compared and changed (exec::counted_change: a hold ended adds one).
  template <class... Tags>
  uint32_t cas(WordAt p, uint32_t from, uint32_t to, exec::Counted, Tags...) {
    constexpr Order order = tags_order<Tags...>();
    return counted_cas(p.word, from, to, order, p.at);
  }
  template <class Done, class... Tags>
  uint32_t cas_until(WordAt p, uint32_t from, uint32_t to, Done&& done, exec::Counted, Tags...) {
    constexpr Order order = tags_order<Tags...>();
    for (;;) {
      const uint32_t old = counted_cas(p.word, from, to, order, p.at);
      if (done(old)) return old;
      sim_.park(p.word, old, false, /*retry=*/true);  // the same CAS again: an await
    }
  }
  // The GPU adds to the word with release order.
  void release(uint32_t* p, uint32_t held, uint32_t to, exec::Counted, Site at = Site::here()) {
    counted_release(p, held, to, Order::Release, at);
  }
  void release_pair(uint32_t* p, uint32_t* q, uint32_t held, uint32_t to, exec::FirstCounted,
                    Site at = Site::here()) {
    release_fence(at);
    counted_release(p, held, to, Order::Relaxed, at);
    if (cas_ordered(q, held, to, Order::Relaxed, at) != held) fail("a release found the word changed while its holder held it");
  }
  void release_pair(uint32_t* p, uint32_t* q, uint32_t held, uint32_t to, exec::SecondCounted,
                    Site at = Site::here()) {
    release_fence(at);
    if (cas_ordered(p, held, to, Order::Relaxed, at) != held) fail("a release found the word changed while its holder held it");
    counted_release(q, held, to, Order::Relaxed, at);
  }
  // Two points, p then q (the GPU issues both at once).
  exec::WordPair load_pair(uint32_t* p, uint32_t* q, Site at = Site::here()) {
    const uint32_t first = load(p, at);
    return {first, load(q, at)};
  }
  exec::WordPair load_pair(uint32_t* p, uint32_t* q, exec::Relaxed, Site at = Site::here()) {
    const uint32_t first = load(p, exec::relaxed, at);
    return {first, load(q, exec::relaxed, at)};
  }
  // Three points: the two words, then the batch (all guarded by the caller's lock,
  // so no other actor's step falls between them that could tell the orders apart).
  // The GPU loads all of them relaxed: the lock's acquire ordered them.
  template <class Dst>
  exec::WordPair load_block_and_guarded_pair(Dst dst, const exec::private_element_t<Dst>* src, uint32_t n, uint32_t* p,
                                             uint32_t* q, Site at = Site::here()) {
    sim_.point();
    const uint32_t first = read_word(p, Order::Relaxed, at);
    sim_.point();
    const exec::WordPair w{first, read_word(q, Order::Relaxed, at)};
    load_block(dst, src, n, at);
    return w;
  }
  template <class... Tags>
  exec::WordPair cas_pair(WordAt p, uint32_t ep, uint32_t dp, uint32_t* q, uint32_t eq, uint32_t dq, Tags...) {
    constexpr Order order = tags_order<Tags...>();
    const uint32_t first = cas_ordered(p.word, ep, dp, order, p.at);
    return {first, cas_ordered(q, eq, dq, order, p.at)};
  }

  // ---- shared bulk data, one scheduling point per transfer ------------------
  // Relaxed device-scope loads and stores on the GPU, one per key; key i is
  // thread i % threads()'s, and a barrier ends the transfer (the destination or
  // source is private memory: Dst, Src).
  template <class Dst>
  void load_block(Dst dst, const exec::private_element_t<Dst>* src, uint32_t n, Site at = Site::here()) {
    lands_in_private_memory<Dst>();
    sim_.point();
    fill_private(PhaseCode::BulkLoad, at, dst, n, [&](uint32_t i) { return read_bulk(src + i, at); });
  }
  // One transfer on the GPU (one barrier), two points here.
  template <class Dst>
  void load_two_blocks(Dst dst, const exec::private_element_t<Dst>* src_a, const exec::private_element_t<Dst>* src_b,
                       uint32_t n, Site at = Site::here()) {
    lands_in_private_memory<Dst>();
    sim_.point();
    if (n == 0) sim_.point();
    fill_private(PhaseCode::BulkLoad, at, dst, 2 * n, [&](uint32_t i) {
      if (i == n) sim_.point();  // the second batch's
      return read_bulk(i < n ? src_a + i : src_b + (i - n), at);
    });
  }
  template <class Dst, class F>
  void load_gather(Dst dst, uint32_t n, F&& src_of, Site at = Site::here()) {
    lands_in_private_memory<Dst>();
    sim_.point();
    by_threads(PhaseCode::BulkLoad, at, n, [&](uint32_t i) { dst[i] = read_bulk(src_of(i), at); });
  }
  template <class Src>
  void store_block(exec::private_element_t<Src>* dst, Src src, uint32_t n, Site at = Site::here()) {
    sim_.point();
    using Key = exec::private_element_t<Src>;
    if constexpr (std::is_same_v<Src, Private<Key>>) {
      if (unraced(src, n, /*writing=*/false)) {
        const Key* from = src.get();
        for (uint32_t i = 0; i < n; ++i) put_bulk(dst + i, from[i], at);
        phases_->barrier(at);
        return;
      }
    }
    by_threads(PhaseCode::BulkStore, at, n, [&](uint32_t i) { put_bulk(dst + i, static_cast<Key>(src[i]), at); });
  }
  template <class F>
  void parallel_for(uint32_t n, F&& f, Site at = Site::here()) {
    by_threads(PhaseCode::ParallelFor, at, n, f);
  }
  uint32_t threads() const { return threads_; }
  // merge_path::block_copy's parallel_for of dst[i] = src[i], in one pass: the same
  // accesses by the same threads (index i by thread i % threads()), checked in the
  // same order, then the barrier; each array's state is read once for the loop
  // (PrivateRun) rather than at each element. Where the arrays share no word and
  // the phase left them untouched, nothing is checked (unraced). A warp actor's
  // copy, or one from or into memory checked by lanes' clocks, is the parallel_for
  // itself.
  template <class D, class S>
  void copy_private(PrivatePtr<D> dst, S src, uint32_t n, Site at = Site::here()) {
    if (!checked_by_phases(dst) || !checked_by_phases(src)) {
      parallel_for(n, [&](uint32_t i) { dst[i] = src[i]; }, at);
      return;
    }
    if (unraced(dst, n, /*writing=*/true) && unraced(src, n, /*writing=*/false) && apart(dst, src, n)) {
      D* to = dst.get();
      const auto* from = raw(src);
      for (uint32_t i = 0; i < n; ++i) to[i] = static_cast<D>(from[i]);
      phases_->barrier(at);
      return;
    }
    phases_->enter(PhaseCode::ParallelFor, at);
    const PrivateRun<D> to(dst);
    const auto from = run_of(src);
    const PhaseStamp code = phases_->code_stamp();
    for (uint32_t i = 0, t = 0; i < n; ++i) {  // t = i % threads(), without a division
      to.write(i, static_cast<D>(read_run(from, i, code | t)), code | t);
      if (++t == threads_) t = 0;
    }
    phases_->barrier(at);
  }
  // The actor's private memory, checked for races between the block's threads: n
  // elements of T the context owns, or memory the structure laid out (a scratch in
  // global memory only this actor uses) viewed as such. Views of memory inside an
  // earlier view share its phases. A warp actor whose block shares barriers views
  // the block's shared memory, checked against the lanes' clocks (SimBlock); its
  // private_array is unchecked.
  template <class T>
  using Private = PrivatePtr<T>;
  template <class T>
  Private<T> private_array(size_t n) {
    PrivateRegion* r = make_region(nullptr, (n * sizeof(T) + 3) / 4);
    r->owned.assign(r->words + 1, 0u);  // one word more: 8-byte aligned below
    uint32_t* at = r->owned.data();
    r->base = reinterpret_cast<std::byte*>(at + (reinterpret_cast<uintptr_t>(at) % 8 ? 1 : 0));
    return Private<T>(r, reinterpret_cast<T*>(r->base));
  }
  template <class T>
  Private<T> private_view(T* base, size_t n) {
    if (place_.shared && !phases_) return place_.shared->private_view(base, n);
    const auto* lo = reinterpret_cast<const std::byte*>(base);
    for (const auto& r : regions_)
      if (lo >= r->base && lo + n * sizeof(T) <= r->base + r->words * 4) return Private<T>(r.get(), base);
    return Private<T>(make_region(reinterpret_cast<std::byte*>(base), (n * sizeof(T) + 3) / 4), base);
  }
  // Collectives (structures/exec/context.h): the GPU's block-wide ones, run
  // serially; value i is read by the thread the GPU's reads it (a barrier ends each).
  template <class In, class Out>
  uint32_t exclusive_sum(In in, uint32_t n, Out out, Site at = Site::here()) {
    // cuda/block_collectives.cuh: thread t sums its run of `per` values, a barrier,
    // then writes their prefixes over them.
    const uint32_t per = (n + threads_ - 1) / threads_;
    by_threads(PhaseCode::Collective, at, n, [&](uint32_t i) { (void)static_cast<uint32_t>(in[i]); }, per);
    uint32_t run = 0;
    by_threads(PhaseCode::Collective, at, n, [&](uint32_t i) {
      const uint32_t v = in[i];
      out[i] = run;
      run += v;
    }, per);
    return run;
  }
  // value(i) is taken once, by the thread that owns i in the first phase (the GPU
  // evaluates each index once, in the tile that holds it).
  template <class F, class Out>
  uint64_t exclusive_sum_of(uint32_t n, F&& value, Out out, Site at = Site::here()) {
    const uint32_t per = (n + threads_ - 1) / threads_;
    values_.resize(n);
    by_threads(PhaseCode::Collective, at, n, [&](uint32_t i) { values_[i] = static_cast<uint64_t>(value(i)); }, per);
    uint64_t run = 0;
    by_threads(PhaseCode::Collective, at, n, [&](uint32_t i) {
      out[i] = run;
      run += values_[i];
    }, per);
    return run;
  }
  template <class F>
  uint64_t sum_of(uint32_t n, F&& f, Site at = Site::here()) {
    uint64_t s = 0;
    by_threads(PhaseCode::Collective, at, n, [&](uint32_t i) { s += f(i); });
    return s;
  }
  template <class F>
  uint64_t min_of(uint32_t n, F&& f, Site at = Site::here()) {
    uint64_t m = ~uint64_t{0};
    by_threads(PhaseCode::Collective, at, n, [&](uint32_t i) { m = std::min<uint64_t>(m, f(i)); });
    return m;
  }
  template <class F>
  uint64_t kth_smallest(uint32_t n, uint32_t k, F&& f, Site at = Site::here()) {
    std::vector<uint64_t> keys(n);
    by_threads(PhaseCode::Collective, at, n, [&](uint32_t i) { keys[i] = f(i); });
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
  // The actor's lanes: a warp's 32, or a tile of 16 or 8 lanes of a warp that runs
  // as an actor of its own (structures/slab_hash/slab_lanes.h); set before it runs.
  void set_lanes(uint32_t lanes) {
    if (lanes != 32 && lanes != 16 && lanes != 8) sim_.fault("set_lanes: an actor has 32, 16 or 8 lanes");
    lanes_ = lanes;
  }
  uint32_t lanes() const { return lanes_; }
  // Per-thread values across warp steps: 32 lanes' arrays, indexed by the consumer
  // thread's lane (a warp context owns only its own lanes).
  template <class T, uint32_t N>
  struct Regs {
    std::vector<T> v = std::vector<T>(32 * N);
    T* of(uint32_t t) { return v.data() + (t % 32) * N; }
  };
  template <class F>
  void for_each_lane(F&& f, Site at = Site::here()) {
    LaneClocks* clocks = lane_clocks();
    if (clocks) clocks->code(actor_, LaneCode::Lanes, at);
    in_lanes_ = true;
    for (uint32_t lane = 0; lane < lanes_; ++lane) {
      if (clocks) clocks->lane(actor_, lane);
      f(lane);
    }
    in_lanes_ = false;
    if (clocks) {
      clocks->lane(actor_, 0);
      clocks->code(actor_, LaneCode::Uniform, at);
    }
    sim_.point();
    for (uint64_t* bar : lane_arrivals_) shared("arrive").count_arrival(bar);
    lane_arrivals_.clear();
  }
  // The warp's lanes join one another's clocks (a warp is one fiber: no point).
  void warp_sync(Site at = Site::here()) {
    if (LaneClocks* clocks = lane_clocks()) {
      clocks->warp_sync(actor_);
      clocks->code(actor_, LaneCode::Uniform, at);
    }
  }
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
    for (uint32_t lane = 0; lane < lanes_; ++lane)
      if (pred(lane)) mask |= 1u << lane;
    return mask;
  }
  template <class F>
  auto shuffle(F&& value_of, uint32_t src_lane) {
    outside_lanes("shuffle");
    return value_of(src_lane % lanes_);
  }
  // One word per lane, one scheduling point: the warp reads a 128-byte line in
  // one transaction.
  template <class F>
  void load_lanes(Regs<uint32_t, 1>& dst, F&& src_of, Site at = Site::here()) {
    outside_lanes("load_lanes");
    sim_.point();
    for (uint32_t lane = 0; lane < lanes_; ++lane) dst.of(lane)[0] = read_word(src_of(lane), Order::Relaxed, at);
  }
  // Sixteen 64-bit loads at one point, each pair read whole; both lanes of a pair
  // hold what its one read returned (the GPU's two lanes each load it: only the key
  // lane's pair is used whole, so one read a pair decides the same).
  template <class F>
  void load_lane_pairs(Regs<uint32_t, 2>& dst, F&& src_of, Site at = Site::here()) {
    outside_lanes("load_lane_pairs");
    if (lanes_ != 32) sim_.fault("load_lane_pairs: a warp's 32 lanes (a tile reads with load_lane_words)");
    sim_.point();
    for (uint32_t lane = 0; lane < 32; lane += 2) {
      const auto* pair = reinterpret_cast<const uint64_t*>(src_of(lane));
      if (reinterpret_cast<uintptr_t>(pair) % 8 != 0) sim_.fault("load_lane_pairs: a pair not 8-byte aligned");
      const uint64_t v = read_word(pair, Order::Relaxed, at);
      const auto low = static_cast<uint32_t>(v), high = static_cast<uint32_t>(v >> 32);
      dst.of(lane)[0] = low;
      dst.of(lane)[1] = high;
      dst.of(lane + 1)[0] = high;
      dst.of(lane + 1)[1] = low;
    }
  }
  // N words a lane (2: one pair, 4: two pairs), one scheduling point: lane l reads
  // the words at src_of(l), each pair whole (single-copy atomic, as the GPU's 8- and
  // 16-byte loads read each 8-byte half).
  template <uint32_t N, class F>
  void load_lane_words(Regs<uint32_t, N>& dst, F&& src_of, Site at = Site::here()) {
    static_assert(N == 2 || N == 4, "one or two pairs a lane");
    outside_lanes("load_lane_words");
    sim_.point();
    for (uint32_t lane = 0; lane < lanes_; ++lane) {
      const uint32_t* words = src_of(lane);
      if (reinterpret_cast<uintptr_t>(words) % (4 * N) != 0) sim_.fault("load_lane_words: a lane's words not aligned");
      for (uint32_t j = 0; j < N; j += 2) {
        const uint64_t v = read_word(reinterpret_cast<const uint64_t*>(words + j), Order::Relaxed, at);
        dst.of(lane)[j] = static_cast<uint32_t>(v);
        dst.of(lane)[j + 1] = static_cast<uint32_t>(v >> 32);
      }
    }
  }
  // One thread's own accesses: part of the step they are in (the GPU's thread makes
  // them between the warp's other accesses), so no point of their own.
  uint64_t thread_load(const uint64_t* p, Site at = Site::here()) { return read_word(p, Order::Relaxed, at); }
  void thread_store(uint64_t* p, uint64_t v, Site at = Site::here()) { put_word(p, v, Order::Relaxed, at); }
  // A prefetch only changes when the GPU's read completes, not what it reads.
  template <class F>
  void prefetch_lanes(F&&) {
    outside_lanes("prefetch_lanes");
  }
  void copy16(void* dst, const void* src) {
    if (reinterpret_cast<uintptr_t>(dst) % 16 != 0 || reinterpret_cast<uintptr_t>(src) % 16 != 0)
      sim_.fault("copy16: misaligned vector access");
    memory::unguarded_copy(dst, src, 16);
  }
  // From the block's shared memory: the four words read by the running lane.
  template <class T>
  void copy16(void* dst, PrivatePtr<T> src) {
    const size_t w = src.region()->template word_of<16>(src.get());
    for (size_t i = 0; i < 4; ++i) src.region()->read(w + i);
    copy16(dst, static_cast<const void*>(src.get()));
  }

  // ---- the block's barriers (warp actors whose block shares them) ------------
  // A block actor's own __syncthreads: its threads only, no other actor's step
  // (no scheduling point), a barrier phase ends.
  void block_sync(Site at = Site::here()) {
    if (phases_ && !place_.shared) {
      if (checked()) phases_->barrier(at);
      return;
    }
    outside_lanes("block_sync");
    sim_.point();
    shared("block_sync").block_sync();
    barrier(at);
    if (LaneClocks* clocks = lane_clocks()) clocks->code(actor_, LaneCode::Uniform, at);
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
  // Into the block's shared memory (a view of it): the copy's words are written by
  // the issuing thread, at the issue.
  template <class T>
  void bulk_load(PrivatePtr<T> dst, const void* src, uint32_t n, uint64_t* bar, Site at = Site::here()) {
    sim_.point();
    if (LaneClocks* clocks = lane_clocks(); clocks && n > 0) {
      clocks->code(actor_, LaneCode::BulkCopy, at);
      const size_t w = dst.region()->template word_of<1>(dst.get());
      if (n % 4 != 0 || w + n / 4 > dst.region()->words) dst.region()->out_of_bounds(w + n / 4);
      for (size_t i = 0; i < n / 4; ++i) dst.region()->write(w + i);
      clocks->code(actor_, LaneCode::Uniform, at);
    }
    shared("bulk_load").bulk_load(dst.get(), src, n, bar);
  }
  // An arrival inside for_each_lane releases the lane's clock now; it counts after
  // the warp's step.
  void arrive(uint64_t* bar, Site at = Site::here()) {
    if (in_lanes_) {
      shared("arrive").release_lane(bar);
      lane_arrivals_.push_back(bar);
      return;
    }
    sim_.point();
    shared("arrive").arrive(bar);
    if (LaneClocks* clocks = lane_clocks()) clocks->code(actor_, LaneCode::Uniform, at);
  }
  void wait(uint64_t* bar, uint32_t parity, Site at = Site::here()) {
    outside_lanes("wait");
    sim_.point();
    shared("wait").wait(bar, parity);
    if (LaneClocks* clocks = lane_clocks()) clocks->code(actor_, LaneCode::Uniform, at);
  }

  // ---- recording -----------------------------------------------------------
  // An operation's start and end bound the quiescent moments (Simulator::op_end):
  // in a log of events they order as an invocation and a response do.
  void begin_op(int64_t op) {
    op_ = op;
    if (checked()) phases_->set_op(op);
    sim_.records(kOpens);
    sim_.op_begin();
  }
  void end_op() {
    sim_.records(kCloses);
    sim_.op_end();
  }
  // A hold's records are ordered with other actors' through the lock word the hold
  // is on (its acquire and release touch it), not with holds of other words.
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
  // Under ptx each event orders as the GPU recorder's does (memory::ModelMemory::
  // record_event): an invocation acquires, a response releases, a point does both.
  void record_lp() {
    if (!rec_) return;
    record_order(Order::AcqRel);
    sim_.records(kLp);
    rec_->hold(EventKind::Lp, op_, actor_, 0);
  }
  template <class Ptr>
  void record_inv(uint32_t fn, Ptr args, uint32_t n, Site at = Site::here()) {
    if (!rec_) return;
    record_order(Order::Acquire);
    sim_.records(kOpens);
    rec_->inv(op_, actor_, fn, recorded_keys(args, n, at), n);
  }
  template <class Ptr>
  void record_ret(Ptr res, uint32_t n, bool is_null, Site at = Site::here()) {
    if (!rec_) return;
    record_order(Order::Release);
    sim_.records(kCloses);
    rec_->ret(op_, actor_, recorded_keys(res, n, at), n, is_null);
  }
  [[noreturn]] void fail(const char* what) { sim_.fault(what); }

 private:
  using Order = memory::Order;
  // Device scope: every access of the execution context is the GPU's .gpu one.
  static constexpr memory::Scope kScope = memory::Scope::Gpu;

  // The order a CAS's tags ask for: exec::relaxed none, exec::acquire the acquire
  // half, else both.
  template <class... Tags>
  static constexpr Order tags_order() {
    return exec::is_relaxed_v<Tags...> ? Order::Relaxed : exec::is_acquire_v<Tags...> ? Order::Acquire : Order::AcqRel;
  }
  // How the accesses are ordered (set_orders).
  Order word_order(Order o) const { return orders_ == Orders::AsWritten ? o : Order::Relaxed; }
  Order bulk_order() const { return orders_ == Orders::AsWritten ? Order::Relaxed : Order::Weak; }
  uint32_t choose(uint32_t n) { return sim_.choose(n); }

  // The access's tag: where, in which operation, after how many recorded events.
  memory::AccessTag tag(const Site& at) const {
    return {at.file, at.line, rec_ ? static_cast<uint32_t>(rec_->size()) : 0u, op_};
  }
  // After an access under ptx: the run ends at the first data race the model found.
  void check_race(memory::ModelMemory& m) {
    if (m.race()) sim_.race(m.describe_race());
  }

  // The order and scope an access of kind k at `at` has under ptx: as the structure
  // asks (the mutants' Orders applied), reported to ablate's inventory, then
  // weakened where the run weakens `at` (none: a fence dropped).
  std::optional<std::pair<Order, memory::Scope>> ordering(memory::AccessKind k, Order o, const Site& at) {
    if (!sim_.site_hooks()) [[likely]] return std::pair{o, kScope};
    return site_ordering(k, o, at);
  }
  std::optional<std::pair<Order, memory::Scope>> site_ordering(memory::AccessKind k, Order o, const Site& at) {
    if (memory::SiteInventory* sites = sim_.site_inventory()) sites->add(at, k, o, kScope);
    if (const memory::Weakening* w = sim_.weakening(); w && w->at(at)) return w->apply(k, o, kScope);
    return std::pair{o, kScope};
  }

  template <class W>
  W read_word(const W* p, Order o, const Site& at) {
    sim_.touch(p, sizeof(W), false);
    memory::ModelMemory* m = sim_.memory();
    if (!m) return memory::unguarded_load(p);
    const auto [order, scope] = *ordering(memory::AccessKind::Load, word_order(o), at);
    const auto v = static_cast<W>(m->load(actor_, p, order, scope, [this](uint32_t n) { return choose(n); }, tag(at)));
    check_race(*m);
    fence_if_fenced(*m);
    return v;
  }
  template <class W>
  void put_word(W* p, W v, Order o, const Site& at) {
    sim_.touch(p, sizeof(W), true);
    if (memory::ModelMemory* m = sim_.memory()) {
      fence_if_fenced(*m);
      const auto [order, scope] = *ordering(memory::AccessKind::Store, word_order(o), at);
      m->store(actor_, p, v, order, scope, tag(at));
      check_race(*m);
      fence_if_fenced(*m);
    }
    write(p, v);
  }
  // Orders::DroppedFenced: a fence.sc.gpu on either side of every word access (the
  // authors' lock words are only ever accessed by atomicCAS, each fenced; ours are
  // also loaded, so the loads get theirs too).
  void fence_if_fenced(memory::ModelMemory& m) {
    if (orders_ != Orders::DroppedFenced) return;
    sim_.sc_fence();
    m.fence(actor_, Order::Sc, kScope);
  }
  // A key of a batch: 32 or 64 bits (the model's words are 32; a 64-bit key is two).
  template <class Key>
  Key read_bulk(const Key* p, const Site& at) {
    static_assert(sizeof(Key) == 4 || sizeof(Key) == 8, "keys of 32 or 64 bits");
    sim_.touch(p, sizeof(Key), false);
    memory::ModelMemory* m = sim_.memory();
    if (!m) return memory::unguarded_load(p);
    using W = std::conditional_t<sizeof(Key) == 4, uint32_t, uint64_t>;
    const auto [order, scope] = *ordering(memory::AccessKind::BatchLoad, bulk_order(), at);
    const auto v = static_cast<Key>(m->load(actor_, reinterpret_cast<const W*>(p), order, scope,
                                            [this](uint32_t n) { return choose(n); }, tag(at)));
    check_race(*m);
    return v;
  }
  template <class Key>
  void put_bulk(Key* p, Key v, const Site& at) {
    static_assert(sizeof(Key) == 4 || sizeof(Key) == 8, "keys of 32 or 64 bits");
    using W = std::conditional_t<sizeof(Key) == 4, uint32_t, uint64_t>;
    sim_.touch(p, sizeof(Key), true);
    if (memory::ModelMemory* m = sim_.memory()) {
      const auto [order, scope] = *ordering(memory::AccessKind::BatchStore, bulk_order(), at);
      m->store(actor_, reinterpret_cast<const W*>(p), static_cast<W>(v), order, scope, tag(at));
      check_race(*m);
    }
    write(p, v);
  }
  // One point: *p becomes next(old) where that has a value; returns old.
  template <class W, class F>
  W rmw(W* p, Order o, const Site& at, F&& next) {
    sim_.point();
    barrier(at);  // every read-modify-write has a barrier of the block on the GPU (before or after)
    const W old = memory::unguarded_load(p);
    const std::optional<W> now = next(old);
    sim_.touch(p, sizeof(W), now.has_value());  // a CAS that fails only reads
    if (memory::ModelMemory* m = sim_.memory()) {
      fence_if_fenced(*m);
      const auto [order, scope] = *ordering(memory::AccessKind::Rmw, word_order(o), at);
      m->rmw(actor_, p, now, order, scope, tag(at));
      check_race(*m);
      fence_if_fenced(*m);
    }
    if (now) write(p, *now);
    return old;
  }
  template <class W>
  W cas_ordered(W* p, W expected, W desired, Order o, const Site& at) {
    static_assert(sizeof(W) == 4 || sizeof(W) == 8, "CAS on 32- or 64-bit words");
    return rmw(p, o, at, [=](W old) { return old == expected ? std::optional<W>(desired) : std::nullopt; });
  }
  template <class F>
  uint32_t read_modify_write(uint32_t* p, Order o, const Site& at, F&& next) {
    return rmw(p, o, at, [&](uint32_t old) { return std::optional<uint32_t>(next(old)); });
  }
  uint32_t counted_cas(uint32_t* p, uint32_t from, uint32_t to, Order o, const Site& at) {
    return rmw(p, o, at, [=](uint32_t old) {
      return exec::counted_state(old) == from ? std::optional<uint32_t>(exec::counted_change(old, to)) : std::nullopt;
    });
  }
  void counted_release(uint32_t* p, uint32_t held, uint32_t to, Order o, const Site& at) {
    const uint32_t old = rmw(p, o, at, [=](uint32_t w) {
      return exec::counted_state(w) == held ? std::optional<uint32_t>(exec::counted_change(w, to)) : std::nullopt;
    });
    if (exec::counted_state(old) != held) fail("a release found the word changed while its holder held it");
  }
  void record_order(Order o) {
    if (memory::ModelMemory* m = sim_.memory()) m->record_event(actor_, o);
  }
  // fence.acq_rel.gpu (cuda::atomic_thread_fence(release, device)): no point of
  // its own, it orders the accesses around it.
  void release_fence(const Site& at) {
    memory::ModelMemory* m = sim_.memory();
    if (!m) return;
    if (const auto os = ordering(memory::AccessKind::Fence, word_order(Order::AcqRel), at)) m->fence(actor_, os->first, os->second);
  }
  template <class W>
  void write(W* p, W v) {
    if (memory::unguarded_load(p) == v) return;
    memory::unguarded_store(p, v);
    // Parked actors watch 32-bit words: a 64-bit write changes two.
    const auto* words = reinterpret_cast<const uint32_t*>(p);
    for (size_t i = 0; i < sizeof(W) / sizeof(uint32_t); ++i) sim_.wrote(words + i);
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
  // The lanes' clocks of a warp actor's block, once its shared memory is viewed.
  LaneClocks* lane_clocks() {
    if (!place_.shared || phases_ || !place_.shared->lanes().enabled()) return nullptr;
    return &place_.shared->lanes();
  }

  // A transfer's destination is the actor's private memory, made by private_array
  // or private_view, so that its threads' accesses are checked: a plain pointer
  // (memory the context does not see) does not compile.
  template <class Dst>
  static constexpr void lands_in_private_memory() {
    static_assert(std::is_same_v<Dst, Private<exec::private_element_t<Dst>>>,
                  "a transfer lands in the actor's private memory: pass x.private_array or x.private_view's pointer");
  }
  // A barrier of the block (block actors; a warp actor's private memory is not
  // checked).
  void barrier(const Site& at) {
    if (checked()) phases_->barrier(at);
  }
  // f(i) for i in [0, n), index i made by thread i / per (per > 0) or i % threads(),
  // then a barrier. Flattened: f and its checked private accesses are inlined into
  // the loop (left to itself GCC called f per element, and most of a heap schedule's
  // time is these loops).
  template <class F>
  [[gnu::flatten]] void by_threads(PhaseCode code, const Site& at, uint32_t n, F&& f, uint32_t per = 0) {
    if (!checked()) {
      for (uint32_t i = 0; i < n; ++i) f(i);
      return;
    }
    phases_->enter(code, at);
    if (per) {
      for (uint32_t i = 0; i < n; ++i) {
        phases_->thread(i / per);
        f(i);
      }
    } else {
      for (uint32_t i = 0, t = 0; i < n; ++i) {  // t = i % threads(), without a division
        phases_->thread(t);
        f(i);
        if (++t == threads_) t = 0;
      }
    }
    phases_->barrier(at);
  }
  // A loop of the context's own over private elements (a transfer's, a copy's, the
  // recorder's) gives each element to one thread and touches no word from two
  // elements, so its accesses cannot race with one another, and the barrier after
  // it ends the phase, so they cannot race with later ones. Where its elements lie
  // in their region and the phase so far left their words untouched
  // (PrivateRegion::untouched), no access of the loop can race at all: it reads
  // and writes the memory directly, unchecked, and only its barrier is kept (the
  // code it would enter names no access). Else it runs checked, as always.
  template <class T>
  [[gnu::always_inline]] bool unraced(PrivatePtr<T> p, uint32_t n, bool writing) const {
    return checked() && p.region()->template untouched<sizeof(T)>(p.get(), n, writing);
  }
  template <class T>
  bool unraced(const T*, uint32_t, bool) const {
    return true;  // memory the context does not check
  }
  // Whether a copy's arrays share no word of one region (arrays of different regions
  // are checked apart).
  template <class D, class S>
  static bool apart(PrivatePtr<D> dst, PrivatePtr<S> src, uint32_t n) {
    if (dst.region() != src.region()) return true;
    const auto d = dst.region()->template words_of<sizeof(D)>(dst.get(), n);
    const auto s = src.region()->template words_of<sizeof(S)>(src.get(), n);
    return d.first + d.count <= s.first || s.first + s.count <= d.first;
  }
  template <class D, class S>
  static bool apart(PrivatePtr<D>, const S*, uint32_t) {
    return true;
  }
  template <class T>
  static const T* raw(PrivatePtr<T> p) {
    return p.get();
  }
  template <class T>
  static const T* raw(const T* p) {
    return p;
  }
  // A transfer's loop into private memory: dst[i] = value(i) for i in [0, n),
  // by_threads' or unchecked (unraced).
  template <class T, class F>
  void fill_private(PhaseCode code, const Site& at, PrivatePtr<T> dst, uint32_t n, F&& value) {
    if (!unraced(dst, n, /*writing=*/true)) {
      by_threads(code, at, n, [&](uint32_t i) { dst[i] = value(i); });
      return;
    }
    T* to = dst.get();
    for (uint32_t i = 0; i < n; ++i) to[i] = value(i);
    phases_->barrier(at);
  }
  // Whether the barrier phases are kept: a block actor of two threads or more (a
  // block of one never races with itself, so they are not kept at all).
  // Kept as a flag, set where the phases are made: asked at every barrier and loop.
  bool checked() const { return checked_; }
  // copy_private's arrays: private ones of a block actor checked against its
  // barrier phases, or plain memory.
  template <class T>
  bool checked_by_phases(PrivatePtr<T> p) const {
    return checked() && p.region()->checks == PrivateRegion::Checks::Phases;
  }
  template <class T>
  bool checked_by_phases(const T*) const {
    return checked();
  }
  template <class T>
  static PrivateRun<T> run_of(PrivatePtr<T> p) {
    return PrivateRun<T>(p);
  }
  template <class T>
  static const T* run_of(const T* p) {
    return p;
  }
  template <class T>
  static T read_run(const PrivateRun<T>& r, uint32_t i, PhaseStamp now) {
    return r.read(i, now);
  }
  template <class T>
  static T read_run(const T* p, uint32_t i, PhaseStamp) {
    return p[i];
  }
  // An event's keys for the recorder. From private memory they are read as the
  // GPU's recording context copies them (cuda/cuda_context.cuh, with_keys): after
  // the leader's broadcast (a barrier), key i by thread i % threads(), then a
  // barrier; a thread's own array is its own.
  template <class Ptr>
  const exec::private_element_t<Ptr>* recorded_keys(Ptr p, uint32_t n, const Site& at) {
    if constexpr (std::is_pointer_v<Ptr>) {
      return p;
    } else {
      barrier(at);
      // Reads alone, in a phase that has had none: only their bounds are checked.
      if (!unraced(p, n, /*writing=*/false))
        by_threads(PhaseCode::Record, at, n, [&](uint32_t i) { (void)static_cast<exec::private_element_t<Ptr>>(p[i]); });
      return p.get();
    }
  }
  BarrierPhases* phases_or_unchecked() {
    if (!phases_) phases_.emplace(sim_, actor_, 1);  // one thread: nothing races
    return &*phases_;
  }
  // The actor's next private region (numbered in the order made), in the storage of
  // the one its runner kept at that number where there is one.
  PrivateRegion* make_region(std::byte* base, size_t words) {
    BarrierPhases& phases = *phases_or_unchecked();
    const auto number = static_cast<uint32_t>(regions_.size());
    if (number < spare_.size() && spare_[number]) {
      spare_[number]->remake(phases, number, base, words);
      regions_.push_back(std::move(spare_[number]));
    } else {
      regions_.push_back(std::make_unique<PrivateRegion>(phases, number, base, words));
    }
    return regions_.back().get();
  }
  SimContext(Simulator& sim, uint32_t actor, HostRecorder* recorder, uint32_t threads, KeptPrivateMemory* keep)
      : sim_(sim), actor_(actor), rec_(recorder), threads_(threads),
        phases_(std::in_place, sim, actor, threads, keep ? std::move(keep->codes) : std::vector<BarrierPhases::Code>{}),
        checked_(threads >= 2), keep_(keep) {
    if (keep) spare_ = std::move(keep->regions);
    sim_.uses_recorder(recorder);
  }

  Simulator& sim_;
  uint32_t actor_;
  HostRecorder* rec_;
  uint32_t threads_;
  std::optional<BarrierPhases> phases_;  // a block actor's (a warp actor's: none)
  bool checked_ = false;                  // phases_ kept, for two threads or more (checked())
  std::vector<std::unique_ptr<PrivateRegion>> regions_;  // its private memory
  KeptPrivateMemory* keep_ = nullptr;                     // where its storage goes back (a runner's), or none
  std::vector<std::unique_ptr<PrivateRegion>> spare_;    // the kept regions, each taken as made again
  WarpPlace place_;
  int64_t op_ = 0;
  Orders orders_ = Orders::AsWritten;
  bool in_lanes_ = false;
  uint32_t lanes_ = 32;
  std::vector<uint64_t*> lane_arrivals_;
  std::vector<uint64_t> values_;  // exclusive_sum_of's values, between its two phases
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
