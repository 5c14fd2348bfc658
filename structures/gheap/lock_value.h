// How a heap lock word's value reads in the GPU watchdog's report (cuda/
// watchdog_host.h's ValueNamer): the root's word counts its holds above its state
// where the executor counts them (config.h: the GPU's recording kernels), so its
// raw value means little by itself. Host code.
#pragma once

#include <cstdint>
#include <string>

#include "structures/gheap/config.h"

namespace gpulin::gheap {

// "8193, INUSE after 1024 holds" for a counted root's word; empty where the value
// is the state alone (any other node, or a root word that counts nothing yet).
inline std::string lock_value_text(uint32_t node, uint32_t value) {
  if (!counted_lock(node) || exec::counted_holds(value) == 0) return {};
  static const char* const kStates[] = {"AVAIL", "INUSE", "TARGET", "MARKED", "INSHOLD", "DELMOD"};
  const uint32_t state = lock_state(value);
  const std::string name = state <= DELMOD ? kStates[state] : "state " + std::to_string(state);
  return std::to_string(value) + ", " + name + " after " + std::to_string(exec::counted_holds(value)) + " holds";
}

}  // namespace gpulin::gheap
