#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "histories/key_clock_history.h"
#include "histories/key_clock_recorder.h"

namespace gpulin {

namespace {
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("key-clock recorder: ") + what + ": " + cudaGetErrorString(e));
}
}  // namespace

KeyClockRecorder::KeyClockRecorder(uint64_t ops, uint32_t clock_bits)
    : KeyClockRecorder(ops, clock_bits, KeyClockMode::kPerKey) {}

KeyClockRecorder::KeyClockRecorder(uint64_t ops, uint32_t clock_bits, KeyClockMode mode) : cap_(ops) {
  if (clock_bits > kKeyClockMaxBits) throw std::invalid_argument("key-clock recorder: at most 2^20 clocks");
  ref_.clock_bits = clock_bits;
  ref_.mode = mode;
  ref_.record_cap = ops;
  check(cudaMalloc(&ref_.clocks, sizeof(uint32_t) << clock_bits), "cudaMalloc clocks");
  check(cudaMemset(ref_.clocks, 0, sizeof(uint32_t) << clock_bits), "clear clocks");
  check(cudaMalloc(&ref_.records, sizeof(KeyClockRecord) * (ops ? ops : 1)), "cudaMalloc records");
  // inv_t 0 marks a record never written.
  check(cudaMemset(ref_.records, 0, sizeof(KeyClockRecord) * (ops ? ops : 1)), "clear records");
}

KeyClockRecorder::KeyClockRecorder(KeyClockRecorder&& other) noexcept
    : ref_(std::exchange(other.ref_, KeyClockRecorderRef{})), cap_(other.cap_), launches_(other.launches_) {}

KeyClockRecorder::~KeyClockRecorder() {
  cudaFree(ref_.clocks);
  cudaFree(ref_.records);
}

size_t KeyClockRecorder::bytes() const { return (sizeof(uint32_t) << ref_.clock_bits) + sizeof(KeyClockRecord) * cap_; }

KeyClockRecorderRef KeyClockRecorder::next_launch() {
  if (launches_ >= (uint32_t{1} << kKeyClockEpochBits))
    throw std::runtime_error("key-clock recorder: more than 2^13 launches in one history (use larger batches)");
  KeyClockRecorderRef r = ref_;
  r.launch = launches_++;
  return r;
}

KeyHistory KeyClockRecorder::download(uint64_t ops, Header header, const std::vector<std::string>& fn_names,
                                      std::string source) const {
  if (ops > cap_) throw std::invalid_argument("key-clock recorder: asked for more records than it holds");
  std::vector<KeyClockRecord> records(ops);
  check(cudaMemcpy(records.data(), ref_.records, sizeof(KeyClockRecord) * ops, cudaMemcpyDeviceToHost), "download");
  if (ref_.mode != KeyClockMode::kPerKey) header.lp_rule.clear();  // no lp events to order by
  return assemble_key_clock_history(records, ref_.clock_bits, std::move(header), fn_names, std::move(source));
}

}  // namespace gpulin
