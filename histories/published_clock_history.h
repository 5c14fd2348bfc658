// Records of a published clock (key_clock_records.h, KeyClockMode::kPublished) to a
// KeyHistory: the host half of that recorder, plain C++ so that CPU tests feed it
// records and sightings by hand.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "histories/key_clock_records.h"
#include "histories/key_history.h"

namespace gpulin {

// An operation's call as its launch was given it (the records leave it out).
struct PublishedCall {
  uint32_t key = 0;
  uint32_t value = 0;
};

// records[op] is operation op's, calls[op] its key and value; `ticks` the ticker's
// sightings in the order it logged them; `overflow` whether it lost one. Each ret
// is published at the first sighting of its multiprocessor's clock at or past it;
// operation A precedes B when A's was published at a G value below B's inv. The
// events get tickets in that order (a ret before an inv of a larger G, ties by op
// id) and go through assemble_key_clock_history with one clock: the history's t is
// real time as far as the ticks resolve it. Throws FormatError naming the op for a
// record never written, a ret no sighting publishes, or a malformed record; and
// for a log that overflowed (its lost sightings would leave rets unordered).
KeyHistory assemble_published_history(const std::vector<PublishedRecord>& records, const std::vector<PublishedCall>& calls,
                                      const std::vector<PublishedTick>& ticks, bool overflow, Header header,
                                      const std::vector<std::string>& fn_names, std::string source);

// The same for some of the operations only: records[i] and calls[i] are op ids[i]'s
// (ids ascending), and the history keeps those ids (each op its own actor), so
// that a check of a few keys' operations (gpu_published_check.h) names the ops as
// the whole history would. Errors name the op by its id.
KeyHistory assemble_published_ops(const std::vector<PublishedRecord>& records, const std::vector<PublishedCall>& calls,
                                  const std::vector<int64_t>& ids, const std::vector<PublishedTick>& ticks,
                                  bool overflow, Header header, const std::vector<std::string>& fn_names,
                                  std::string source);

}  // namespace gpulin
