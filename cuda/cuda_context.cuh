// The execution context on the GPU (structures/exec/context.h): one template over
// the actor's scope (cuda/cuda_actor_scope.cuh: a thread block or a warp).
// Actor-uniform code: every thread of the actor calls each function with the same
// arguments; the scope's leader performs a shared-word access and the result is
// broadcast. Lane operations (ballot, shuffle, per-lane loads) are the calling
// warp's instructions.
//
// Memory order (docs/design.md): state another actor may have written is read
// and written only with device-scope atomics - acquire/release for lock words,
// relaxed for data bracketed by those and, where a structure asks for it
// (exec::relaxed), for lock-free words that carry all a reader needs - never with
// plain loads that L1 could serve stale. No correctness depends on a compiler flag.
#pragma once

#include <cuda/atomic>

#include <cstdint>
#include <type_traits>

#include "cuda/cuda_actor_scope.cuh"
#include "cuda/block_collectives.cuh"
#include "cuda/block_tile_merge.cuh"
#include "cuda/cuda_barriers.cuh"
#include "cuda/watchdog.h"
#include "histories/device_events.h"
#include "structures/exec/counted_word.h"
#include "structures/exec/memory_order.h"
#include "structures/exec/waiting.h"
#include "structures/exec/word_pair.h"

namespace gpulin::cuda_exec {

template <class T>
using device_ref = cuda::atomic_ref<T, cuda::thread_scope_device>;

// `Record` compiles recording in or out: with it off, the record_* calls are empty
// and cost nothing. `RecordKey` is the recorder's key word (histories/device_events.h):
// a structure with 64-bit keys records into a BasicDeviceRecorderRef<uint64_t>.
// `CountedHoldsOnly` compiles in the holds of counted locks alone (structures/exec/
// counted_word.h: a heap's root), each one record after its release: for a
// recorder that numbers holds with implied acqs and records no other node's
// (device_events.h; BasicDeviceRecorder::version_holds(nodes, true) with the
// counted locks below `nodes`). Every other lock's acquire and release then
// carries no recording code at all: measured on the H100 (2^24 keys, 128 x 512),
// that code alone, never run, cost the recorded heap about 8 of its 11-12 %.
template <class Scope, bool Record = false, class RecordKey = uint32_t, bool CountedHoldsOnly = false>
class CudaContext {
  static_assert(Record || !CountedHoldsOnly, "counted holds are recorded only where recording is on");

 public:
  // `watchdog` (cuda/watchdog.h) bounds every wait: past its spin_bound re-reads
  // the actor stops the run, and every other actor drains (its wait, or its next
  // operation, sees the stop). Without a watchdog (its `stop` null) a wait past
  // the bound traps with a message: the GPU never hangs either way.
  static constexpr uint64_t kDefaultSpinBound = cuda_exec::kDefaultSpinBound;
  // Whether a structure's countable lock words count their holds here
  // (structures/exec/counted_word.h): in the recording kernels only, whose
  // recording numbers the holds by them. An unrecorded kernel keeps plain words
  // (measured on the H100: its BU heap's deletes 3 % faster so).
  static constexpr bool kCountsHolds = Record;
  __device__ explicit CudaContext(Scope scope, BasicDeviceRecorderRef<RecordKey> rec = {}, WatchdogRef watchdog = {})
      : scope_(scope), rec_(rec), wd_(watchdog) {}

  // ---- shared words, actor-uniform ----------------------------------------
  // An acquire needs no barrier before it (nothing of this actor must be ordered
  // before a load), only the one that publishes the value.
  __device__ uint32_t load(uint32_t* p) {
    return scope_.template from_leader<uint32_t>(
        [p] { return device_ref<uint32_t>(*p).load(cuda::memory_order_acquire); });
  }
  // The barrier before a release orders every thread's earlier writes before it:
  // bar.sync (bar.warp.sync) is a morally strong synchronization among the actor's
  // threads, and a release at device scope is cumulative over what its thread has
  // observed (PTX memory model), so no separate fence is needed.
  __device__ void store(uint32_t* p, uint32_t v) {
    scope_.sync();
    if (scope_.rank() == 0) device_ref<uint32_t>(*p).store(v, cuda::memory_order_release);
    scope_.sync();
  }
  // Only the leader reads or writes such a word (x.load is the leader's too), and
  // the lock's release, also the leader's, orders this store before it.
  __device__ void store_guarded(uint32_t* p, uint32_t v) {
    if (scope_.rank() == 0) device_ref<uint32_t>(*p).store(v, cuda::memory_order_relaxed);
  }
  // Returns the old value, as the figures' CAS does.
  template <class W>
  __device__ W cas(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired) {
    scope_.sync();
    return leader_cas<W>(p, expected, desired, cuda::memory_order_acq_rel);
  }
  __device__ uint32_t fetch_add(uint32_t* p, uint32_t v) {
    scope_.sync();
    return scope_.template from_leader<uint32_t>(
        [=] { return device_ref<uint32_t>(*p).fetch_add(v, cuda::memory_order_acq_rel); });
  }
  __device__ uint32_t fetch_and(uint32_t* p, uint32_t v) {
    scope_.sync();
    return scope_.template from_leader<uint32_t>(
        [=] { return device_ref<uint32_t>(*p).fetch_and(v, cuda::memory_order_acq_rel); });
  }
  __device__ uint32_t fetch_or(uint32_t* p, uint32_t v) {
    scope_.sync();
    return scope_.template from_leader<uint32_t>(
        [=] { return device_ref<uint32_t>(*p).fetch_or(v, cuda::memory_order_acq_rel); });
  }
  // Relaxed (structures/exec/memory_order.h): the leader's atomic alone, no barrier
  // before it and no fence around it; the result is broadcast as above.
  template <class W>
  __device__ W cas(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, exec::Relaxed) {
    return leader_cas<W>(p, expected, desired, cuda::memory_order_relaxed);
  }
  // The same CAS where only its verdict is needed (old == expected): the leader
  // compares and broadcasts one word, not the old value (two for a 64-bit word):
  // a shorter broadcast for the lock-free inserts that only ask whether they won
  // (what it saved: bench/results/architecture-notes.md, section 4).
  template <class W>
  __device__ bool cas_won(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, exec::Relaxed) {
    static_assert(sizeof(W) == 4 || sizeof(W) == 8, "CAS on 32- or 64-bit words");
    return scope_.template from_leader<uint32_t>([=] {
             W e = expected;
             return device_ref<W>(*p).compare_exchange_strong(e, desired, cuda::memory_order_relaxed) ? 1u : 0u;
           }) != 0;
  }
  __device__ uint32_t fetch_add(uint32_t* p, uint32_t v, exec::Relaxed) {
    return scope_.template from_leader<uint32_t>(
        [=] { return device_ref<uint32_t>(*p).fetch_add(v, cuda::memory_order_relaxed); });
  }
  __device__ uint32_t fetch_and(uint32_t* p, uint32_t v, exec::Relaxed) {
    return scope_.template from_leader<uint32_t>(
        [=] { return device_ref<uint32_t>(*p).fetch_and(v, cuda::memory_order_relaxed); });
  }
  __device__ void store(uint32_t* p, uint32_t v, exec::Relaxed) {
    if (scope_.rank() == 0) device_ref<uint32_t>(*p).store(v, cuda::memory_order_relaxed);
  }
  __device__ uint32_t load(uint32_t* p, exec::Relaxed) {
    return scope_.template from_leader<uint32_t>(
        [p] { return device_ref<uint32_t>(*p).load(cuda::memory_order_relaxed); });
  }
  // A release the actor does not wait for: the barrier orders every thread's
  // earlier writes before the leader's release store (as in store()); nothing
  // after it needs its result, so no barrier follows and no round trip is waited
  // for. Only the word's holder changes a held word, so the store equals the CAS
  // it replaces; the simulator's release checks that.
  __device__ void release(uint32_t* p, uint32_t /*held*/, uint32_t to) {
    scope_.sync();
    if (scope_.rank() == 0) device_ref<uint32_t>(*p).store(to, cuda::memory_order_release);
  }
  // Two released words, one fence: the release pattern (a release fence, then
  // relaxed stores) covers both stores.
  __device__ void release_pair(uint32_t* p, uint32_t* q, uint32_t /*held*/, uint32_t to) {
    scope_.sync();
    if (scope_.rank() == 0) {
      cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
      device_ref<uint32_t>(*p).store(to, cuda::memory_order_relaxed);
      device_ref<uint32_t>(*q).store(to, cuda::memory_order_relaxed);
    }
  }
  // A counted word's release (structures/exec/counted_word.h): its state `held`
  // becomes `to` and its count what the change makes it, in one addition (only
  // the holder changes a held word), which nothing waits for: a reduction, as
  // cheap as the store it replaces.
  __device__ void release(uint32_t* p, uint32_t held, uint32_t to, exec::Counted) {
    scope_.sync();
    if (scope_.rank() == 0) device_ref<uint32_t>(*p).fetch_add(counted_delta(held, to), cuda::memory_order_release);
  }
  template <class Which>  // exec::FirstCounted or exec::SecondCounted
  __device__ void release_pair(uint32_t* p, uint32_t* q, uint32_t held, uint32_t to, Which) {
    constexpr bool first = std::is_same_v<Which, exec::FirstCounted>;
    static_assert(first || std::is_same_v<Which, exec::SecondCounted>, "release_pair: which word is counted");
    scope_.sync();
    if (scope_.rank() == 0) {
      cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
      const auto end_hold = [&](uint32_t* w, bool counted) {
        if (counted)
          device_ref<uint32_t>(*w).fetch_add(counted_delta(held, to), cuda::memory_order_relaxed);
        else
          device_ref<uint32_t>(*w).store(to, cuda::memory_order_relaxed);
      };
      end_hold(p, first);
      end_hold(q, !first);
    }
  }
  __device__ static constexpr uint32_t counted_delta(uint32_t held, uint32_t to) {
    return exec::counted_change(held, to) - held;  // held: a state, count 0
  }
  // Two accesses in one instruction of lanes 0 and 1 (one round trip, not two).
  __device__ exec::WordPair load_pair(uint32_t* p, uint32_t* q) {
    return scope_.from_two_lanes(
        [=](uint32_t lane) { return device_ref<uint32_t>(*(lane ? q : p)).load(cuda::memory_order_acquire); });
  }
  __device__ exec::WordPair load_pair(uint32_t* p, uint32_t* q, exec::Relaxed) {
    return scope_.from_two_lanes(
        [=](uint32_t lane) { return device_ref<uint32_t>(*(lane ? q : p)).load(cuda::memory_order_relaxed); });
  }
  template <class... Tags>
  __device__ exec::WordPair cas_pair(uint32_t* p, uint32_t ep, uint32_t dp, uint32_t* q, uint32_t eq, uint32_t dq,
                                     Tags...) {
    if constexpr (!exec::is_acquire_v<Tags...>) scope_.sync();
    return scope_.from_two_lanes([=](uint32_t lane) {
      uint32_t e = lane ? eq : ep;
      device_ref<uint32_t>(*(lane ? q : p)).compare_exchange_strong(e, lane ? dq : dp, cas_order<Tags...>());
      return e;
    });
  }
  // A taking CAS (exec::acquire) is an acquire, a claim's (exec::relaxed) neither;
  // any other an acquire and a release.
  template <class... Tags>
  __device__ static constexpr cuda::memory_order cas_order() {
    return exec::is_relaxed_v<Tags...>   ? cuda::memory_order_relaxed
           : exec::is_acquire_v<Tags...> ? cuda::memory_order_acquire
                                         : cuda::memory_order_acq_rel;
  }
  // One CAS that takes a lock (exec::acquire).
  template <class W>
  __device__ W cas(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, exec::Acquire) {
    return leader_cas<W>(p, expected, desired, cuda::memory_order_acquire);
  }
  // One CAS that gives up a claim (exec::release): the block's barrier first, as
  // before any release.
  template <class W>
  __device__ W cas(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, exec::Release) {
    scope_.sync();
    return leader_cas<W>(p, expected, desired, cuda::memory_order_release);
  }
  // The leader's CAS, its old value broadcast (no barrier before it).
  template <class W>
  __device__ W leader_cas(W* p, W expected, W desired, cuda::memory_order order) {
    static_assert(sizeof(W) == 4 || sizeof(W) == 8, "CAS on 32- or 64-bit words");
    return scope_.template from_leader<W>([=] {
      W e = expected;
      device_ref<W>(*p).compare_exchange_strong(e, desired, order);
      return e;
    });
  }
  // A CAS on a counted word's state: the leader's CAS expects `guess` (a count and
  // the state `from`) and, while it misses by the count alone, again with the
  // count it saw; the old word is broadcast.
  __device__ uint32_t leader_counted_cas(uint32_t* p, uint32_t guess, uint32_t to, cuda::memory_order order) {
    return scope_.template from_leader<uint32_t>([=] {
      uint32_t expected = guess;
      for (;;) {
        uint32_t seen = expected;
        if (device_ref<uint32_t>(*p).compare_exchange_strong(seen, exec::counted_change(seen, to), order) ||
            exec::counted_state(seen) != exec::counted_state(guess))
          return seen;
        expected = seen;
      }
    });
  }
  // A counted word's CAS, alone: the count is not known yet, so the first guess is
  // none (a miss by the count costs one round trip more, only when the state is
  // `from`).
  template <class... Tags>
  __device__ uint32_t cas(uint32_t* p, uint32_t from, uint32_t to, exec::Counted, Tags...) {
    if constexpr (!exec::is_acquire_v<Tags...>) scope_.sync();
    return leader_counted_cas(p, from, to, cas_order<Tags...>());
  }
  // Every attempt is the CAS (acquire and release, as cas()); a holder's waits do
  // not sleep. The stop word is read every 8th failed attempt only: read beside
  // the CAS it would cost a round trip each (the acquire orders it after the CAS).
  // With exec::acquire no barrier comes first (it orders the actor's writes before
  // a release, and there is none; the broadcast's own barrier follows).
  template <class Done, class... Tags>
  __device__ uint32_t cas_until(uint32_t* p, uint32_t from, uint32_t to, Done&& done, Tags...) {
    if constexpr (!exec::is_acquire_v<Tags...>) scope_.sync();
    uint32_t backoff = wd_.backoff_first_ns;
    for (uint64_t spins = 0;; ++spins) {
      const uint32_t old = leader_cas<uint32_t>(p, from, to, cas_order<Tags...>());
      if (done(old)) return old;
      if ((spins & 7) == 7 && stopped()) leave(p, old, kStopWasWaiting);
      between_attempts<exec::is_holding_v<Tags...>>(p, old, spins, backoff, "spin bound exceeded: a cas_until that never succeeded");
    }
  }
  // cas_until on a counted word: each attempt expects the word as it will be once
  // the hold last seen has ended (exec::counted_guess), so a waiter that saw the
  // lock held takes it in the one CAS that finds it free.
  template <class Done, class... Tags>
  __device__ uint32_t cas_until(uint32_t* p, uint32_t from, uint32_t to, Done&& done, exec::Counted, Tags...) {
    if constexpr (!exec::is_acquire_v<Tags...>) scope_.sync();
    uint32_t backoff = wd_.backoff_first_ns, guess = from;
    for (uint64_t spins = 0;; ++spins) {
      const uint32_t old = leader_counted_cas(p, guess, to, cas_order<Tags...>());
      if (done(old)) return old;
      guess = exec::counted_guess(old, from);
      if ((spins & 7) == 7 && stopped()) leave(p, old, kStopWasWaiting);
      between_attempts<exec::is_holding_v<Tags...>>(p, old, spins, backoff, "spin bound exceeded: a cas_until that never succeeded");
    }
  }
  __device__ void wait_while_equals(uint32_t* p, uint32_t seen, exec::Holding) { wait_until_changed<true>(p, seen); }
  __device__ void wait_while_equals(uint32_t* p, uint32_t seen) { wait_until_changed<false>(p, seen); }
  __device__ void wait_while_equals(uint32_t* p, uint32_t seen, exec::KeepsSeen) { wait_until_changed<false>(p, seen); }
  // Every thread sees the same loads (they are broadcast), so all of them count
  // the same re-reads and reach the bound, or see the stop, together: the actor
  // leaves as one. The stop word is read with the waited-on word, in one broadcast.
  template <bool Holding>
  __device__ void wait_until_changed(uint32_t* p, uint32_t seen) {
    uint32_t backoff = wd_.backoff_first_ns;
    for (uint64_t spins = 0;; ++spins) {
      const unsigned long long both = scope_.template from_leader<unsigned long long>([&] {
        const uint32_t v = device_ref<uint32_t>(*p).load(cuda::memory_order_acquire);
        const uint32_t stop = wd_.stop ? device_ref<uint32_t>(*wd_.stop).load(cuda::memory_order_relaxed) : 0u;
        return (static_cast<unsigned long long>(stop) << 32) | v;
      });
      if (static_cast<uint32_t>(both) != seen) return;
      if (both >> 32) leave(p, seen, kStopWasWaiting);
      between_attempts<Holding>(p, seen, spins, backoff, "spin bound exceeded: a wait_while_equals that never ended");
    }
  }
  // Past the spin bound the actor leaves (without a watchdog: fails); below it, a
  // waiter that holds nothing others queue behind sleeps, longer each time.
  template <bool Holding>
  __device__ void between_attempts(const uint32_t* p, uint32_t seen, uint64_t spins, uint32_t& backoff,
                                   const char* why_failed) {
    if (spins >= wd_.spin_bound) {
      if (!wd_.stop) fail(why_failed);
      leave(p, seen, kStopSpinBound);
    }
    if constexpr (!Holding) {
      __nanosleep(backoff);
      backoff = backoff < wd_.backoff_max_ns / 2 ? backoff * 2 : wd_.backoff_max_ns;
    }
  }
  // Whether the watchdog stopped the run: a kernel asks before each operation, so
  // that actors between operations drain too. False, without a load, when there is
  // no watchdog.
  __device__ bool stopped() {
    if (!wd_.stop) return false;
    return scope_.template from_leader<uint32_t>(
               [&] { return device_ref<uint32_t>(*wd_.stop).load(cuda::memory_order_relaxed); }) != 0;
  }

  // ---- shared bulk data, actor-cooperative -------------------------------
  template <class Key>
  __device__ void load_block(Key* dst, const Key* src, uint32_t n) {
    load_gather(dst, n, [src](uint32_t i) { return src + i; });
  }
  template <class Key>
  __device__ void load_two_blocks(Key* dst, const Key* src_a, const Key* src_b, uint32_t n) {
    load_gather(dst, 2 * n, [=](uint32_t i) { return i < n ? src_a + i : src_b + (i - n); });
  }
  // A batch and two words guarded by a lock the actor holds (store_guarded's kind:
  // the lock's acquire ordered them, so relaxed loads), in one round trip: lanes 0
  // and 1 issue the words' loads before their share of the batch's, and one
  // barrier ends all of them.
  template <class Key>
  __device__ exec::WordPair load_block_and_guarded_pair(Key* dst, const Key* src, uint32_t n, uint32_t* p,
                                                        uint32_t* q) {
    return scope_.from_two_lanes(
        [=](uint32_t lane) { return device_ref<uint32_t>(*(lane ? q : p)).load(cuda::memory_order_relaxed); },
        [&] { gather_unsynced(dst, n, [src](uint32_t i) { return src + i; }); });
  }
  // A count (a relaxed load) and the array it counts, src[0, count) into dst, in one
  // round trip where the array is short: thread 0's load of the count is in flight
  // beside every thread's share of the array's first `room` elements (up to
  // kLoadsInFlight a thread; `room` is what src holds, so the loads past the count
  // read stale elements, which are dropped). A longer array's rest follows.
  template <class Key>
  __device__ uint32_t load_counted_block(Key* dst, const Key* src, uint32_t* count, uint64_t room) {
    const uint32_t step = scope_.size();
    const auto window = static_cast<uint32_t>(room < uint64_t{kLoadsInFlight} * step ? room : kLoadsInFlight * step);
    Key v[kLoadsInFlight];
#pragma unroll
    for (uint32_t u = 0; u < kLoadsInFlight; ++u) {
      const uint32_t i = scope_.rank() + u * step;
      if (i < window) v[u] = device_ref<Key>(*const_cast<Key*>(src + i)).load(cuda::memory_order_relaxed);
    }
    const uint32_t n = load(count, exec::relaxed);  // thread 0's load joins those above in flight
#pragma unroll
    for (uint32_t u = 0; u < kLoadsInFlight; ++u) {
      const uint32_t i = scope_.rank() + u * step;
      if (i < window && i < n) dst[i] = v[u];
    }
    if (n > window) gather_unsynced(dst + window, n - window, [src, window](uint32_t i) { return src + window + i; });
    scope_.sync();
    return n;
  }
  // Each thread issues up to kLoadsInFlight loads before it stores any of them, so
  // that a 2k-key pair of nodes costs one memory round trip, not four.
  static constexpr uint32_t kLoadsInFlight = 4;
  template <class Key, class F>
  __device__ void load_gather(Key* dst, uint32_t n, F&& src_of) {
    gather_unsynced(dst, n, src_of);
    scope_.sync();
  }
  template <class Key, class F>
  __device__ void gather_unsynced(Key* dst, uint32_t n, F&& src_of) {
    const uint32_t step = scope_.size();
    for (uint32_t base = scope_.rank(); base < n; base += kLoadsInFlight * step) {
      Key v[kLoadsInFlight];
#pragma unroll
      for (uint32_t u = 0; u < kLoadsInFlight; ++u) {
        const uint32_t i = base + u * step;
        if (i < n) v[u] = device_ref<Key>(*const_cast<Key*>(src_of(i))).load(cuda::memory_order_relaxed);
      }
#pragma unroll
      for (uint32_t u = 0; u < kLoadsInFlight; ++u) {
        const uint32_t i = base + u * step;
        if (i < n) dst[i] = v[u];
      }
    }
  }
  template <class Key>
  __device__ void store_block(Key* dst, const Key* src, uint32_t n) {
    for (uint32_t i = scope_.rank(); i < n; i += scope_.size())
      device_ref<Key>(dst[i]).store(src[i], cuda::memory_order_relaxed);
    scope_.sync();
  }

  template <class F>
  __device__ void parallel_for(uint32_t n, F&& f) {
    for (uint32_t i = scope_.rank(); i < n; i += scope_.size()) f(i);
    scope_.sync();
  }
  __device__ uint32_t threads() const { return scope_.size(); }
  // The actor's private memory (shared memory), as the algorithms hold it
  // (structures/exec/private_memory.h): plain pointers.
  template <class T>
  using Private = T*;
  template <class T>
  __device__ T* private_view(T* base, size_t) const { return base; }
  // Collectives of a block actor (cuda/block_collectives.cuh), each ending at a barrier.
  __device__ uint32_t exclusive_sum(const uint32_t* in, uint32_t n, uint32_t* out) {
    static_assert(std::is_same_v<Scope, BlockScope>, "block actors' collective");
    return block::exclusive_sum(in, n, out);
  }
  template <class F>
  __device__ uint64_t exclusive_sum_of(uint32_t n, F&& value, uint64_t* out) {
    static_assert(std::is_same_v<Scope, BlockScope>, "block actors' collective");
    return block::exclusive_sum_of<uint64_t>(n, value, out);
  }
  // emit(i, before, value(i)) for i < n, `before` the exclusive prefix sum, in the
  // pass that takes the values (block::scan_then): what exclusive_sum_then
  // (structures/exec/exclusive_sum_then.h) uses where a context has it.
  template <class F, class Emit>
  __device__ auto scan_then(uint32_t n, F&& value, Emit&& emit) {
    static_assert(std::is_same_v<Scope, BlockScope>, "block actors' collective");
    using T = std::conditional_t<sizeof(decltype(value(0u))) <= 4, uint32_t, uint64_t>;
    return block::scan_then<T>(n, value, emit);
  }
  // out[0, na + nb) = a and b merged (stable), through shared-memory tiles
  // (cuda/block_tile_merge.cuh): for arrays of many times the block, where
  // merge_path::block_merge's one slice a thread reads global memory scattered.
  template <class Key>
  __device__ void merge_tiled(const Key* a, uint32_t na, const Key* b, uint32_t nb, Key* out) {
    static_assert(std::is_same_v<Scope, BlockScope>, "block actors' collective");
    block::tile_merge(a, na, b, nb, out);
  }
  template <class F>
  __device__ uint64_t sum_of(uint32_t n, F&& f) {
    static_assert(std::is_same_v<Scope, BlockScope>, "block actors' collective");
    uint64_t v = 0;
    for (uint32_t i = scope_.rank(); i < n; i += scope_.size()) v += f(i);
    return block::reduce_threads<uint64_t>(v, block::Plus{}, 0);
  }
  template <class F>
  __device__ uint64_t min_of(uint32_t n, F&& f) {
    static_assert(std::is_same_v<Scope, BlockScope>, "block actors' collective");
    uint64_t v = ~uint64_t{0};
    for (uint32_t i = scope_.rank(); i < n; i += scope_.size()) v = min(v, static_cast<uint64_t>(f(i)));
    return block::reduce_threads<uint64_t>(v, block::Least{}, ~uint64_t{0});
  }
  template <class F>
  __device__ uint64_t kth_smallest(uint32_t n, uint32_t k, F&& f) {
    static_assert(std::is_same_v<Scope, BlockScope>, "block actors' collective");
    return block::kth_smallest(n, k, f);
  }

  // ---- ids -----------------------------------------------------------------
  __device__ __forceinline__ uint32_t warp() const { return threadIdx.x / 32; }
  __device__ __forceinline__ uint64_t block() const { return blockIdx.x; }
  __device__ __forceinline__ uint64_t blocks() const { return gridDim.x; }
  __device__ __forceinline__ uint32_t actor() const { return scope_.actor(); }
  __device__ __forceinline__ bool first_thread() const { return threadIdx.x == 0; }
  __device__ __forceinline__ bool leader() const { return lane_rank() == 0; }

  // ---- lanes of the calling warp ---------------------------------------------
  // The lanes are the actor's own where it is a warp or a tile (LaneGroupScope), and
  // the calling warp's 32 where it is a block.
  __device__ __forceinline__ uint32_t lane_rank() const {
    if constexpr (is_lane_group_scope_v<Scope>) return scope_.rank();
    else return threadIdx.x & 31;
  }
  __device__ __forceinline__ uint32_t lane_ballot(bool p) const {
    if constexpr (is_lane_group_scope_v<Scope>) return scope_.ballot(p);
    else return __ballot_sync(0xffffffffu, p);
  }
  template <class T>
  __device__ __forceinline__ T lane_shfl(T v, uint32_t src) const {
    if constexpr (is_lane_group_scope_v<Scope>) return scope_.shfl(v, src);
    else return __shfl_sync(0xffffffffu, v, static_cast<int>(src));
  }
  // Per-thread values across warp steps: the calling thread's registers (indexed
  // with constants only, in fully unrolled loops).
  template <class T, uint32_t N>
  struct Regs {
    T v[N];
    __device__ __forceinline__ T* of(uint32_t) { return v; }
  };
  template <class F>
  __device__ __forceinline__ void for_each_lane(F&& f) const {
    f(lane_rank());
  }
  __device__ __forceinline__ void warp_sync() const {
    if constexpr (is_lane_group_scope_v<Scope>) scope_.sync();
    else __syncwarp();
  }
  // Lane `lane`'s register i becomes v (warp-uniform call, registers only).
  template <class T, uint32_t N>
  __device__ __forceinline__ void set_lane(Regs<T, N>& r, uint32_t lane, uint32_t i, T v) const {
    if (lane_rank() == lane) r.v[i] = v;
  }
  // Lane collectives over the actor's lanes (the warp, or its tile): each lane
  // evaluates the function for its own lane, the hardware combines.
  template <class F>
  __device__ __forceinline__ uint32_t ballot(F&& pred) const {
    return lane_ballot(pred(lane_rank()));
  }
  template <class F>
  __device__ __forceinline__ auto shuffle(F&& value_of, uint32_t src_lane) const {
    return lane_shfl(value_of(lane_rank()), src_lane);
  }
  // One word per lane, one coalesced access: lane l reads *src_of(l) (relaxed,
  // device scope). A slab (128 bytes, one line) is read in one transaction.
  template <class F>
  __device__ __forceinline__ void load_lanes(Regs<uint32_t, 1>& dst, F&& src_of) const {
    dst.v[0] = device_ref<uint32_t>(*src_of(lane_rank())).load(cuda::memory_order_relaxed);
  }
  // Both lanes of a pair load it (16 distinct 8-byte words, the same line in one
  // transaction) and keep both halves: nothing crosses lanes after the load, so the
  // loads of two slabs a warp reads one after the other are both in flight before
  // either is used (warp_search_pairs).
  template <class F>
  __device__ __forceinline__ void load_lane_pairs(Regs<uint32_t, 2>& dst, F&& src_of) const {
    if constexpr (is_lane_group_scope_v<Scope>)
      static_assert(Scope::kLanes == 32, "a warp's lanes in pairs (a tile reads with load_lane_words)");
    const auto lane = static_cast<uint32_t>(threadIdx.x & 31);
    const uint64_t pair =
        device_ref<uint64_t>(*reinterpret_cast<uint64_t*>(src_of(lane & ~1u))).load(cuda::memory_order_relaxed);
    const auto low = static_cast<uint32_t>(pair), high = static_cast<uint32_t>(pair >> 32);
    dst.v[0] = (lane & 1u) ? high : low;
    dst.v[1] = (lane & 1u) ? low : high;
  }
  // N words a lane at src_of(l) (N = 2: one 8-byte load; N = 4: one 16-byte load,
  // each 8-byte half single-copy atomic): a tile of 16 or 8 lanes reads a slab of
  // pairs whole, each pair by one lane.
  template <uint32_t N, class F>
  __device__ __forceinline__ void load_lane_words(Regs<uint32_t, N>& dst, F&& src_of) const {
    static_assert(N == 2 || N == 4, "one or two pairs a lane");
    const uint32_t* p = src_of(lane_rank());
    if constexpr (N == 2) {
      const uint64_t v = device_ref<uint64_t>(*reinterpret_cast<uint64_t*>(const_cast<uint32_t*>(p))).load(cuda::memory_order_relaxed);
      dst.v[0] = static_cast<uint32_t>(v);
      dst.v[1] = static_cast<uint32_t>(v >> 32);
    } else {
      uint64_t a, b;
      asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
      dst.v[0] = static_cast<uint32_t>(a);
      dst.v[1] = static_cast<uint32_t>(a >> 32);
      dst.v[2] = static_cast<uint32_t>(b);
      dst.v[3] = static_cast<uint32_t>(b >> 32);
    }
  }
  // The calling thread's own relaxed accesses of a 64-bit word.
  __device__ __forceinline__ uint64_t thread_load(const uint64_t* p) const {
    return device_ref<uint64_t>(*const_cast<uint64_t*>(p)).load(cuda::memory_order_relaxed);
  }
  __device__ __forceinline__ void thread_store(uint64_t* p, uint64_t v) const {
    device_ref<uint64_t>(*p).store(v, cuda::memory_order_relaxed);
  }
  // A hint: lane l will soon read the line at src_of(l) (nullptr: none). The L2
  // starts fetching it now; the later read is the ordinary relaxed load.
  template <class F>
  __device__ __forceinline__ void prefetch_lanes(F&& src_of) const {
    const void* p = src_of(lane_rank());
    if (p != nullptr) asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
  }
  __device__ __forceinline__ void copy16(void* dst, const void* src) const { barrier::copy16(dst, src); }

  // ---- the block's barriers ----------------------------------------------------
  __device__ __forceinline__ void block_sync() const { __syncthreads(); }
  __device__ __forceinline__ void publish_barrier_init() const { barrier::publish_init(); }
  __device__ __forceinline__ void init_barrier(uint64_t* bar, uint32_t count) const { barrier::init(bar, count); }
  __device__ __forceinline__ void expect_bytes(uint64_t* bar, uint32_t n) const { barrier::expect_bytes(bar, n); }
  __device__ __forceinline__ void bulk_load(void* dst, const void* src, uint32_t n, uint64_t* bar) const {
    barrier::bulk_load(dst, src, n, bar);
  }
  __device__ __forceinline__ void arrive(uint64_t* bar) const { barrier::arrive(bar); }
  __device__ __forceinline__ void wait(uint64_t* bar, uint32_t parity) const { barrier::wait(bar, parity); }

  // ---- recording -----------------------------------------------------------
  // The leader takes a ticket from the global counter (acq after the winning CAS,
  // rel before the releasing one, inv before the first shared access, ret after
  // the last, lp right after the deciding access). The lock's own acquire and
  // release order the hold tickets: a rel ticket is sequenced before the release
  // that a later acquirer reads from, and that acquirer takes its acq ticket after
  // its acquire, so the first increment happens-before the second and precedes it
  // in the counter's modification order (coherence). So acq and rel tickets are
  // relaxed: they sit inside critical sections (the root's above all), where a
  // fence would lengthen every hold. inv is an acquire (nothing of the operation
  // moves before it), ret a release (nothing moves after it); an lp is acq_rel,
  // ordered with the deciding access on both sides.
  __device__ void begin_op(int64_t op) { op_ = op; }
  // Hold events leave the count to the operation's end (append_at).
  __device__ void end_op() {
    if (scope_.rank() == 0) store_event_count();
  }
  // With hold versions (device_events.h) a hold takes no ticket and waits for no
  // atomic: the acq is recorded unnumbered (its rel numbers it), and the rel's
  // relaxed increment of the node's word is issued before the releasing access,
  // which orders it (a release), while its result is first needed by the rel's
  // event, written after the release (after_release). (Issued earlier in the hold,
  // its result would have to live in a register across the hold's work: ptxas then
  // waits for it early, measured slower on the H100.)
  // A node past the versioned ones (hold_version_nodes) is not recorded at all.
  // Under implied acqs (device_events.h: a heap's root alone) nothing is stored
  // inside the hold: its one record (kDeviceHold) follows the release. (Its number
  // read with the hold's first batch of words and stored plus one at once, the
  // word being guarded by the lock as those words are, so that no atomic waits
  // before the release: measured slower, TD+root 10.8-10.9 % against 9.4-9.5 %,
  // BU+root 10.7-10.8 % against 10.8-10.9 %; H100, A/B in one call.)
  __device__ void record_acq(int64_t node) {
    if constexpr (CountedHoldsOnly) return;  // a lock that is not counted: not recorded
    if constexpr (Record) {
      if (rec_.hold_versions) {
        if (scope_.rank() == 0 && uint64_t(node) < rec_.hold_version_nodes) {
          if (rec_.implied_acqs)
            open_node_ = static_cast<uint32_t>(node);  // its rel's record will imply it (device_events.h)
          else
            append_at(0, kDeviceAcq, node, kHoldUnnumbered, 0, 0, false);
        }
        return;
      }
    }
    event_only(kDeviceAcq, node);
  }
  // A counted lock's acq (structures/exec/counted_word.h): the hold's number is
  // the count its acquire saw, so under hold versions its rel increments nothing
  // (record_rel) and after_release records that number. Only one counted lock is
  // held at a time (a heap's root).
  __device__ void record_acq(int64_t node, uint32_t holds_before) {
    if constexpr (CountedHoldsOnly) {
      if (scope_.rank() == 0) {
        counted_node_ = open_node_ = static_cast<uint32_t>(node);  // its record will imply the acq
        counted_number_ = holds_before;
      }
      return;
    }
    if constexpr (Record) {
      if (rec_.hold_versions && scope_.rank() == 0 && uint64_t(node) < rec_.hold_version_nodes) {
        counted_node_ = static_cast<uint32_t>(node);
        counted_number_ = holds_before;
      }
    }
    record_acq(node);
  }
  __device__ void record_rel(int64_t node) {
    if constexpr (CountedHoldsOnly) return;  // a counted hold's number is known; others are not recorded
    if constexpr (Record) {
      if (rec_.hold_versions) {
        if (scope_.rank() == 0 && uint64_t(node) < rec_.hold_version_nodes && uint32_t(node) != counted_node_) {
          // Each atomic writes its own register (a move would wait for the round
          // trip inside the hold); the texts differ so that none is merged.
          uint32_t* const c = rec_.hold_versions + node;
          if (rels_begun_++ & 1)
            asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], 1; // hold number b" : "=r"(rel_version_b_) : "l"(c) : "memory");
          else
            asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], 1; // hold number a" : "=r"(rel_version_a_) : "l"(c) : "memory");
        }
        return;
      }
    }
    event_only(kDeviceRel, node);
  }
  __device__ void after_release(int64_t node) {
    if constexpr (CountedHoldsOnly) {
      if (scope_.rank() == 0 && uint32_t(node) == counted_node_) {
        append_at(0, kDeviceHold, node, counted_number_, 0, 0, false);
        counted_node_ = open_node_ = kNoOpenHold;
      }
      return;
    }
    if constexpr (Record) {
      if (rec_.hold_versions && scope_.rank() == 0 && uint64_t(node) < rec_.hold_version_nodes) {
        const bool counted = uint32_t(node) == counted_node_;
        append_at(0, rec_.implied_acqs ? kDeviceHold : kDeviceRel, node,
                  counted ? counted_number_ : (rels_ended_++ & 1) ? rel_version_b_ : rel_version_a_, 0, 0, false);
        if (counted) counted_node_ = kNoOpenHold;
        open_node_ = kNoOpenHold;
      }
    }
  }
  __device__ void record_lp() { event_only(kDeviceLp, 0); }
  template <class Key>
  __device__ void record_inv(uint32_t fn, const Key* args, uint32_t n) { with_keys(kDeviceInv, fn, args, n, false); }
  template <class Key>
  __device__ void record_ret(const Key* res, uint32_t n, bool is_null) { with_keys(kDeviceRet, 0, res, n, is_null); }

  // An impossible state: the device prints why; with a watchdog the run stops as
  // for a wait past its bound (the history so far is kept), without one it traps.
  __device__ void fail(const char* what) {
    if (scope_.rank() == 0) printf("gpulin: %s %u: %s\n", actor_kind(), scope_.actor(), what);
    if (wd_.stop) leave(nullptr, 0, kStopFailed);
    __trap();
  }

 private:
  static constexpr const char* actor_kind() {
    if constexpr (!is_lane_group_scope_v<Scope>) return "block";
    else return Scope::kLanes == 32 ? "warp" : "tile";
  }
  // The actor records why it stops (and, unless it was only waiting, stops the
  // run: the first to do so is named), then all its threads exit together. A block
  // that exits mid-operation leaves it pending in the recorder, holding what it held.
  __device__ void leave(const uint32_t* word, uint32_t seen, uint32_t why) {
    if (scope_.rank() == 0) {
      store_open_acq();       // a hold it stops inside
      store_event_count();  // its holds' events count
      const uint32_t a = scope_.actor();
      const uint32_t slot = atomicAdd(wd_.wait_count, 1u);
      if (slot < wd_.wait_cap) wd_.waits[slot] = WatchdogWait{reinterpret_cast<uint64_t>(word), a, seen, why, 0};
      if (why != kStopWasWaiting) atomicCAS(wd_.stop, 0u, a + 1);
      __threadfence();
    }
    scope_.sync();
    asm volatile("exit;");
  }

  __device__ unsigned long long ticket(uint32_t kind) {
    auto counter = device_ref<unsigned long long>(*rec_.ticket);
    const cuda::memory_order order = kind == kDeviceInv   ? cuda::memory_order_acquire
                                     : kind == kDeviceRet ? cuda::memory_order_release
                                     : kind == kDeviceLp  ? cuda::memory_order_acq_rel
                                                          : cuda::memory_order_relaxed;
    return counter.fetch_add(1ull, order) + 1;  // from 1
  }
  __device__ void append(uint32_t kind, int64_t node, uint32_t fn, uint32_t key_off, uint32_t key_len, bool is_null) {
    append_at(ticket(kind), kind, node, fn, key_off, key_len, is_null);
  }
  __device__ void append_at(unsigned long long t, uint32_t kind, int64_t node, uint32_t fn, uint32_t key_off,
                            uint32_t key_len, bool is_null) {
    const uint32_t a = scope_.actor();
    // The actor's count lives in the leader's register (read once a launch, written
    // back by each append without waiting): no load round trip inside a hold.
    if (events_ == kNotRead) events_ = rec_.event_count[a];
    const uint32_t i = events_++;  // counts past the capacity: overflow is seen
    // A hold's event (acq, rel under hold versions, t = 0) leaves the count's
    // store to the operation's next ticketed event or its end (end_op, leave):
    // one store less inside the hold, which the next fence would wait for.
    if (t != 0 || !rec_.hold_versions) rec_.event_count[a] = events_;
    if (i < rec_.event_cap)
      rec_.events[size_t(a) * rec_.event_cap + i] =
          DeviceEvent{t, op_, node, kind, fn, key_off, key_len, is_null ? 1u : 0u, a};
  }
  // A hold under implied acqs still open when the operation returns or the actor
  // stops: its acq stored now (no rel will imply it), before the ret.
  __device__ void store_open_acq() {
    if constexpr (Record) {
      if (open_node_ != kNoOpenHold) append_at(0, kDeviceAcq, open_node_, kHoldUnnumbered, 0, 0, false);
      open_node_ = kNoOpenHold;
    }
  }
  // The leader's count of its actor's events, stored (append_at leaves it to the
  // operation's end after a hold's event).
  __device__ void store_event_count() {
    if constexpr (Record)
      if (events_ != kNotRead) rec_.event_count[scope_.actor()] = events_;
  }
  __device__ void event_only(uint32_t kind, int64_t node) {
    if constexpr (Record) {
      if (scope_.rank() == 0) append(kind, node, 0, 0, 0, false);
    }
  }
  template <class Key>
  __device__ void with_keys(uint32_t kind, uint32_t fn, const Key* keys, uint32_t n, bool is_null) {
    // A key wider than the recorder's key word would be recorded truncated, and
    // its history judged on keys the structure never had: record 64-bit keys into
    // a recorder of 64-bit words (RecordKey = uint64_t).
    static_assert(!Record || sizeof(Key) <= sizeof(RecordKey), "a key wider than the recorder's key word");
    if constexpr (Record) {
      // The keys' writes before the copy: a block's broadcast barrier orders them;
      // a warp's shuffle does not, so it synchronises first.
      if constexpr (is_lane_group_scope_v<Scope>) scope_.sync();
      const uint32_t a = scope_.actor();
      const uint32_t off = scope_.template from_leader<uint32_t>([&] {
        if (keys_ == kNotRead) keys_ = rec_.key_count[a];
        const uint32_t o = keys_;
        keys_ = o + n;
        rec_.key_count[a] = keys_;
        if (kind == kDeviceRet) store_open_acq();  // a hold the operation never left: inside it
        append(kind, 0, fn, o, n, is_null);
        return o;
      });
      if (off + n <= rec_.key_cap)
        for (uint32_t i = scope_.rank(); i < n; i += scope_.size())
          rec_.keys[size_t(a) * rec_.key_cap + off + i] = static_cast<RecordKey>(keys[i]);
      scope_.sync();
    }
  }

  Scope scope_;
  BasicDeviceRecorderRef<RecordKey> rec_;
  WatchdogRef wd_;
  int64_t op_ = 0;
  // The leader's copies of its actor's event and key counts (append_at), and the
  // numbers of the holds being released (record_rel, after_release: at most two
  // at once, release_pair's, ended in the order they began).
  static constexpr uint32_t kNotRead = 0xffffffffu;
  uint32_t events_ = kNotRead, keys_ = kNotRead;
  uint32_t rel_version_a_ = 0, rel_version_b_ = 0;
  // The node of the hold begun and not yet recorded, under implied acqs.
  static constexpr uint32_t kNoOpenHold = 0xffffffffu;
  uint32_t open_node_ = kNoOpenHold;
  // The counted lock held (record_acq with its number), and that number.
  uint32_t counted_node_ = kNoOpenHold, counted_number_ = 0;
  uint32_t rels_begun_ = 0, rels_ended_ = 0;
};

}  // namespace gpulin::cuda_exec

// The contract (structures/exec/context.h), checked here, where the context is
// defined, on the instantiations the kernels make: block actors (the heaps,
// unrecorded or recorded, 32- or 64-bit recorded keys, counted holds only) and
// warp actors (the slab hash, the merge's roles). Every part in both scopes, but
// a block actor's collectives in block scope only: CudaContext declares them in
// both and refuses a warp's call in their bodies (a static_assert), which no
// requirement sees. The recording contexts (cuda/*_context.cuh) check themselves
// with meets_the_contract too.
#include "structures/exec/context.h"

namespace gpulin::cuda_exec {

template <class X, class Scope>
GPULIN_HD constexpr bool meets_the_contract() {
  static_assert(exec::SharedWords<X>);
  static_assert(exec::CountedWords<X>);
  static_assert(exec::PairedWords<X>);
  static_assert(exec::ActorLoops<X>);
  static_assert(exec::BulkData<X>);
  if constexpr (std::is_same_v<Scope, BlockScope>) static_assert(exec::BlockCollectives<X>);
  static_assert(exec::Recording<X>);
  static_assert(exec::ActorIds<X>);
  static_assert(exec::WarpLanes<X>);
  static_assert(exec::BlockBarriers<X>);
  return true;
}

static_assert(meets_the_contract<CudaContext<BlockScope>, BlockScope>());
static_assert(meets_the_contract<CudaContext<BlockScope, true>, BlockScope>());
static_assert(meets_the_contract<CudaContext<BlockScope, true, uint64_t>, BlockScope>());
static_assert(meets_the_contract<CudaContext<BlockScope, true, uint64_t, true>, BlockScope>());
static_assert(meets_the_contract<CudaContext<WarpScope>, WarpScope>());
static_assert(meets_the_contract<CudaContext<WarpScope, true>, WarpScope>());
static_assert(meets_the_contract<CudaContext<TileScope<16>>, TileScope<16>>());
static_assert(meets_the_contract<CudaContext<TileScope<8>>, TileScope<8>>());

}  // namespace gpulin::cuda_exec
