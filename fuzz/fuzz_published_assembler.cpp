// Any bytes as a published clock's download (histories/published_clock_history.h):
// the first byte splits the rest into 16-byte records and 16-byte ticker sightings,
// assembled as download_published() does and then judged by the format's rules. A
// KeyHistory or a FormatError naming the op, never an out-of-range read or another
// exception.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "histories/published_clock_history.h"
#include "histories/rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpulin;
  if (size < 1) return 0;
  const size_t words = (size - 1) / 16;
  const size_t n_records = std::min<size_t>(words * (data[0] % 16 + 1) / 17, 128);
  const size_t n_ticks = std::min<size_t>(words - n_records, 128);
  std::vector<PublishedRecord> records(n_records);
  std::vector<PublishedTick> ticks(n_ticks);
  if (n_records) std::memcpy(records.data(), data + 1, n_records * 16);
  if (n_ticks) std::memcpy(ticks.data(), data + 1 + n_records * 16, n_ticks * 16);
  std::vector<PublishedCall> calls(n_records);
  for (size_t i = 0; i < n_records; ++i) calls[i] = {static_cast<uint32_t>(i % 5), static_cast<uint32_t>(i)};
  Header header;
  header.model = "map";
  try {
    const KeyHistory k = assemble_published_history(records, calls, ticks, data[0] == 0xFF, header,
                                                    {"replace", "delete", "search"}, "<fuzz>");
    check_events(k.events, k.source);
  } catch (const FormatError&) {
  }
  return 0;
}
