// The per-key check of a map or set history recorded by a published clock
// (histories/key_clock_records.h, KeyClockMode::kPublished), on the GPU, straight
// from the recorder's buffers: no download of the history, no assembly. The same
// verdicts as the host's path (assemble_published_history, check_events,
// check_keyed_linear), with CUB's radix sorts and plain kernels. Plain C++ header;
// gpu_published_check.cu holds the CUDA.
//
// What the host path does, step by step on the GPU:
//   1. each ret is published at the first sighting of its multiprocessor's clock at
//      or past it (the ticker's log, sorted by multiprocessor, stable: log order);
//   2. the completed operations in ret order: by the G value that published them,
//      ties by op id (assemble_published_history's tickets), pending ones left out
//      (check_keyed_linear's ret_order);
//   3. grouped by key (a stable sort keeps ret order within a key), each key's
//      operations replayed on the key's state (present, value), one thread a key;
//   4. the keys whose ret order fails are listed, with the first failure in the
//      whole ret order (check_keyed_linear's witness verdict and message).
// The search, which decides the failing keys (linearizable by another order, or
// not), runs on the host over those keys' operations only: `failing` carries their
// records, calls and the ticker's log, for assemble_published_ops.
//
// A recording the host would refuse or could not check by key (a record never
// written, a malformed shape, an unknown operation, launches out of order, a ret
// no sighting publishes or published before its inv, sightings that go back, an
// overflowed log, an operation that does not fit the model) is "irregular": the GPU
// says what it first saw, and the caller takes the host path, which names it
// exactly.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "histories/key_clock_records.h"
#include "histories/published_clock_history.h"
#include "verify/witness_checker.h"

namespace gpulin {

// Device pointers, read only.
struct PublishedCheckInput {
  const PublishedRecord* records = nullptr;  // [ops]: op id i's record
  const uint32_t* keys = nullptr;            // [ops]: op i's key, as its launch was given it
  const uint32_t* values = nullptr;          // [ops]: op i's value (a map's replace)
  uint64_t ops = 0;
  const PublishedTick* ticks = nullptr;      // [tick_count], in the order the ticker logged them
  uint32_t tick_count = 0;
  bool tick_overflow = false;                // the log was full and lost sightings
  std::string model;                         // "map" or "set"
  std::vector<std::string> fn_names;         // the records' fn indexes it
};

// The failing keys' operations, for the host's search.
struct PublishedFailingOps {
  std::vector<int64_t> ids;               // their op ids, ascending
  std::vector<PublishedRecord> records;   // records[i] is op ids[i]'s
  std::vector<PublishedCall> calls;
  std::vector<PublishedTick> ticks;       // the ticker's whole log
};

struct PublishedCheckResult {
  bool irregular = false;  // take the host path; `why` says what the GPU saw first
  std::string why;
  uint64_t completed = 0;  // operations that returned (the history's events: ops + completed)
  uint64_t keys = 0;       // distinct keys with a completed operation
  // Linearizable when ret order explains every key; otherwise check_keyed_linear's
  // witness: the first failure in ret order and how many ops came before it.
  WitnessResult witness;
  std::vector<int64_t> failing_keys;  // ascending
  PublishedFailingOps failing;        // when some key failed
  std::vector<std::pair<std::string, double>> phases;  // seconds, measured with CUDA events
};

// Throws std::invalid_argument for a model other than map or set, std::runtime_error
// for a CUDA error.
PublishedCheckResult check_published_keyed_on_gpu(const PublishedCheckInput& in);

}  // namespace gpulin
