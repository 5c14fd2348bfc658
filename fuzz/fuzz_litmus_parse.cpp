// Any text as a PTX litmus test (tools/litmus/litmus_parse.h): a test, possibly
// refused with a reason naming its line, or FormatError; nothing else escapes, and
// every parsed test is whole (a condition, threads within the simulator's limit or
// refused).
#include <cstddef>
#include <cstdint>
#include <string>

#include "histories/history.h"
#include "tools/litmus/litmus_parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpulin::litmus;
  LitmusTest t;
  try {
    t = parse_litmus(std::string(reinterpret_cast<const char*>(data), size), "fuzz.litmus");
  } catch (const gpulin::FormatError&) {
    return 0;
  }
  if (!t.condition.expr || t.name.empty() || t.threads.empty()) __builtin_trap();
  if (t.refused.empty() && t.threads.size() > 64) __builtin_trap();
  if (!t.refused.empty() && t.refused.rfind("fuzz.litmus:", 0) != 0) __builtin_trap();
  return 0;
}
