// Which memory a simulated run has: `sc`, every load reads the newest store (as the
// structures' runs do), or `ptx`, the PTX memory model (ptx_memory.h), where a load
// may read an older store.
#pragma once

#include <optional>
#include <string_view>

namespace gpulin::sim::memory {

enum class MemoryMode { Sc, Ptx };

inline const char* to_string(MemoryMode m) { return m == MemoryMode::Sc ? "sc" : "ptx"; }

inline std::optional<MemoryMode> parse_memory_mode(std::string_view s) {
  if (s == "sc") return MemoryMode::Sc;
  if (s == "ptx") return MemoryMode::Ptx;
  return std::nullopt;
}

}  // namespace gpulin::sim::memory
