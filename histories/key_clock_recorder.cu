#include <cuda_runtime.h>

#include <algorithm>
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
  if (mode == KeyClockMode::kPublished) {
    // shape 0 marks a record never written.
    check(cudaMalloc(&ref_.published, sizeof(PublishedRecord) * (ops ? ops : 1)), "cudaMalloc records");
    check(cudaMemset(ref_.published, 0, sizeof(PublishedRecord) * (ops ? ops : 1)), "clear records");
    return;
  }
  check(cudaMalloc(&ref_.records, sizeof(KeyClockRecord) * (ops ? ops : 1)), "cudaMalloc records");
  // inv_t 0 marks a record never written.
  check(cudaMemset(ref_.records, 0, sizeof(KeyClockRecord) * (ops ? ops : 1)), "clear records");
}

KeyClockRecorder KeyClockRecorder::published(uint64_t ops, uint32_t tick_cap) {
  if (tick_cap == 0) tick_cap = static_cast<uint32_t>(std::min<uint64_t>(std::max<uint64_t>(ops / 16, 1u << 20), 1u << 31));
  KeyClockRecorder r(ops, kPublishedClockBits, KeyClockMode::kPublished);
  r.ref_.tick_cap = tick_cap;
  check(cudaMalloc(&r.ref_.ticks, sizeof(PublishedTick) * tick_cap), "cudaMalloc tick log");
  check(cudaMalloc(&r.ref_.tick_state, sizeof(uint32_t) * 3), "cudaMalloc tick words");
  check(cudaMemset(r.ref_.tick_state, 0, sizeof(uint32_t) * 3), "clear tick words");
  return r;
}

KeyClockRecorder::KeyClockRecorder(KeyClockRecorder&& other) noexcept
    : ref_(std::exchange(other.ref_, KeyClockRecorderRef{})), cap_(other.cap_), launches_(other.launches_) {}

KeyClockRecorder::~KeyClockRecorder() {
  cudaFree(ref_.clocks);
  cudaFree(ref_.records);
  cudaFree(ref_.published);
  cudaFree(ref_.ticks);
  cudaFree(ref_.tick_state);
}

size_t KeyClockRecorder::bytes() const {
  if (ref_.mode == KeyClockMode::kPublished)
    return (sizeof(uint32_t) << ref_.clock_bits) + sizeof(PublishedRecord) * cap_ + sizeof(PublishedTick) * ref_.tick_cap;
  return (sizeof(uint32_t) << ref_.clock_bits) + sizeof(KeyClockRecord) * cap_;
}

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
  if (ref_.mode == KeyClockMode::kPublished)
    throw std::invalid_argument("key-clock recorder: a published clock's records need their calls (download_published)");
  std::vector<KeyClockRecord> records(ops);
  check(cudaMemcpy(records.data(), ref_.records, sizeof(KeyClockRecord) * ops, cudaMemcpyDeviceToHost), "download");
  if (ref_.mode != KeyClockMode::kPerKey) header.lp_rule.clear();  // no lp events to order by
  return assemble_key_clock_history(records, ref_.clock_bits, std::move(header), fn_names, std::move(source));
}

uint64_t KeyClockRecorder::published_ticks() const {
  if (ref_.mode != KeyClockMode::kPublished) return 0;
  uint32_t used = 0;
  check(cudaMemcpy(&used, ref_.tick_state + kTickUsed, sizeof used, cudaMemcpyDeviceToHost), "download tick words");
  return used;
}

KeyClockRecorder::PublishedOnDevice KeyClockRecorder::published_on_device() const {
  if (ref_.mode != KeyClockMode::kPublished) throw std::invalid_argument("key-clock recorder: not a published clock");
  uint32_t state[3];
  check(cudaMemcpy(state, ref_.tick_state, sizeof state, cudaMemcpyDeviceToHost), "download tick words");
  return {ref_.published, ref_.ticks, std::min(state[kTickUsed], ref_.tick_cap), state[kTickOverflow] != 0};
}

KeyHistory KeyClockRecorder::download_published(uint64_t ops, const std::vector<PublishedCall>& calls, Header header,
                                                const std::vector<std::string>& fn_names, std::string source) const {
  if (ref_.mode != KeyClockMode::kPublished) throw std::invalid_argument("key-clock recorder: not a published clock");
  if (ops > cap_) throw std::invalid_argument("key-clock recorder: asked for more records than it holds");
  std::vector<PublishedRecord> records(ops);
  check(cudaMemcpy(records.data(), ref_.published, sizeof(PublishedRecord) * ops, cudaMemcpyDeviceToHost), "download");
  uint32_t state[3];
  check(cudaMemcpy(state, ref_.tick_state, sizeof state, cudaMemcpyDeviceToHost), "download tick words");
  std::vector<PublishedTick> ticks(std::min(state[kTickUsed], ref_.tick_cap));
  check(cudaMemcpy(ticks.data(), ref_.ticks, sizeof(PublishedTick) * ticks.size(), cudaMemcpyDeviceToHost),
        "download tick log");
  header.lp_rule.clear();  // no lp events to order by
  return assemble_published_history(records, calls, ticks, state[kTickOverflow] != 0, std::move(header), fn_names,
                                    std::move(source));
}

}  // namespace gpulin
