// A recording of a map or set by a published clock (histories/key_clock_records.h,
// KeyClockMode::kPublished), built on the host as the GPU would leave it: the
// records, the calls and the ticker's log. For tests that hold the GPU's check of
// such a recording against the host's (assemble_published_history, then
// check_keyed_linear).
//
// The run is simulated step by step in launches of warp rounds, each round on a
// multiprocessor: a round starts (its inv loads G), its operations take effect one
// at a time on the model's state, it ends (its multiprocessor's clock moves: the
// ret), and a ticker sighting now and then publishes a multiprocessor's clock
// (logging the G it bumps). Every step is drawn at random, so rounds overlap as on
// a GPU, and ret order is often not the order the operations took effect in. Each
// launch ends with every moved clock published, as the ticker does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "histories/key_clock_records.h"
#include "histories/published_clock_history.h"

namespace gpulin {

struct PublishedRecordingOptions {
  bool map = true;            // else set
  uint32_t ops = 1000;
  uint32_t keys = 16;         // keys drawn from [1, keys]: few, so that rounds contend
  uint32_t round = 4;         // operations a round (a warp's lanes)
  uint32_t launches = 3;
  uint32_t sms = 4;
  uint32_t open_rounds = 6;   // rounds started and not ended, at most
  double wrong = 0;           // the chance that a search or contains returns another answer
  double pending = 0;         // the chance that an operation never returns (ret 0)
  uint64_t seed = 1;
};

struct PublishedRecording {
  std::vector<PublishedRecord> records;
  std::vector<PublishedCall> calls;
  std::vector<PublishedTick> ticks;
  std::vector<std::string> fn_names;  // the slab hash's: map replace, delete, search; set insert, delete, contains
};

PublishedRecording generate_published_recording(const PublishedRecordingOptions& options);

}  // namespace gpulin
