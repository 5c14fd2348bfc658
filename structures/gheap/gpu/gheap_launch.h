// Host-side entry to the heap's GPU kernels (structures/gheap/gpu/gheap_kernels.cu), the CUDA
// executor of structures/gheap. Plain C++ so that host code includes it without nvcc.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

#include "cuda/watchdog.h"
#include "histories/device_events.h"
#include "structures/gheap/config.h"

namespace gpulin::gheap {

// A batch of operations for the GPU: operation i is fn[i] (kFnIns or kFnDel), with
// n[i] keys at keys[i*k ...] for an insert. Blocks take operations round-robin:
// block b runs b, b + blocks, ... in order. Deleted keys go to out[i*k ...], their
// count to out_n[i]. All pointers are device memory. `Key` is the heap's key type.
template <class Key = uint32_t>
struct GpuOpBatch {
  const uint32_t* fn = nullptr;
  const uint32_t* n = nullptr;
  const Key* keys = nullptr;
  Key* out = nullptr;
  uint32_t* out_n = nullptr;
  uint64_t count = 0;
};

// A recorder that numbers the root's holds alone, each one record: hold versions
// with implied acqs over nodes [0, kRootHoldNodes) (histories/device_events.h;
// what gpulin stress, the SSSP and knapsack runs and the bench's +root rows
// record). The root is the heap's one counted lock (config.h): the kernels for
// such a recorder compile in no recording code for the other nodes' locks
// (cuda/cuda_context.cuh, CountedHoldsOnly).
template <class Key>
bool root_only_recorder(const BasicDeviceRecorderRef<Key>& rec) {
  return rec.hold_versions != nullptr && rec.implied_acqs != 0 && rec.hold_version_nodes == kRootHoldNodes;
}

// Launches the batch on heap memory `h` (device memory) with `blocks` x `threads`
// on `stream` and returns the launch's error; it does not synchronise (a fault in
// the kernel shows at the caller's next synchronisation). With `recorder` every
// event is recorded (op ids are `op_id_base + i`; keys whole, in the recorder's
// words of the heap's key type); without it, recording is compiled out. With
// `watchdog` a run that cannot finish stops and drains (cuda/watchdog.h); without
// it a wait past the default bound traps. Instantiated: both flavors and variants
// for the key types uint32_t and uint64_t (the key type is a template parameter
// of the kernels, never a run-time branch), and one mutant, lost-root-release on
// the fixed TD heap with 32-bit keys (the watchdog's deadlock); any other mutant,
// or that one elsewhere, is cudaErrorInvalidValue (mutants run in the simulator).
template <class Key>
cudaError_t launch_heap_batch(Flavor flavor, Variant variant, const HeapMemory<Key>& h, const GpuOpBatch<Key>& ops,
                              uint32_t blocks, uint32_t threads, cudaStream_t stream,
                              const BasicDeviceRecorderRef<std::type_identity_t<Key>>* recorder = nullptr,
                              int64_t op_id_base = 0, const cuda_exec::WatchdogRef* watchdog = nullptr,
                              Mutant mutant = Mutant::None);
extern template cudaError_t launch_heap_batch(Flavor, Variant, const HeapMemory<uint32_t>&,
                                              const GpuOpBatch<uint32_t>&, uint32_t, uint32_t, cudaStream_t,
                                              const DeviceRecorderRef*, int64_t, const cuda_exec::WatchdogRef*, Mutant);
extern template cudaError_t launch_heap_batch(Flavor, Variant, const HeapMemory<uint64_t>&,
                                              const GpuOpBatch<uint64_t>&, uint32_t, uint32_t, cudaStream_t,
                                              const DeviceRecorderRef64*, int64_t, const cuda_exec::WatchdogRef*, Mutant);

}  // namespace gpulin::gheap
