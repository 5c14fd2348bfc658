// The execution-context contract every structure is written against
// (../shared/design.md, "One source, two executions").
//
// A structure's algorithm is a template over `X`. Block-uniform code: on the GPU
// every thread of the block runs it with the same values; in the simulator one
// fiber runs it. Everything another actor can observe goes through `x`:
//
//   shared words (32-bit, global memory), each a scheduling point in the simulator:
//     uint32_t x.load(uint32_t* p)                 ordered (acquire) load
//     void     x.store(uint32_t* p, uint32_t v)    ordered (release) store
//     void     x.store_guarded(uint32_t* p, uint32_t v)
//              a store to a word only touched under a lock the caller holds: the
//              lock's release publishes it, so it needs no ordering of its own
//     uint32_t x.cas(uint32_t* p, uint32_t expected, uint32_t desired)   returns the old value
//     uint32_t x.fetch_add(uint32_t* p, uint32_t v)
//     void     x.wait_while_equals(uint32_t* p, uint32_t seen)
//              spin until *p != seen; the simulator parks the actor until a write
//              changes the word, which is how it tells a deadlock from progress;
//              on the GPU the spin is bounded (CudaContext's spin_bound re-reads,
//              about 17 s by default), then it is a fault: x.fail, never a hang
//   shared bulk data (a heap node's batch), one scheduling point per transfer:
//     void x.load_block(Key* dst_private, const Key* src_global, uint32_t n)
//     void x.store_block(Key* dst_global, const Key* src_private, uint32_t n)
//     void x.load_two_blocks(Key* dst_private, const Key* src_a, const Key* src_b, uint32_t n)
//              dst[0, n) = src_a[0, n), dst[n, 2n) = src_b[0, n): two transfers
//              (two scheduling points) that the GPU issues together
//     void x.load_gather(Key* dst_private, uint32_t n, F src_of)
//              dst[i] = *src_of(i) for i in [0, n): scattered words read in one
//              step (the ancestors' largest keys, for the BU insert's start)
//   block-cooperative work on block-private memory (no scheduling point):
//     void x.parallel_for(uint32_t n, F f)   f(i) for i in [0, n) over the block's
//                                            threads, then a barrier
//     uint32_t x.threads()                   threads per block (lanes in the sim)
//   recording (no-ops when recording is off):
//     void x.record_acq(int64_t node), x.record_rel(int64_t node)
//     void x.record_inv(uint32_t fn, const Key* args, uint32_t n)
//     void x.record_ret(const Key* res, uint32_t n, bool is_null)
//   faults the structure detects (capacity exhausted, impossible state):
//     void x.fail(const char* what)
//
// Warp-role contexts (GPU Merge Path, structures/merge_path/global_merge.h): the
// actor is a warp, not a block. A block's warps take separate roles and meet only at
// transaction barriers in the block's shared memory; code is warp-uniform (every
// lane of the warp calls each operation, with the same arguments) except inside
// for_each_lane. The simulator runs each warp as a fiber; the GPU context
// (cuda/cuda_warp_context.cuh) is the real instructions. In the simulator the lanes
// of a warp advance together: a warp step (one for_each_lane, or one barrier
// operation outside it) runs every lane, then passes one scheduling point.
//   ids (no scheduling point):
//     uint32_t x.warp()        this warp's index in its block
//     uint64_t x.block(), x.blocks()   this block's index, the grid's blocks
//     bool     x.first_thread()        thread 0 of the block (sim: warp 0's fiber)
//     bool     x.leader()              lane 0 of the warp: single-thread roles run
//                                      under it (sim: true, the fiber is one thread)
//   per-lane work of the calling warp:
//     void x.for_each_lane(f)  f(lane) for the warp's 32 lanes (GPU: the calling
//                              thread's lane only); arrivals made inside take effect
//                              after every lane ran (sim: at the step's point)
//     Regs<T, N>               N values of T per thread that live across warp steps;
//                              .of(t) is consumer thread t's array (GPU: registers)
//     void x.warp_sync()       __syncwarp: orders the warp's shared-memory accesses
//                              (sim: nothing to do, a warp is one fiber)
//   lane collectives (warp-uniform code, outside for_each_lane; no scheduling
//   point, registers only):
//     uint32_t x.ballot(pred)          bit l set when pred(l) holds (__ballot_sync)
//     T        x.shuffle(value_of, s)  value_of(s) for every lane (__shfl_sync);
//                                      each lane supplies value_of(its lane)
//     (structures/exec/lane_search.h builds on them: the first lane where ...)
//     void x.copy16(dst, src)  one 16-byte aligned vector copy (no point)
//   block-level collective (scheduling point; parks until every warp arrived):
//     void x.block_sync()      __syncthreads over all warps of the block
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
