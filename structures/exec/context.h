// The execution-context contract every structure is written against
// (../shared/design.md, "One source, two executions"). One context per executor:
// cuda/cuda_context.cuh (CudaContext<Scope, Record>) and sim/sim_context.h
// (SimContext); a structure's algorithm is a template over `X`.
//
// Actors. The actor - what the simulator schedules as one fiber and what records
// one sequence of operations - is a thread block (Scope = BlockScope: the heap) or
// a warp (Scope = WarpScope: the merge's roles, the slab hash's work queue).
// Actor-uniform code: on the GPU every thread of the actor runs it with the same
// values; the actor's leader performs each shared-word access and the result is
// broadcast (shared memory for a block, __shfl_sync for a warp). In the simulator
// one fiber runs it.
//
//   shared words (global memory), each a scheduling point in the simulator:
//     uint32_t x.load(uint32_t* p)                 ordered (acquire) load
//     void     x.store(uint32_t* p, uint32_t v)    ordered (release) store
//     void     x.store_guarded(uint32_t* p, uint32_t v)
//              a store to a word only touched under a lock the caller holds: the
//              lock's release publishes it, so it needs no ordering of its own
//     W        x.cas(W* p, W expected, W desired)  32- or 64-bit; returns the old value
//     uint32_t x.fetch_add / fetch_and / fetch_or(uint32_t* p, uint32_t v)   old value
//     x.cas / fetch_add / fetch_and / store(..., exec::relaxed)
//              the same access without ordering (structures/exec/memory_order.h):
//              for lock-free words that carry all a reader needs (the slab hash)
//     bool     x.cas_won(W* p, W expected, W desired, exec::relaxed)
//              x.cas(p, expected, desired, exec::relaxed) == expected, for a caller
//              that needs only the verdict (GPU: one word broadcast, not the old
//              value); the same one scheduling point
//     void     x.release(uint32_t* p, uint32_t held, uint32_t to)
//              the actor gives up a word it holds: *p is `held`, a state no other
//              actor changes, and becomes `to`, ordered (release). The GPU stores it
//              and does not wait for the round trip; the simulator does it as a CAS
//              and fails the run (x.fail) when the word was not `held`
//     void     x.release_pair(uint32_t* p, uint32_t* q, uint32_t held, uint32_t to)
//              release(p, held, to) and release(q, held, to) in one release (GPU:
//              one fence, then both stores; simulator: p, then q)
//     WordPair x.load_pair(uint32_t* p, uint32_t* q)          (structures/exec/word_pair.h)
//     WordPair x.cas_pair(uint32_t* p, uint32_t ep, uint32_t dp,
//                         uint32_t* q, uint32_t eq, uint32_t dq [, exec::acquire])
//              two ordered accesses issued together (GPU: two lanes, one
//              instruction, one round trip); the simulator makes them two points,
//              p then q. The GPU may perform them in either order, so a structure
//              uses them only where no other actor can tell the orders apart (it
//              says why where it calls them)
//     void     x.wait_while_equals(uint32_t* p, uint32_t seen [, exec::holding])
//              spin until *p != seen; the simulator parks the actor until a write
//              changes the word, which is how it tells a deadlock from progress;
//              on the GPU the spin is bounded (CudaContext's spin_bound re-reads,
//              about 17 s by default), then it is a fault: x.fail, never a hang.
//              exec::holding (structures/exec/waiting.h): the actor holds what
//              others wait for, so the GPU re-reads without sleeping
//     W        x.cas(W* p, W expected, W desired, exec::acquire)
//              a CAS that takes a lock: acquire only (structures/exec/memory_order.h)
//     uint32_t x.cas_until(uint32_t* p, uint32_t from, uint32_t to, Done done
//                          [, exec::holding] [, exec::acquire])
//              CAS(p, from, to) until done(old value); returns that old value.
//              Between attempts the actor waits for the word to change (the
//              simulator: a CAS point, then parked as by wait_while_equals, so a
//              lock loop written with it explores as one written with both); on
//              the GPU every attempt is the CAS itself, so a freed word is taken
//              one round trip after it is seen, not two (a read, then a CAS)
//   static constexpr bool X::kCountsHolds
//              whether a structure's countable lock words count their holds under
//              this executor (the simulator: always; the GPU: where it records)
//   counted lock words (structures/exec/counted_word.h: state bits, and a count
//   of the holds ended on the word that each change out of the held state grows
//   by one), each access one scheduling point as above:
//     uint32_t x.cas(uint32_t* p, uint32_t from, uint32_t to, exec::counted [, exec::acquire])
//              if the word's state is `from` it becomes `to` (exec::counted_change);
//              returns the old word (success iff its state is `from`). The GPU
//              retries a CAS that missed by the count alone, with the count seen
//     uint32_t x.cas_until(uint32_t* p, uint32_t from, uint32_t to, Done done,
//                          exec::counted [, exec::holding] [, exec::acquire])
//              that CAS until done(old word), waiting between attempts as
//              cas_until does; on the GPU each attempt expects the count the word
//              will have once the hold it saw has ended (exec::counted_guess)
//     void     x.release(uint32_t* p, uint32_t held, uint32_t to, exec::counted)
//              as release, on a counted word. The GPU adds to the word (a
//              reduction: nothing waits for it)
//     void     x.release_pair(uint32_t* p, uint32_t* q, uint32_t held, uint32_t to,
//                             exec::first_counted | exec::second_counted)
//              release_pair where p (or q) is a counted word and the other is not
//     WordPair x.load_block_and_guarded_pair(Key* dst_private, const Key* src, uint32_t n,
//                                            uint32_t* p, uint32_t* q)
//              a batch and two words, all guarded by a lock the caller holds
//              (store_guarded's kind), in one round trip: the words' loads need no
//              ordering of their own (sim: three points, p, q, the batch)
//   shared bulk data (a heap node's batch), one scheduling point per transfer,
//   spread over the actor's threads:
//     void x.load_block(Key* dst_private, const Key* src_global, uint32_t n)
//     void x.store_block(Key* dst_global, const Key* src_private, uint32_t n)
//     void x.load_two_blocks(Key* dst_private, const Key* src_a, const Key* src_b, uint32_t n)
//              dst[0, n) = src_a[0, n), dst[n, 2n) = src_b[0, n): two transfers
//              (two scheduling points) that the GPU issues together
//     void x.load_gather(Key* dst_private, uint32_t n, F src_of)
//              dst[i] = *src_of(i) for i in [0, n): scattered words read in one
//              step (the ancestors' largest keys, for the BU insert's start)
//   actor-cooperative work on actor-private memory (no scheduling point):
//     void x.parallel_for(uint32_t n, F f)   f(i) for i in [0, n) over the actor's
//                                            threads, then a barrier (per-thread
//                                            atomics on shared words inside it:
//                                            structures/exec/lane_atomics.h)
//     uint32_t x.threads()                   threads of the actor (lanes in the sim)
//   collectives of a block actor over actor-private memory (the library calls a
//   paper makes, CUB's on the GPU; no scheduling point), each ending at a barrier:
//     uint32_t x.exclusive_sum(const uint32_t* in, uint32_t n, uint32_t* out)
//              out[i] = in[0] + ... + in[i - 1] (out may be in); returns the total
//     uint64_t x.sum_of(uint32_t n, F f), x.min_of(uint32_t n, F f)
//              over f(0) .. f(n - 1); min_of of nothing is ~0
//     uint64_t x.kth_smallest(uint32_t n, uint32_t k, F f)
//              the k-th smallest (1-based, 1 <= k <= n) of f(0) .. f(n - 1)
//   ids (no scheduling point):
//     uint32_t x.actor()       the recording actor: block index, or grid-wide warp index
//     uint32_t x.warp()        this warp's index in its block
//     uint64_t x.block(), x.blocks()   this block's index, the grid's blocks
//     bool     x.first_thread()        thread 0 of the block (sim: warp 0's fiber)
//     bool     x.leader()              lane 0 of the warp: single-thread roles run
//                                      under it (sim: true, the fiber is one thread)
//   recording (no-ops when recording is off; the leader appends):
//     void x.begin_op(int64_t op), x.end_op()
//     void x.record_acq(int64_t node), x.record_rel(int64_t node)
//                              acq right after the access that won the node, rel
//                              right before the one that releases it
//     void x.record_acq(int64_t node, uint32_t holds_before)
//                              the acq of a counted lock: holds_before is the
//                              count of the word the acquire won (the hold's
//                              number; the GPU's hold versions use it, so that
//                              no counter is touched inside the hold)
//     void x.after_release(int64_t node)   right after that releasing access (the
//                              GPU's hold versions write the rel's event there,
//                              off the hold; elsewhere nothing)
//     void x.record_lp()       the op's linearization point (explicit rule), right
//                              after the access that decided it
//     void x.record_inv(uint32_t fn, const Key* args, uint32_t n)
//     void x.record_ret(const Key* res, uint32_t n, bool is_null)
//                              keys are recorded whole: a key wider than the
//                              GPU recorder's word (CudaContext's RecordKey) does
//                              not compile; histories hold keys up to 2^63 - 1
//   faults the structure detects (capacity exhausted, impossible state):
//     void x.fail(const char* what)
//
// Lanes. Code is warp-uniform (every lane of the calling warp calls each operation,
// with the same arguments) except inside for_each_lane. In the simulator the lanes
// of a warp advance together: a warp step (one for_each_lane, one load_lanes, or
// one barrier operation outside them) runs every lane, then passes one point.
//   per-lane work of the calling warp:
//     void x.for_each_lane(f)  f(lane) for the warp's 32 lanes (GPU: the calling
//                              thread's lane only); arrivals made inside take effect
//                              after every lane ran (sim: at the step's point)
//     Regs<T, N>               N values of T per thread that live across warp steps;
//                              .of(t) is consumer thread t's array (GPU: registers)
//     void x.set_lane(regs, lane, i, v)   lane's register i becomes v (no point)
//     void x.warp_sync()       __syncwarp: orders the warp's shared-memory accesses
//                              (sim: nothing to do, a warp is one fiber)
//   lane collectives (warp-uniform code, outside for_each_lane; no scheduling
//   point, registers only):
//     uint32_t x.ballot(pred)          bit l set when pred(l) holds (__ballot_sync)
//     T        x.shuffle(value_of, s)  value_of(s) for every lane (__shfl_sync);
//                                      each lane supplies value_of(its lane)
//     (structures/exec/lane_search.h builds on them: the first lane where ...)
//     void x.copy16(dst, src)  one 16-byte aligned vector copy (no point)
//   hints (warp-uniform code, outside for_each_lane; no scheduling point):
//     void x.prefetch_lanes(F src_of)
//              lane l's line at src_of(l) (nullptr: none) will be read soon: the
//              GPU starts fetching it into the L2 (prefetch.global.L2), so that
//              reads a warp makes one after another overlap their DRAM trips; the
//              later read is the ordinary one. It changes no value: the simulator
//              does nothing (it evaluates no address either)
//   per-lane shared loads (one scheduling point for the warp):
//     void x.load_lanes(Regs<uint32_t, 1>& dst, F src_of)
//              lane l reads *src_of(l) (relaxed, device scope); a slab of 32 words
//              (one 128-byte line) is read in one transaction, so the simulator
//              reads the 32 words at one point
//
// The block's barriers (warp actors of one block taking separate roles, the merge;
// sim: the block's SimBlock, faults when the actor's block shares none):
//     void x.block_sync()      __syncthreads over all warps of the block
//                              (scheduling point; parks until every warp arrived)
//     void x.publish_barrier_init()   after first_thread() initialised the
//                              barriers, before block_sync (GPU sm_90:
//                              fence.mbarrier_init; sim: nothing)
//   transaction barriers in shared memory (mbarrier), each a scheduling point:
//     void x.init_barrier(uint64_t* bar, uint32_t count)  `count` arrivals a phase
//     void x.expect_bytes(bar, n)   n more bytes will land on bar in this phase
//     void x.bulk_load(void* dst_shared, const void* src_global, uint32_t n, bar)
//              asynchronous copy of n bytes (16-byte aligned both sides, n % 16 ==
//              0), its bytes counted on bar when they land (sim: at once, the
//              earliest moment the copy engine could write)
//     void x.arrive(bar)            one arrival, release; a phase completes with
//                                   all its arrivals and all its announced bytes
//     void x.wait(bar, parity)      until the phase of that parity completed,
//                                   acquire; the hardware's parity semantics (the
//                                   sim parks the fiber until the phase flips, so
//                                   a wait nobody completes is a deadlock)
//   Order: a phase's arrivals release what each arriving thread did before; a wait
//   that sees the phase complete acquires it. Shared-memory data handed between
//   warps (descriptors, stages, split rings) is ordered by these barriers only.
//   Reads of a structure's immutable inputs need no scheduling point (they commute
//   with every other actor's step).
#pragma once

#include <cstdint>

#include "common/host_device.h"  // GPULIN_HD
#include "structures/exec/counted_word.h"
#include "structures/exec/waiting.h"
#include "structures/exec/word_pair.h"
