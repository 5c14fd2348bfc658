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
//              changes the word, which is how it tells a deadlock from progress
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
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define GPULIN_HD __host__ __device__
#define GPULIN_D __device__
#else
#define GPULIN_HD
#define GPULIN_D
#endif
