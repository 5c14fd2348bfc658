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
#include "histories/published_clock_history.h"

namespace gpulin {

class KeyClockRecorder {
 public:
  // Room for `ops` operations (op ids 0 .. ops - 1) on 2^clock_bits clocks
  // (at most 2^20: 4 MiB, small enough to stay in a Hopper GPU's L2).
  explicit KeyClockRecorder(uint64_t ops, uint32_t clock_bits = kKeyClockMaxBits);
  // Recording by warp rounds (KeyClockMode::kWarpRounds): one clock, no lp.
  static KeyClockRecorder warp_rounds(uint64_t ops) { return KeyClockRecorder(ops, 0, KeyClockMode::kWarpRounds); }
  // Recording by a published clock (KeyClockMode::kPublished): 16-byte records, the
  // clocks G and one a multiprocessor, and a log of `tick_cap` sightings of 16 bytes
  // (0: one per 16 operations, at least 2^20; a launch of 2^20 operations logs about
  // ten thousand, a moved clock a tick).
  static KeyClockRecorder published(uint64_t ops, uint32_t tick_cap = 0);
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
  // Not for a published clock, whose records leave out the calls: download_published.
  KeyHistory download(uint64_t ops, Header header, const std::vector<std::string>& fn_names, std::string source) const;
  // A published clock's records 0 .. ops - 1 and its ticker's log as a history
  // (assemble_published_history); `calls[op]` is operation op's key and value, as
  // its launch was given them.
  KeyHistory download_published(uint64_t ops, const std::vector<PublishedCall>& calls, Header header,
                                const std::vector<std::string>& fn_names, std::string source) const;
  // A published clock's ticker sightings so far (how finely it ordered the rets).
  uint64_t published_ticks() const;
  // A published clock's buffers where they are, for a check on the GPU that reads
  // them in place (verify/keyed_linear/gpu_published_check.h).
  struct PublishedOnDevice {
    const PublishedRecord* records = nullptr;  // op id i's at i
    const PublishedTick* ticks = nullptr;      // the ticker's log, tick_count of them
    uint32_t tick_count = 0;
    bool overflow = false;                     // the log was full and lost sightings
  };
  PublishedOnDevice published_on_device() const;

 private:
  KeyClockRecorder(uint64_t ops, uint32_t clock_bits, KeyClockMode mode);
  KeyClockRecorderRef ref_;
  uint64_t cap_ = 0;
  uint32_t launches_ = 0;
};

}  // namespace gpulin
