// Any bytes as the binary history form: a History or a FormatError, nothing else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "histories/binary_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    gpulin::read_history_binary_bytes(std::string_view(reinterpret_cast<const char*>(data), size), "<fuzz>");
  } catch (const gpulin::FormatError&) {
  }
  return 0;
}
