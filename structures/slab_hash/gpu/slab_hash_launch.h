// Host-side entry to the slab hash's GPU kernels (structures/slab_hash/gpu/slab_hash_kernels.cu), the
// CUDA executor of structures/slab_hash. Plain C++: host code includes it without
// nvcc. Only the production tables are instantiated (three modes, both allocators,
// no mutant, and the multimap's fixed variant beside its paper one: slab_hash_view.h,
// Variant): mutants run in the simulator.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "histories/device_events.h"
#include "histories/key_clock_records.h"
#include "structures/slab_hash/gpu/device_slab_hash.h"

namespace gpulin::slab_hash {

// A batch of operations, one per GPU thread; the threads of a warp form its work
// queue (§IV-A). Operation i is fn[i] (slab_hash::Fn) on key[i] (and value[i] for
// map and multimap inserts); fn == nullptr means every operation is `uniform_fn`
// (bulk build: kFnInsert, bulk search: kFnSearch). SEARCH writes the value found,
// or kEmptyKey when absent (set: 1 / 0), to out[i] when out is not null; SEARCHALL
// writes how many it found. All pointers are device memory.
// Unrecorded, a batch of searches runs as the original's bulk search does: each
// warp takes its searches two at a time, both first-slab reads in flight before it
// resolves either (warp_search_pairs); the answers are those of searches one at a
// time.
struct SlabOpBatch {
  const uint32_t* fn = nullptr;
  uint32_t uniform_fn = kFnSearch;
  const uint32_t* key = nullptr;
  const uint32_t* value = nullptr;
  uint32_t* out = nullptr;
  uint64_t count = 0;
};

// Launches the batch on `stream` with `threads` per block and returns the launch's
// error; no synchronisation. With `recorder`, every operation is recorded (op ids
// op_id_base + i; the actor is the grid-wide warp index, so the recorder needs
// ceil(count / 32) actors); without it, recording is compiled out.
cudaError_t launch_slab_batch(Mode mode, const DeviceSlabHash& table, const SlabOpBatch& ops, uint32_t threads,
                              cudaStream_t stream, const DeviceRecorderRef* recorder = nullptr,
                              int64_t op_id_base = 0);
// The same for a variant: Variant::Fixed is the multimap's (bucket_version.h);
// cudaErrorInvalidValue for a fixed map or set. Its searches in a batch of searches
// go one at a time (warp_search_pairs).
cudaError_t launch_slab_batch(Mode mode, Variant variant, const DeviceSlabHash& table, const SlabOpBatch& ops,
                              uint32_t threads, cudaStream_t stream, const DeviceRecorderRef* recorder = nullptr,
                              int64_t op_id_base = 0);

// The same, recorded by key clocks (histories/key_clock_records.h): operation i of
// the batch is op op_id_base + i and writes clocks.records[op_id_base + i]; its
// actor is its thread. Map and set only (a multimap's SEARCHALL returns a list);
// cudaErrorInvalidValue for a multimap or op ids past record_cap.
cudaError_t launch_slab_batch(Mode mode, const DeviceSlabHash& table, const SlabOpBatch& ops, uint32_t threads,
                              cudaStream_t stream, const KeyClockRecorderRef& clocks, int64_t op_id_base);

// Loads every kernel the table's launches may run (unrecorded, the flush, and each
// recorder's, the default published clock's included) into the context now (under
// CUDA's lazy module loading a kernel's first launch would pay it), so that timed
// launches time only the work.
cudaError_t load_slab_kernels(Mode mode, bool light, Variant variant = Variant::Paper);

// FLUSH (§IV-C4) of every bucket, one warp per bucket, as its own kernel. The same
// kernel serves both multimap variants: it runs alone, so it touches no version
// word, and it drops a DELETED pair as it drops an EMPTY one.
cudaError_t launch_slab_flush(Mode mode, const DeviceSlabHash& table, uint32_t threads, cudaStream_t stream);

}  // namespace gpulin::slab_hash
