// Any text as a schedule's picks: the picks or std::invalid_argument, never more than
// the cap (so no allocation without end); what decodes re-encodes to text that
// decodes the same. The cap is lowered to 2^12 here: the check is the same code as
// the CLI's 2^24, and a 64 MiB vector per input would make the fuzzer crawl.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/schedule_string.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpulin::sim;
  constexpr uint64_t kFuzzCap = 1 << 12;
  std::vector<uint32_t> picks;
  try {
    picks = decode_picks(std::string(reinterpret_cast<const char*>(data), size), kFuzzCap);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  if (picks.size() > kFuzzCap || decode_picks(encode_picks(picks), kFuzzCap) != picks) __builtin_trap();
  return 0;
}
