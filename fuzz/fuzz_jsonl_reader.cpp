// Any bytes as a JSON Lines history: a History or a FormatError naming the line,
// nothing else (no crash, no other exception, no leak); a history read is checked
// by the format's rules and written back, and that text reads to the same history.
// The keys-only reader (key_history_reader.h, whose hand scanner of compact lines
// reads ahead of a line's end) reads the same bytes to the same history, or
// throws: the DOM reader's error, or one of its own two (a model whose payloads
// are not keys, a payload that is not one).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "histories/jsonl_reader.h"
#include "histories/jsonl_writer.h"
#include "histories/key_history_reader.h"

namespace {

using namespace gpulin;

bool own_error(const std::string& what) {
  return what.find("non-key payloads") != std::string::npos || what.find("must be arrays of") != std::string::npos;
}

// On two threads: the lines cut into two blocks, appended in order.
void keys_reader_agrees(std::string_view text, const History* h, const std::string& dom_error) {
  try {
    const KeyHistory k = read_key_history_text(text, "<fuzz>", 2);
    if (!h) __builtin_trap();  // read what the DOM reader refused
    std::ostringstream a;
    write_history(a, k);
    if (a.str() != history_to_jsonl(*h)) __builtin_trap();
  } catch (const FormatError& e) {
    if (e.what() != dom_error && !own_error(e.what())) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  History h;
  try {
    h = read_history_text(text, "<fuzz>");
  } catch (const FormatError& e) {
    keys_reader_agrees(text, nullptr, e.what());
    return 0;
  }
  keys_reader_agrees(text, &h, "");
  const std::string again = history_to_jsonl(h);
  const History back = read_history_text(again, "<fuzz, written back>");  // must not throw
  if (history_to_jsonl(back) != again) __builtin_trap();
  return 0;
}
