// Host side of recording by key clocks (key_clock_records.h): the clocks and one
// record per operation on the GPU, a KeyClockRecorderRef per launch, and the
// download as a KeyHistory. Implemented in key_clock_recorder.cu; this header needs
// no CUDA.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "histories/key_clock_records.h"
#include "histories/key_history.h"

namespace gpulin {

class KeyClockRecorder {
 public:
  // Room for `ops` operations (op ids 0 .. ops - 1) on 2^clock_bits clocks
  // (at most 2^20: 4 MiB, inside an H100's L2).
  explicit KeyClockRecorder(uint64_t ops, uint32_t clock_bits = kKeyClockMaxBits);
  // Recording by warp rounds (KeyClockMode::kWarpRounds): one clock, no lp.
  static KeyClockRecorder warp_rounds(uint64_t ops) { return KeyClockRecorder(ops, 0, KeyClockMode::kWarpRounds); }
  // Recording by key rounds (KeyClockMode::kKeyRounds): each key's clock, no lp.
  static KeyClockRecorder key_rounds(uint64_t ops, uint32_t clock_bits = kKeyClockMaxBits) {
    return KeyClockRecorder(ops, clock_bits, KeyClockMode::kKeyRounds);
  }
  KeyClockRecorder(KeyClockRecorder&& other) noexcept;
  ~KeyClockRecorder();
  KeyClockRecorder(const KeyClockRecorder&) = delete;
  KeyClockRecorder& operator=(const KeyClockRecorder&) = delete;

  // The ref for the next launch (each call is a new launch of the history).
  // Throws std::runtime_error past 2^13 launches.
  KeyClockRecorderRef next_launch();
  uint64_t capacity() const { return cap_; }
  size_t bytes() const;

  // Records 0 .. ops - 1 (the ops run so far) as a history (assemble_key_clock_history).
  // By warp rounds the history has no lp events, so `header`'s lp_rule is dropped.
  KeyHistory download(uint64_t ops, Header header, const std::vector<std::string>& fn_names, std::string source) const;

 private:
  KeyClockRecorder(uint64_t ops, uint32_t clock_bits, KeyClockMode mode);
  KeyClockRecorderRef ref_;
  uint64_t cap_ = 0;
  uint32_t launches_ = 0;
};

}  // namespace gpulin
