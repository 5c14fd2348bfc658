// The per-key rule-ordered check on the GPU, straight from the device recorder's
// buffers (no download of the history): the same rules as the host check
// (key_rules.h), with CUB's radix sort, scans and plain kernels. Plain C++ header;
// gpu_check.cu holds the CUDA.
//
// The fast path covers a well-formed recording whose operations all completed:
// tickets 1..E, each op id in [0, ops) with one inv and one ret, events inside
// their op, each op's lock holds alternating per node, every op with a point
// strictly inside it. Anything else is "irregular": the GPU says where it first
// saw it, and the caller decides on the host (download, the format's rules, the
// host check), which gives the exact diagnosis. A wrong result (the interesting
// failure) is found and explained here, on the GPU.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "histories/device_events.h"
#include "histories/key_history.h"
#include "verify/pq_linear/linear_check.h"
#include "verify/witness_checker.h"

namespace gpulin {

// `KeyWord`: the recorder's key word, uint32_t or uint64_t (the heap's key). 64-bit
// keys must be history integers (below 2^63); a larger one makes the recording
// irregular, for the host to name.
template <class KeyWord>
struct BasicGpuCheckInput {
  BasicDeviceRecorderRef<KeyWord> rec;  // device buffers: actor a's events and keys
  uint32_t actors = 0;     // recorder buffers
  uint64_t ops = 0;        // op ids are 0 .. ops - 1
  uint32_t fn_ins = 0, fn_del = 1;
  uint64_t k = 1;
  LpRule rule = LpRule::RootRelease;
};
using GpuCheckInput = BasicGpuCheckInput<uint32_t>;

struct GpuCheckResult {
  bool irregular = false;    // decide on the host instead; `why` says what was seen
  std::string why;
  LinearCheckResult linear;  // when regular: the verdict and the failure, explained
  uint64_t events = 0, tuples = 0;
  std::vector<std::pair<std::string, double>> phases;  // seconds, measured with CUDA events
};

// Throws std::runtime_error for a CUDA error or a recorder whose buffers
// overflowed (nothing is dropped in silence).
GpuCheckResult check_pq_batch_on_gpu(const BasicGpuCheckInput<uint32_t>& in);
GpuCheckResult check_pq_batch_on_gpu(const BasicGpuCheckInput<uint64_t>& in);

// A host history in the recorder's layout on the device (all events in buffer 0,
// keys addressed absolutely, in words of KeyWord), for tests that compare the GPU
// check with the host and the replay. Op ids must be 0 .. ops - 1 and fn names
// ins/del; every key must fit KeyWord (std::invalid_argument otherwise: a test
// that truncated keys would compare two different histories).
template <class KeyWord>
class BasicUploadedHistory {
 public:
  explicit BasicUploadedHistory(const KeyHistory& h);
  ~BasicUploadedHistory();
  BasicUploadedHistory(const BasicUploadedHistory&) = delete;
  BasicUploadedHistory& operator=(const BasicUploadedHistory&) = delete;
  BasicGpuCheckInput<KeyWord> input() const { return in_; }

 private:
  BasicGpuCheckInput<KeyWord> in_;
};
using UploadedHistory = BasicUploadedHistory<uint32_t>;
extern template class BasicUploadedHistory<uint32_t>;
extern template class BasicUploadedHistory<uint64_t>;

}  // namespace gpulin
