// Which memory a simulated run has: `sc`, every load reads the newest store (as the
// structures' runs do), or `ptx`, the PTX memory model (ptx_memory.h), where a load
// may read an older store.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpulin::sim::memory {

enum class MemoryMode { Sc, Ptx };

inline const char* to_string(MemoryMode m) { return m == MemoryMode::Sc ? "sc" : "ptx"; }
// The modes' names, as the command line takes them.
inline const std::vector<std::string>& memory_mode_names() {
  static const std::vector<std::string> names = {"sc", "ptx"};
  return names;
}

inline std::optional<MemoryMode> parse_memory_mode(std::string_view s) {
  if (s == "sc") return MemoryMode::Sc;
  if (s == "ptx") return MemoryMode::Ptx;
  return std::nullopt;
}

// A replay string's CONFIG names the mode of the run it replays: ":memory=ptx"
// after the structure's own fields; nothing for sc (strings from before the
// modes existed replay as they did).
inline std::string memory_config_field(MemoryMode m) { return m == MemoryMode::Sc ? "" : ":memory=ptx"; }
// The value of a CONFIG's memory field; throws std::invalid_argument naming `what`.
inline MemoryMode parse_memory_config_value(std::string_view value, std::string_view what) {
  if (const std::optional<MemoryMode> m = parse_memory_mode(value)) return *m;
  throw std::invalid_argument(std::string(what) + ": unknown memory '" + std::string(value) + "' (sc, ptx)");
}

}  // namespace gpulin::sim::memory
