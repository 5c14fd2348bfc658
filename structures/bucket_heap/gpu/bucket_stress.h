// gpulin stress --structure bucket-heap: the parallel bucket heap on the GPU (a
// persistent block per level, structures/bucket_heap/gpu/bucket_heap_kernels.cu) running a Dijkstra-like
// program of UPDATE batches (up to d pairs), EXTRACTMINs and DELETEs, then a drain
// to empty; every EXTRACTMIN's answer checked against a sequential priority queue
// on the host, and with recording the bucket-pq history by its witness check.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "structures/bucket_heap/sim/bucket_program.h"

namespace gpulin::stress {

struct BucketStressOptions {
  uint32_t d = 64;
  uint64_t ops = 100000;  // before the drain
  uint64_t seed = 1;
  uint32_t threads = 256;  // a level block's
  bool record = false;
  std::string out_dir;  // with record: the history as JSON Lines goes here
};

struct BucketStressResult {
  uint64_t ops = 0, updates = 0, extracts = 0, empty_extracts = 0, deletes = 0;  // the drain included
  uint32_t levels = 0;
  double kernel_seconds = 0, check_seconds = 0, download_seconds = 0;
  uint64_t events = 0;
  std::vector<std::string> failures;  // empty: pass
  std::string history_path;
};

// A Dijkstra-like program at scale: a batch brings new values or gives values in
// the heap a smaller priority (only the latter once the heap holds max(16 d, 4096)
// values); ties in priority are ordered by value (the heap's rank order,
// config.h). Ends with EXTRACTMINs until the heap is empty and one more.
explore::BucketProgram make_bucket_stress_program(uint32_t d, uint64_t ops, uint64_t seed);

// Throws std::invalid_argument for bad options, std::runtime_error when the GPU
// cannot run it (more levels than SMs).
BucketStressResult run_bucket_stress(const BucketStressOptions& o);
// The same run and checks for a given program (d, threads, record and out_dir from
// `o`; its ops and seed unused).
BucketStressResult run_bucket_program_on_gpu(const explore::BucketProgram& p, const BucketStressOptions& o);

}  // namespace gpulin::stress
