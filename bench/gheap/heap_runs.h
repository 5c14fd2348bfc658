// One checked, timed run of the generalized heap on the GPU (structures/gheap/gpu): a
// workload plan (the operations of structures/gheap/gpu/workload_shape.h, with the
// keys drawn on the GPU), its device arrays, the phases timed apart by CUDA events
// and the checks. Written once for gpulin_bench_gheap (every section) and
// gpulin_bench_p1 (the heap against the P-Sync heap on the same keys). Plain C++
// (the kernels and CUB are in heap_runs.cu), so that host code includes it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/host_device.h"
#include "cuda/watchdog.h"
#include "histories/device_recorder.h"
#include "structures/gheap/config.h"
#include "structures/gheap/gpu/device_heap.h"
#include "structures/gheap/gpu/workload_keys.h"

namespace gpulin::gheap_bench {

constexpr uint32_t kEmpty = 0xffffffffu;  // MAX_VALUE: never a key, pads batches

// ------------------------------------------------------------------ errors
struct CudaFailure : std::runtime_error {
  cudaError_t code;
  CudaFailure(cudaError_t c, const std::string& what)
      : std::runtime_error(what + ": " + cudaGetErrorString(c)), code(c) {}
};
inline void ck(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw CudaFailure(e, what);
}
// After a failure: clears a non-sticky error; true when the context is lost (a
// trapped kernel, an illegal address), so that no further GPU work can run.
inline bool context_lost() {
  (void)cudaGetLastError();
  return cudaDeviceSynchronize() != cudaSuccess;
}

// ------------------------------------------------------------------ keys
// Counter-based stream (structures/gheap/gpu/workload_keys.h, gpulin stress's): key
// i of a seed is the same on host and device, so a host baseline uses the GPU
// workload's keys without a copy. Never kEmpty.
GPULIN_HD inline uint32_t stream_key(uint64_t seed, uint64_t i) { return stress::stream_key<uint32_t>(seed, i); }

// CUB's radix sort of n keys (32-bit counts where they fit: the size query and the
// sort must use the same count type, so both go through this).
cudaError_t sort_plain(void* temp, size_t& bytes, const uint32_t* in, uint32_t* out, uint64_t n);

// ------------------------------------------------------------------ workloads
enum class Col { Ins, Del, Pairs, Untimed };
struct PhaseSpec {
  std::string name;
  uint64_t begin = 0, end = 0;  // operations [begin, end)
  Col col = Col::Untimed;
};
// Where the stream keys come from: the hash (random), or its first keys sorted.
enum class Src { Hash, Ascend, Descend };

// One run's operations, built on the host (fn, n, stream offsets: small) and
// expanded to key slots on the device. The operations are tools/stress's
// (workload_shape.h: one meaning of each workload name); only the keys are drawn
// here, on the GPU.
struct Plan {
  std::string name;  // random | ascend | descend | partial:P | insdel:L
  uint32_t k = 0;
  Src src = Src::Hash;
  uint64_t flat = 0;      // stream keys a sorted source needs (ascend/descend)
  uint64_t n_keys = 0;    // N: keys the timed part inserts (keys/s are per N)
  uint64_t inserted = 0;  // keys inserted over all phases (the stream's length)
  uint64_t ins_ops = 0;   // insert operations (sizes the heap)
  std::vector<uint32_t> fn, n;
  std::vector<uint64_t> off;
  std::vector<PhaseSpec> phases;
  uint64_t ops() const { return fn.size(); }
};

// random | ascend | descend: N keys in full batches, then deletes until empty.
Plan make_full(const std::string& kind, uint64_t N, uint32_t k);
// partial:P: each insert partial (1..k-1 keys) with probability P %.
Plan make_partial(uint32_t percent, uint64_t N, uint32_t k, uint64_t seed);
// insdel:L (§5.5): fill, timed pairs in rounds of `blocks`, drain (untimed).
Plan make_insdel(uint32_t levels, uint64_t N, uint32_t k, uint32_t blocks);

// The plan's stream keys, in the order the plan inserts them (p.inserted keys: the
// hash's, or those sorted for ascend/descend), into `dst` (device memory); the
// keys a run draws from `seed`. Synchronous; allocates its own scratch.
void plan_keys(const Plan& p, uint64_t seed, uint32_t* dst);

// ------------------------------------------------------------------ device memory
// The heap's bytes for k and `full_nodes` nodes (DeviceHeap's rounding up).
size_t heap_bytes(uint32_t k, uint64_t full_nodes);

struct Counters;  // the checks' counts (heap_runs.cu)

// Arrays of one plan on the device: per operation fn, n, off, out_n; per key slot
// (ops x k) keys, out and alt (the sorts' second buffer); CUB temp storage.
struct Workspace {
  uint64_t ops_cap = 0, slot_cap = 0, flat_cap = 0;
  uint32_t *fn = nullptr, *n = nullptr, *out_n = nullptr, *keys = nullptr, *out = nullptr, *alt = nullptr;
  uint64_t* off = nullptr;
  void* temp = nullptr;
  size_t temp_bytes = 0;
  Counters* counters = nullptr;

  static size_t bytes_for(uint64_t ops, uint32_t k, uint64_t flat);
  Workspace() = default;
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  ~Workspace() { release(); }
  void release();
  // Throws CudaFailure (cudaErrorMemoryAllocation when the GPU is full).
  void allocate(uint64_t ops, uint32_t k, uint64_t flat);
  // fn, n, off of a plan (once per plan: the checks leave them alone).
  void upload(const Plan& p);
  // The plan's key slots (again before every run: the check sorts them in place):
  // from `source` (device memory, the plan's p.inserted stream keys, as plan_keys
  // writes them; left unchanged) when given, else drawn from `seed`.
  void generate(const Plan& p, uint64_t seed, const uint32_t* source = nullptr);
};

// ------------------------------------------------------------------ runs
struct RunOut {
  std::vector<double> col_s = std::vector<double>(3, 0.0);  // Ins, Del, Pairs
  double wall_s = 0;
  bool ok = false, fatal = false;  // fatal: the CUDA context is lost
  std::string fail;
};

class Runner {
 public:
  Runner();
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  // One run: reset, keys (`keys` as Workspace::generate's source), every phase one
  // launch with `blocks` x `threads`, timed by CUDA events around it, then the check
  // (untimed). With `rec` every event is recorded. Never throws: a failure is in
  // RunOut::fail.
  RunOut run(const Plan& p, Workspace& ws, gheap::DeviceHeap<uint32_t>& heap, gheap::Flavor fl, uint32_t blocks,
             uint32_t threads, uint64_t seed, DeviceRecorder* rec = nullptr, const uint32_t* keys = nullptr);

  // Each delete's batch sorted; deleted == inserted; sorted(deleted) ==
  // sorted(inserted); the heap empty. Empty when it passed. Destroys keys, out, alt.
  static std::string check(const Plan& p, Workspace& ws, gheap::DeviceHeap<uint32_t>& heap);

  // How the kernels' waiters on the root sleep between attempts (cuda/watchdog.h);
  // no watchdog either way.
  void set_backoff(uint32_t first_ns, uint32_t max_ns) {
    waits_.backoff_first_ns = first_ns;
    waits_.backoff_max_ns = max_ns;
  }

 private:
  cudaEvent_t e0_{}, e1_{};
  cuda_exec::WatchdogRef waits_{};
};

}  // namespace gpulin::gheap_bench
