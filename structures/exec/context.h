// The execution-context contract every structure is written against
// (docs/design.md, "One source, two executions"), as C++20 concepts. One context
// per executor: cuda/cuda_context.cuh (CudaContext<Scope, Record, RecordKey,
// CountedHoldsOnly>, and the recording contexts derived from it in
// cuda/*_context.cuh) and sim/sim_context.h (SimContext); a structure's algorithm
// is a template over `X`.
//
// The contract is split by what structures need; an entry point of a structure
// names the parts it uses (template <exec::SharedWords X> ... requires
// exec::Recording<X>), and each context is checked against every part it provides
// where it is defined (a static_assert after the class). A context that lacks a
// part is refused at the structure's entry point, with the requirement it misses
// named, not deep inside an instantiation.
//
//   SharedWords      shared words: ordered and relaxed loads, stores, CAS,
//                    fetch_*, releases, waiting; faults (every structure)
//   CountedWords     lock words that count their holds (the heap's root)
//   PairedWords      two word accesses issued together (the heap's locks)
//   ActorLoops       actor-cooperative loops over actor-private memory (merging)
//   BulkData         batches of keys moved to and from shared memory (heap nodes)
//   BlockCollectives a block actor's sum, min, exclusive scan, k-th smallest
//   Recording        invocations, responses, linearization points, lock holds
//   ActorIds         who the calling actor is: actor, warp, block, leader
//   WarpLanes        per-lane work, registers and collectives of a warp
//   BlockBarriers    the block's barriers shared by warp actors (the merge)
//
// Requirements are checked on representative arguments (uint32_t* and uint64_t*
// words, uint32_t and uint64_t keys, the exec:: tags of memory_order.h, waiting.h
// and counted_word.h); a member template that takes a function (a `Done`, an `F`)
// is checked with one of the function objects of exec::contract_args below.
// The concepts check what a call compiles to, not what it does: what each access
// means (its order, its scheduling points) is in the comments beside it.
//
// Actors. The actor - what the simulator schedules as one fiber and what records
// one sequence of operations - is a thread block (Scope = BlockScope: the heap), a
// warp (Scope = WarpScope: the merge's roles, the slab hash's work queue) or a tile
// of 16 or 8 lanes of a warp (TileScope<G>: the slab hash's operations on tiles;
// WarpLanes' collectives are then the tile's, its lanes numbered from 0).
// Actor-uniform code: on the GPU every thread of the actor runs it with the same
// values; the actor's leader performs each shared-word access and the result is
// broadcast (shared memory for a block, __shfl_sync for a warp). In the simulator
// one fiber runs it.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#include "common/host_device.h"  // GPULIN_HD
#include "structures/exec/counted_word.h"
#include "structures/exec/memory_order.h"
#include "structures/exec/waiting.h"
#include "structures/exec/word_pair.h"

namespace gpulin::exec {

// The functions the concepts pass to a context's member templates: one concrete
// type for each kind of `Done` or `F` a structure hands over. Never called (the
// concepts' expressions are unevaluated).
namespace contract_args {
// cas_until's `done(old)`: whether the attempt that saw `old` ends the loop.
struct OldWordDone {
  GPULIN_HD bool operator()(uint32_t) const { return true; }
};
// parallel_for's `f(i)`.
struct IndexStep {
  GPULIN_HD void operator()(uint32_t) const {}
};
// load_gather's `src_of(i)`: where dst[i] comes from.
struct IndexToWordAddress {
  GPULIN_HD const uint32_t* operator()(uint32_t) const { return nullptr; }
};
// sum_of's, min_of's and kth_smallest's `f(i)`: the i-th value.
struct IndexToKey {
  GPULIN_HD uint64_t operator()(uint32_t i) const { return i; }
};
// for_each_lane's `f(lane)`.
struct LaneStep {
  GPULIN_HD void operator()(uint32_t) const {}
};
// ballot's `pred(lane)`.
struct LanePredicate {
  GPULIN_HD bool operator()(uint32_t) const { return false; }
};
// shuffle's `value_of(lane)`.
struct LaneToWord {
  GPULIN_HD uint32_t operator()(uint32_t lane) const { return lane; }
};
// load_lanes' `src_of(lane)`: the word lane `lane` reads.
struct LaneToWordAddress {
  GPULIN_HD uint32_t* operator()(uint32_t) const { return nullptr; }
};
// prefetch_lanes' `src_of(lane)`: the line lane `lane` will read (nullptr: none).
struct LaneToLine {
  GPULIN_HD const void* operator()(uint32_t) const { return nullptr; }
};
}  // namespace contract_args

// ---- shared words (global memory), actor-uniform, each a scheduling point in the
// simulator ----------------------------------------------------------------------
template <class X>
concept SharedWords = requires(X& x, uint32_t* p, uint32_t* q, uint64_t* p64, uint32_t v, uint64_t v64,
                               const char* what) {
  // uint32_t x.load(uint32_t* p): an ordered (acquire) load
  { x.load(p) } -> std::same_as<uint32_t>;
  // void x.store(uint32_t* p, uint32_t v): an ordered (release) store
  x.store(p, v);
  // void x.store_guarded(uint32_t* p, uint32_t v): a store to a word only touched
  // under a lock the caller holds: the lock's release publishes it, so it needs
  // no ordering of its own
  x.store_guarded(p, v);
  // W x.cas(W* p, W expected, W desired): 32- or 64-bit; returns the old value
  { x.cas(p, v, v) } -> std::same_as<uint32_t>;
  { x.cas(p64, v64, v64) } -> std::same_as<uint64_t>;
  // uint32_t x.fetch_add / fetch_and / fetch_or(uint32_t* p, uint32_t v): the old value
  { x.fetch_add(p, v) } -> std::same_as<uint32_t>;
  { x.fetch_and(p, v) } -> std::same_as<uint32_t>;
  { x.fetch_or(p, v) } -> std::same_as<uint32_t>;
  // x.cas / fetch_add / fetch_and / store / load(..., exec::relaxed): the same access
  // without ordering (structures/exec/memory_order.h): for lock-free words that
  // carry all a reader needs (the slab hash)
  { x.cas(p, v, v, Relaxed{}) } -> std::same_as<uint32_t>;
  { x.cas(p64, v64, v64, Relaxed{}) } -> std::same_as<uint64_t>;
  { x.fetch_add(p, v, Relaxed{}) } -> std::same_as<uint32_t>;
  { x.fetch_and(p, v, Relaxed{}) } -> std::same_as<uint32_t>;
  x.store(p, v, Relaxed{});
  { x.load(p, Relaxed{}) } -> std::same_as<uint32_t>;
  // bool x.cas_won(W* p, W expected, W desired, exec::relaxed):
  // x.cas(p, expected, desired, exec::relaxed) == expected, for a caller that
  // needs only the verdict (GPU: one word broadcast, not the old value); the same
  // one scheduling point
  { x.cas_won(p, v, v, Relaxed{}) } -> std::same_as<bool>;
  { x.cas_won(p64, v64, v64, Relaxed{}) } -> std::same_as<bool>;
  // W x.cas(W* p, W expected, W desired, exec::acquire): a CAS that takes a lock:
  // acquire only (structures/exec/memory_order.h)
  { x.cas(p, v, v, Acquire{}) } -> std::same_as<uint32_t>;
  // W x.cas(W* p, W expected, W desired, exec::release): a CAS that gives up a
  // claim: release only
  { x.cas(p, v, v, Release{}) } -> std::same_as<uint32_t>;
  // void x.release(uint32_t* p, uint32_t held, uint32_t to): the actor gives up a
  // word it holds: *p is `held`, a state no other actor changes, and becomes `to`,
  // ordered (release). The GPU stores it and does not wait for the round trip;
  // the simulator does it as a CAS and fails the run (x.fail) when the word was
  // not `held`
  x.release(p, v, v);
  // void x.release_pair(uint32_t* p, uint32_t* q, uint32_t held, uint32_t to):
  // release(p, held, to) and release(q, held, to) in one release (GPU: one fence,
  // then both stores; simulator: p, then q)
  x.release_pair(p, q, v, v);
  // void x.wait_while_equals(uint32_t* p, uint32_t seen [, exec::holding]): spin
  // until *p != seen; the simulator parks the actor until a write changes the
  // word, which is how it tells a deadlock from progress; on the GPU the spin is
  // bounded (CudaContext's spin_bound re-reads, about 17 s by default), then it is
  // a fault: x.fail, never a hang. It orders nothing: a caller that needs what the
  // writer published loads the word again (an acquire), as the simulator's park
  // reads no store. exec::holding (structures/exec/waiting.h): the
  // actor holds what others wait for, so the GPU re-reads without sleeping. A wait
  // is a retry: the caller then reads the word again and keeps nothing of the
  // read that led to the wait; exec::keeps_seen: it goes on with `seen`
  x.wait_while_equals(p, v);
  x.wait_while_equals(p, v, Holding{});
  x.wait_while_equals(p, v, KeepsSeen{});
  // uint32_t x.cas_until(uint32_t* p, uint32_t from, uint32_t to, Done done
  //                      [, exec::holding] [, exec::acquire | exec::relaxed]):
  // CAS(p, from, to) until done(old value); returns that old value. Between
  // attempts the actor waits for the word to change (the simulator: a CAS point,
  // then parked as by wait_while_equals, so a lock loop written with it explores
  // as one written with both); on the GPU every attempt is the CAS itself, so a
  // freed word is taken one round trip after it is seen, not two (a read, then a
  // CAS)
  { x.cas_until(p, v, v, contract_args::OldWordDone{}) } -> std::same_as<uint32_t>;
  { x.cas_until(p, v, v, contract_args::OldWordDone{}, Holding{}) } -> std::same_as<uint32_t>;
  { x.cas_until(p, v, v, contract_args::OldWordDone{}, Acquire{}) } -> std::same_as<uint32_t>;
  { x.cas_until(p, v, v, contract_args::OldWordDone{}, Holding{}, Acquire{}) } -> std::same_as<uint32_t>;
  { x.cas_until(p, v, v, contract_args::OldWordDone{}, Holding{}, Relaxed{}) } -> std::same_as<uint32_t>;
  // faults the structure detects (capacity exhausted, impossible state):
  // void x.fail(const char* what)
  x.fail(what);
};

// ---- counted lock words (structures/exec/counted_word.h: state bits, and a count
// of the holds ended on the word that each change out of the held state grows by
// one), each access one scheduling point as above --------------------------------
template <class X>
concept CountedWords = SharedWords<X> && requires(X& x, uint32_t* p, uint32_t* q, uint32_t v) {
  // static constexpr bool X::kCountsHolds: whether a structure's countable lock
  // words count their holds under this executor (the simulator: always; the GPU:
  // where it records)
  typename std::bool_constant<X::kCountsHolds>;
  // uint32_t x.cas(uint32_t* p, uint32_t from, uint32_t to, exec::counted [, exec::acquire]):
  // if the word's state is `from` it becomes `to` (exec::counted_change); returns
  // the old word (success iff its state is `from`). The GPU retries a CAS that
  // missed by the count alone, with the count seen
  { x.cas(p, v, v, Counted{}) } -> std::same_as<uint32_t>;
  { x.cas(p, v, v, Counted{}, Acquire{}) } -> std::same_as<uint32_t>;
  // uint32_t x.cas_until(uint32_t* p, uint32_t from, uint32_t to, Done done,
  //                      exec::counted [, exec::holding] [, exec::acquire]):
  // that CAS until done(old word), waiting between attempts as cas_until does; on
  // the GPU each attempt expects the count the word will have once the hold it
  // saw has ended (exec::counted_guess)
  { x.cas_until(p, v, v, contract_args::OldWordDone{}, Counted{}) } -> std::same_as<uint32_t>;
  { x.cas_until(p, v, v, contract_args::OldWordDone{}, Counted{}, Holding{}) } -> std::same_as<uint32_t>;
  { x.cas_until(p, v, v, contract_args::OldWordDone{}, Counted{}, Acquire{}) } -> std::same_as<uint32_t>;
  { x.cas_until(p, v, v, contract_args::OldWordDone{}, Counted{}, Holding{}, Acquire{}) } -> std::same_as<uint32_t>;
  // void x.release(uint32_t* p, uint32_t held, uint32_t to, exec::counted): as
  // release, on a counted word. The GPU adds to the word (a reduction: nothing
  // waits for it)
  x.release(p, v, v, Counted{});
  // void x.release_pair(uint32_t* p, uint32_t* q, uint32_t held, uint32_t to,
  //                     exec::first_counted | exec::second_counted):
  // release_pair where p (or q) is a counted word and the other is not
  x.release_pair(p, q, v, v, FirstCounted{});
  x.release_pair(p, q, v, v, SecondCounted{});
};

// ---- two shared-word accesses issued together -----------------------------------
// Two ordered accesses issued together (GPU: two lanes, one instruction, one round
// trip); the simulator makes them two points, p then q. The GPU may perform them in
// either order, so a structure uses them only where no other actor can tell the
// orders apart (it says why where it calls them).
template <class X>
concept PairedWords = SharedWords<X> && requires(X& x, uint32_t* p, uint32_t* q, uint32_t v,
                                                 typename X::template Private<uint32_t> keys32, const uint32_t* src32,
                                                 typename X::template Private<uint64_t> keys64,
                                                 const uint64_t* src64) {
  // WordPair x.load_pair(uint32_t* p, uint32_t* q [, exec::relaxed])   (structures/exec/word_pair.h)
  { x.load_pair(p, q) } -> std::same_as<WordPair>;
  { x.load_pair(p, q, Relaxed{}) } -> std::same_as<WordPair>;
  // WordPair x.cas_pair(uint32_t* p, uint32_t ep, uint32_t dp,
  //                     uint32_t* q, uint32_t eq, uint32_t dq [, exec::acquire])
  { x.cas_pair(p, v, v, q, v, v) } -> std::same_as<WordPair>;
  { x.cas_pair(p, v, v, q, v, v, Acquire{}) } -> std::same_as<WordPair>;
  // WordPair x.load_block_and_guarded_pair(Private<Key> dst_private, const Key* src, uint32_t n,
  //                                        uint32_t* p, uint32_t* q):
  // a batch and two words, all guarded by a lock the caller holds (store_guarded's
  // kind), in one round trip: the words' loads need no ordering of their own
  // (sim: three points, p, q, the batch)
  { x.load_block_and_guarded_pair(keys32, src32, v, p, q) } -> std::same_as<WordPair>;
  { x.load_block_and_guarded_pair(keys64, src64, v, p, q) } -> std::same_as<WordPair>;
};

// ---- actor-cooperative work on actor-private memory (no scheduling point) ------
template <class X>
concept ActorLoops = requires(X& x, uint32_t n, uint32_t* p) {
  // void x.parallel_for(uint32_t n, F f): f(i) for i in [0, n) over the actor's
  // threads, then a barrier (per-thread atomics on shared words inside it:
  // structures/exec/lane_atomics.h)
  x.parallel_for(n, contract_args::IndexStep{});
  // uint32_t x.threads(): threads of the actor (lanes in the sim)
  { x.threads() } -> std::same_as<uint32_t>;
  // X::Private<T>: a pointer to the actor's private memory (a block's shared
  // memory), indexed as an array (structures/exec/private_memory.h): T* on the GPU;
  // in the simulator every element access is checked against the block's barrier
  // phases (a race between two of its threads ends the run)
  typename X::template Private<uint32_t>;
  // Private<T> x.private_view(T* base, size_t n): [base, base + n) as the actor's
  // private memory (a scratch the structure laid out, in shared or global memory,
  // that no other actor touches)
  { x.private_view(p, n) } -> std::same_as<typename X::template Private<uint32_t>>;
};

// ---- shared bulk data (a heap node's batch), one scheduling point per transfer,
// spread over the actor's threads -----------------------------------------------
// A transfer's destination in the actor is its private memory (X::Private<Key>:
// the block's threads each land their share of it); a stored batch may come from
// private memory or from a thread's own array (every thread holding the same).
template <class X>
concept BulkData = ActorLoops<X> && requires(X& x, uint32_t n, typename X::template Private<uint32_t> keys32,
                                             const uint32_t* src32, typename X::template Private<uint64_t> keys64,
                                             const uint64_t* src64, uint32_t* dst32, uint64_t* dst64) {
  // void x.load_block(Private<Key> dst_private, const Key* src_global, uint32_t n)
  x.load_block(keys32, src32, n);
  x.load_block(keys64, src64, n);
  // void x.store_block(Key* dst_global, Src src, uint32_t n): src a Private<Key> or a
  // thread's const Key*
  x.store_block(dst32, keys32, n);
  x.store_block(dst64, keys64, n);
  x.store_block(dst32, src32, n);
  // void x.load_two_blocks(Private<Key> dst_private, const Key* src_a, const Key* src_b, uint32_t n):
  // dst[0, n) = src_a[0, n), dst[n, 2n) = src_b[0, n): two transfers (two
  // scheduling points) that the GPU issues together
  x.load_two_blocks(keys32, src32, src32, n);
  x.load_two_blocks(keys64, src64, src64, n);
  // void x.load_gather(Private<Key> dst_private, uint32_t n, F src_of): dst[i] = *src_of(i)
  // for i in [0, n): scattered words read in one step (the ancestors' largest
  // keys, for the BU insert's start)
  x.load_gather(keys32, n, contract_args::IndexToWordAddress{});
};

// ---- collectives of a block actor over actor-private memory (the library calls a
// paper makes, CUB's on the GPU; no scheduling point), each ending at a barrier ---
// (CudaContext declares them for both scopes; its warp-scope ones refuse to
// compile when called, a static_assert in their bodies.)
template <class X>
concept BlockCollectives = requires(X& x, uint32_t n, const uint32_t* in, uint32_t* out, uint64_t* out64) {
  // uint32_t x.exclusive_sum(const uint32_t* in, uint32_t n, uint32_t* out):
  // out[i] = in[0] + ... + in[i - 1] (out may be in); returns the total
  { x.exclusive_sum(in, n, out) } -> std::same_as<uint32_t>;
  // uint64_t x.exclusive_sum_of(uint32_t n, F value, Private<uint64_t> out):
  // out[i] = value(0) + ... + value(i - 1), each value(i) taken once (a pass
  // that decides and counts at once, where exclusive_sum needs its words stored
  // first); returns the total
  { x.exclusive_sum_of(n, contract_args::IndexToKey{}, out64) } -> std::same_as<uint64_t>;
  // uint64_t x.sum_of(uint32_t n, F f), x.min_of(uint32_t n, F f): over
  // f(0) .. f(n - 1); min_of of nothing is ~0
  { x.sum_of(n, contract_args::IndexToKey{}) } -> std::same_as<uint64_t>;
  { x.min_of(n, contract_args::IndexToKey{}) } -> std::same_as<uint64_t>;
  // uint64_t x.kth_smallest(uint32_t n, uint32_t k, F f): the k-th smallest
  // (1-based, 1 <= k <= n) of f(0) .. f(n - 1)
  { x.kth_smallest(n, n, contract_args::IndexToKey{}) } -> std::same_as<uint64_t>;
};

// ---- recording (no-ops when recording is off; the leader appends) ---------------
template <class X>
concept Recording = requires(X& x, int64_t op, int64_t node, uint32_t fn, uint32_t n, const uint32_t* keys32,
                             const uint64_t* keys64, bool is_null) {
  // void x.begin_op(int64_t op), x.end_op()
  x.begin_op(op);
  x.end_op();
  // void x.record_acq(int64_t node), x.record_rel(int64_t node): acq right after
  // the access that won the node, rel right before the one that releases it
  x.record_acq(node);
  x.record_rel(node);
  // void x.record_acq(int64_t node, uint32_t holds_before): the acq of a counted
  // lock: holds_before is the count of the word the acquire won (the hold's
  // number; the GPU's hold versions use it, so that no counter is touched inside
  // the hold)
  x.record_acq(node, n);
  // void x.after_release(int64_t node): right after that releasing access (the
  // GPU's hold versions write the rel's event there, off the hold; elsewhere
  // nothing)
  x.after_release(node);
  // void x.record_lp(): the op's linearization point (explicit rule), right after
  // the access that decided it
  x.record_lp();
  // void x.record_inv(uint32_t fn, const Key* args, uint32_t n)
  // void x.record_ret(const Key* res, uint32_t n, bool is_null)
  // keys are recorded whole: a key wider than the GPU recorder's word
  // (CudaContext's RecordKey) does not compile (a static_assert in the call's
  // body, not a requirement here); histories hold keys up to 2^63 - 1
  x.record_inv(fn, keys32, n);
  x.record_inv(fn, keys64, n);
  x.record_ret(keys32, n, is_null);
  x.record_ret(keys64, n, is_null);
};

// ---- ids (no scheduling point) ----------------------------------------------------
template <class X>
concept ActorIds = requires(X& x) {
  // uint32_t x.actor(): the recording actor: block index, or grid-wide warp index
  { x.actor() } -> std::same_as<uint32_t>;
  // uint32_t x.warp(): this warp's index in its block
  { x.warp() } -> std::same_as<uint32_t>;
  // uint64_t x.block(), x.blocks(): this block's index, the grid's blocks
  { x.block() } -> std::same_as<uint64_t>;
  { x.blocks() } -> std::same_as<uint64_t>;
  // bool x.first_thread(): thread 0 of the block (sim: warp 0's fiber)
  { x.first_thread() } -> std::same_as<bool>;
  // bool x.leader(): lane 0 of the warp: single-thread roles run under it (sim:
  // true, the fiber is one thread)
  { x.leader() } -> std::same_as<bool>;
};

// ---- lanes ------------------------------------------------------------------------
// Code is warp-uniform (every lane of the calling warp calls each operation, with
// the same arguments) except inside for_each_lane. In the simulator the lanes of a
// warp advance together: a warp step (one for_each_lane, one load_lanes, or one
// barrier operation outside them) runs every lane, then passes one point.
template <class X>
concept WarpLanes = requires(X& x, typename X::template Regs<uint32_t, 1>& regs,
                             typename X::template Regs<uint32_t, 2>& pair_regs, uint32_t lane, uint32_t v,
                             void* dst, const void* src, uint64_t* p64, uint64_t v64,
                             typename X::template Private<uint32_t> src_shared) {
  // per-lane work of the calling warp:
  // void x.for_each_lane(f): f(lane) for the warp's 32 lanes (GPU: the calling
  // thread's lane only); arrivals made inside take effect after every lane ran
  // (sim: at the step's point)
  x.for_each_lane(contract_args::LaneStep{});
  // Regs<T, N>: N values of T per thread that live across warp steps; .of(t) is
  // consumer thread t's array (GPU: registers)
  { regs.of(lane) } -> std::same_as<uint32_t*>;
  // void x.set_lane(regs, lane, i, v): lane's register i becomes v (no point)
  x.set_lane(regs, lane, lane, v);
  // void x.warp_sync(): __syncwarp: orders the warp's shared-memory accesses (sim:
  // no point, a warp is one fiber; the lanes' clocks join)
  x.warp_sync();
  // lane collectives (warp-uniform code, outside for_each_lane; no scheduling
  // point, registers only; structures/exec/lane_search.h builds on them: the first
  // lane where ...):
  // uint32_t x.ballot(pred): bit l set when pred(l) holds (__ballot_sync)
  { x.ballot(contract_args::LanePredicate{}) } -> std::same_as<uint32_t>;
  // T x.shuffle(value_of, s): value_of(s) for every lane (__shfl_sync); each lane
  // supplies value_of(its lane). (Its type is deduced from the body, which nvcc's
  // host pass does not see in a __device__ function: checked in the other passes.)
#if defined(__CUDACC__) && !defined(__CUDA_ARCH__)
  x.shuffle(contract_args::LaneToWord{}, lane);
#else
  { x.shuffle(contract_args::LaneToWord{}, lane) } -> std::same_as<uint32_t>;
#endif
  // void x.copy16(dst, src): one 16-byte aligned vector copy (no point); the source
  // may be the block's shared memory as Private<T> (x.private_view), read by the
  // calling lane
  x.copy16(dst, src);
  x.copy16(dst, src_shared);
  // hints (warp-uniform code, outside for_each_lane; no scheduling point):
  // void x.prefetch_lanes(F src_of): lane l's line at src_of(l) (nullptr: none)
  // will be read soon: the GPU starts fetching it into the L2
  // (prefetch.global.L2), so that reads a warp makes one after another overlap
  // their DRAM trips; the later read is the ordinary one. It changes no value: the
  // simulator does nothing (it evaluates no address either)
  x.prefetch_lanes(contract_args::LaneToLine{});
  // per-lane shared loads (one scheduling point for the warp):
  // void x.load_lanes(Regs<uint32_t, 1>& dst, F src_of): lane l reads *src_of(l)
  // (relaxed, device scope); a slab of 32 words (one 128-byte line) is read in one
  // transaction, so the simulator reads the 32 words at one point
  x.load_lanes(regs, contract_args::LaneToWordAddress{});
  // void x.load_lane_pairs(Regs<uint32_t, 2>& dst, F src_of): load_lanes with the
  // words read in pairs: lanes 2i and 2i + 1 each hold the whole pair of a 64-bit
  // relaxed load at src_of(2i) (8-byte aligned; src_of(2i + 1) the word after it):
  // dst.of(l)[0] is lane l's own word, dst.of(l)[1] the pair's other half (on an
  // even lane, the value beside its key) from the SAME load. Single-copy atomic, so
  // a lane's pair written by one 64-bit CAS is never seen half old, half new, which
  // two 32-bit loads of it may be under the PTX model (they overlap the CAS only in
  // part: docs/memory-model.md). Code that needs a key with its value takes both
  // from the key's lane. One point, as load_lanes (the GPU: both lanes of a pair
  // issue the load, one transaction for the line, no shuffle after it)
  x.load_lane_pairs(pair_regs, contract_args::LaneToWordAddress{});
  // void x.load_lane_words<N>(Regs<uint32_t, N>& dst, F src_of): N = 2 or 4 words
  // a lane, lane l reading the words at src_of(l) (aligned to 4 N bytes), each
  // pair (words 2i, 2i + 1) whole, single-copy atomic (the GPU: one 8- or 16-byte
  // relaxed load); dst.of(l)[j] is word j. One point. A tile of 16 or 8 lanes reads
  // a slab of pairs so, one or two pairs a lane (structures/slab_hash/slab_lanes.h)
  x.template load_lane_words<2>(pair_regs, contract_args::LaneToWordAddress{});
  // one thread's own accesses, inside for_each_lane or in code one lane runs (under
  // x.leader()): uint64_t x.thread_load(const uint64_t* p), void
  // x.thread_store(uint64_t* p, uint64_t v): relaxed, device scope, 64 bits whole
  // (GPU: the calling thread alone, no broadcast; simulator: part of the step they
  // are in, no scheduling point of their own)
  { x.thread_load(p64) } -> std::same_as<uint64_t>;
  x.thread_store(p64, v64);
};

// ---- the block's barriers (warp actors of one block taking separate roles, the
// merge; sim: the block's SimBlock, faults when the actor's block shares none) ----
// Order: a phase's arrivals release what each arriving thread did before; a wait
// that sees the phase complete acquires it. Shared-memory data handed between warps
// (descriptors, stages, split rings) is ordered by these barriers only. Reads of a
// structure's immutable inputs need no scheduling point (they commute with every
// other actor's step).
template <class X>
concept BlockBarriers = requires(X& x, uint64_t* bar, uint32_t n, typename X::template Private<uint32_t> dst_shared,
                                 const void* src_global, uint32_t* smem_words) {
  // X::Private<T> x.private_view(T* base, size_t n): the block's shared memory, as
  // its warps hold it (T* on the GPU; in the simulator every element access is
  // checked for races between the block's threads: happens-before through the
  // lanes' own order, the mbarrier phases, warp_sync and block_sync,
  // sim/private_memory/lane_clocks.h). The barriers below stay plain uint64_t*.
  { x.private_view(smem_words, n) } -> std::same_as<typename X::template Private<uint32_t>>;
  // void x.block_sync(): __syncthreads over all warps of the block (scheduling
  // point; parks until every warp arrived). A block actor may call it too: its own
  // threads' barrier (sim: no scheduling point, a barrier phase ends)
  x.block_sync();
  // void x.publish_barrier_init(): after first_thread() initialised the barriers,
  // before block_sync (GPU sm_90: fence.mbarrier_init; sim: nothing)
  x.publish_barrier_init();
  // transaction barriers in shared memory (mbarrier), each a scheduling point:
  // void x.init_barrier(uint64_t* bar, uint32_t count): `count` arrivals a phase
  x.init_barrier(bar, n);
  // void x.expect_bytes(bar, n): n more bytes will land on bar in this phase
  x.expect_bytes(bar, n);
  // void x.bulk_load(Private<T> dst_shared, const void* src_global, uint32_t n, bar):
  // asynchronous copy of n bytes (16-byte aligned both sides, n % 16 == 0), its
  // bytes counted on bar when they land (sim: at once, the earliest moment the
  // copy engine could write; the issuing thread's writes)
  x.bulk_load(dst_shared, src_global, n, bar);
  // void x.arrive(bar): one arrival, release; a phase completes with all its
  // arrivals and all its announced bytes
  x.arrive(bar);
  // void x.wait(bar, parity): until the phase of that parity completed, acquire;
  // the hardware's parity semantics (the sim parks the fiber until the phase
  // flips, so a wait nobody completes is a deadlock)
  x.wait(bar, n);
};

}  // namespace gpulin::exec
