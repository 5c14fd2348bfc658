// A schedule as text: the picks of a run, run-length encoded ("0*12.1*3.0" means
// actor 0 twelve times, actor 1 three times, then actor 0). A choice of a value
// (sim/strategy.h, kChoiceMark: under the ptx memory mode, which store a load
// reads) is written rN: "0*4.r1.1" is actor 0 four times, value 1 of a choice, then
// actor 1. Short enough to paste into an issue, exact enough to replay.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/strategy.h"

namespace gpulin::sim {

std::string encode_picks(const std::vector<uint32_t>& picks);
// Throws std::invalid_argument on malformed text, and on more than kMaxPicks picks
// (a run length is a number: "0*1073741824" would otherwise allocate 4 GiB).
// `max_picks` lowers the cap (the fuzz target's, so that each input is decoded in
// microseconds; the same check refuses it).
inline constexpr uint64_t kMaxPicks = uint64_t{1} << 24;
std::vector<uint32_t> decode_picks(const std::string& text, uint64_t max_picks = kMaxPicks);

}  // namespace gpulin::sim
