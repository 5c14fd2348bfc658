// What each heap workload name means, once: the operations and their phases,
// without the keys. `gpulin stress` and gpulin_bench_gheap draw the keys on the GPU
// (device_workload.h), make_workload on the host (workload.h); the same stream
// (workload_keys.h). Same name, same operations, same keys.
//
//   random | ascend | descend  N keys inserted in full batches (the last may be
//                              partial), then deletes until the heap is empty (one
//                              more than the batches: it returns the empty buffer).
//   partial:P                  as random, each insert partial (1..k-1 keys) with
//                              probability P %.
//   insdel:L                   (§5.5) fill 2^L - 1 full nodes, then N keys worth of
//                              insert-delete pairs in rounds of `blocks` inserts
//                              then `blocks` deletes, so that with round-robin
//                              assignment every block does one insert, then one
//                              delete ("every thread performs one ins and one del"),
//                              then drain: 2^L + 1 deletes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpulin::stress {

enum class KeyOrder { Random, Ascend, Descend };

struct ShapePhase {
  std::string name;        // insert, delete, fill, pairs, drain
  uint64_t begin = 0, end = 0;  // operations [begin, end)
  bool timed = true;       // counted in the workload's keys/s (fill and drain are not)
};

struct WorkloadShape {
  std::string name;
  uint32_t k = 0;
  KeyOrder order = KeyOrder::Random;
  std::vector<uint32_t> fn;    // per operation: gheap::kFnIns / kFnDel
  std::vector<uint32_t> n;     // keys of an insert (0 for a delete)
  std::vector<uint64_t> off;   // an insert's first key in the key stream
  std::vector<ShapePhase> phases;
  uint64_t stream_keys = 0;    // keys inserted over all phases (the stream's length)
  uint64_t ins_ops = 0;        // insert operations (sizes the heap)
  uint64_t timed_keys = 0;     // N: keys the timed phases insert
  uint64_t ops() const { return fn.size(); }
};

// Throws std::invalid_argument for an unknown name or a bad parameter.
WorkloadShape plan_workload(const std::string& spec, uint64_t keys, uint32_t k, uint32_t blocks, uint64_t seed);

}  // namespace gpulin::stress
