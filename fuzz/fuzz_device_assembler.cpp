// Any bytes as a device recorder's download: events (DeviceEvent records) and a key
// buffer of two actors' rooms, assembled as download() does. A KeyHistory or a
// FormatError naming the event, never an out-of-range read or another exception.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "histories/device_recorder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpulin;
  constexpr uint32_t kKeyCap = 16, kActors = 4;
  if (size < 1) return 0;
  const size_t n = std::min<size_t>(size / sizeof(DeviceEvent), 256);
  if (n == 0) return 0;
  std::vector<DeviceEvent> events(n);
  std::memcpy(events.data(), data, n * sizeof(DeviceEvent));
  std::vector<uint32_t> keys(kActors * kKeyCap);
  for (size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<uint32_t>(i * 2654435761u);
  Header header;
  header.model = "pq-batch";
  try {
    assemble_device_history(std::move(events), keys, kKeyCap, header, {"ins", "del"}, "<fuzz>");
  } catch (const FormatError&) {
  }
  return 0;
}
