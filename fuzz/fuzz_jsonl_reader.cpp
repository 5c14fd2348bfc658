// Any bytes as a JSON Lines history: a History or a FormatError naming the line,
// nothing else (no crash, no other exception, no leak); a history read is checked
// by the format's rules and written back, and that text reads to the same history.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "histories/jsonl_reader.h"
#include "histories/jsonl_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpulin;
  History h;
  try {
    h = read_history_text(std::string_view(reinterpret_cast<const char*>(data), size), "<fuzz>");
  } catch (const FormatError&) {
    return 0;
  }
  const std::string again = history_to_jsonl(h);
  const History back = read_history_text(again, "<fuzz, written back>");  // must not throw
  if (history_to_jsonl(back) != again) __builtin_trap();
  return 0;
}
