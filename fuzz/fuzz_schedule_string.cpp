// Any text as a schedule's picks: the picks or std::invalid_argument, never more than
// kMaxPicks of them (so no allocation without end); what decodes re-encodes to text
// that decodes the same.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/schedule_string.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpulin::sim;
  std::vector<uint32_t> picks;
  try {
    picks = decode_picks(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const std::invalid_argument&) {
    return 0;
  }
  if (picks.size() > kMaxPicks || decode_picks(encode_picks(picks)) != picks) __builtin_trap();
  return 0;
}
