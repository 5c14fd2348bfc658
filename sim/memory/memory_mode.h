// Which memory a simulated run has: `sc`, every load reads the newest store (as the
// structures' runs do), or `ptx`, the PTX memory model (ptx_memory.h), where a load
// may read an older store and a data race ends the run; or `ptx-racy`, the same
// model with races let be: the run goes on past one, so what its stale reads lead
// to (a wrong result) shows.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/memory/ordering_sites.h"

namespace gpulin::sim::memory {

enum class MemoryMode { Sc, Ptx, PtxRacy };

inline const char* to_string(MemoryMode m) {
  switch (m) {
    case MemoryMode::Sc: return "sc";
    case MemoryMode::Ptx: return "ptx";
    case MemoryMode::PtxRacy: return "ptx-racy";
  }
  return "?";
}
// The modes' names, as the command line takes them.
inline const std::vector<std::string>& memory_mode_names() {
  static const std::vector<std::string> names = {"sc", "ptx", "ptx-racy"};
  return names;
}

inline std::optional<MemoryMode> parse_memory_mode(std::string_view s) {
  for (MemoryMode m : {MemoryMode::Sc, MemoryMode::Ptx, MemoryMode::PtxRacy})
    if (s == to_string(m)) return m;
  return std::nullopt;
}
// Whether a run of this mode checks for data races (and ends at the first).
inline bool checks_races(MemoryMode m) { return m == MemoryMode::Ptx; }

// The memory of a simulated run as a structure's configuration holds it: the mode
// and, for `gpulin ablate`, one ordering site weakened (ordering_sites.h); and,
// never written into a replay string, where the run reports the ordering sites it
// meets (ablate's inventory).
struct MemorySetting {
  MemorySetting(MemoryMode m = MemoryMode::Sc) : mode(m) {}  // NOLINT: a mode is a setting of its own
  MemoryMode mode;
  std::optional<Weakening> weakening;
  std::shared_ptr<SiteInventory> inventory;
  bool operator==(const MemorySetting& o) const { return mode == o.mode && weakening == o.weakening; }
};
// "ptx", or with a weakening "ptx@structures/gheap/td_insert.h@72@no-acquire".
inline std::string to_string(const MemorySetting& m) {
  std::string s(to_string(m.mode));
  if (m.weakening) {
    s += '@';
    s += weakening_text(*m.weakening);
  }
  return s;
}

// A replay string's CONFIG names the memory of the run it replays: ":memory=ptx"
// (or ptx-racy, and a weakening) after the structure's own fields; nothing for sc
// (strings from before the modes existed replay as they did).
inline std::string memory_config_field(const MemorySetting& m) {
  return m == MemoryMode::Sc ? "" : ":memory=" + to_string(m);
}
// The value of a CONFIG's memory field; throws std::invalid_argument naming `what`.
inline MemorySetting parse_memory_config_value(std::string_view value, std::string_view what) {
  const size_t at = value.find('@');
  const std::optional<MemoryMode> m = parse_memory_mode(value.substr(0, at));
  if (!m)
    throw std::invalid_argument(std::string(what) + ": unknown memory '" + std::string(value.substr(0, at)) +
                                "' (sc, ptx, ptx-racy)");
  MemorySetting s(*m);
  if (at == std::string_view::npos) return s;
  if (*m == MemoryMode::Sc) throw std::invalid_argument(std::string(what) + ": a weakened ordering needs memory ptx");
  s.weakening = parse_weakening(value.substr(at + 1), what);
  return s;
}

}  // namespace gpulin::sim::memory
