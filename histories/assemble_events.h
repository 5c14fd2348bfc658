// Recorded events (in any order) and their key payloads to a KeyHistory: the one
// conversion both recorders use, the device recorder after download
// (device_recorder.h) and the host recorder of the simulator (recorder.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "histories/device_events.h"
#include "histories/key_history.h"

namespace gpulin {

// Event e's keys are keys[e.actor * key_cap + e.key_off ...] (key_cap 0: one pool
// for all actors). Events are sorted by ticket here; the structural rules are not
// checked (the checkers' readers do that).
KeyHistory assemble_recorded_history(std::vector<DeviceEvent> events, const uint32_t* keys, uint64_t key_cap,
                                     Header header, const std::vector<std::string>& fn_names, std::string source);
KeyHistory assemble_recorded_history(std::vector<DeviceEvent> events, const int64_t* keys, uint64_t key_cap,
                                     Header header, const std::vector<std::string>& fn_names, std::string source);

}  // namespace gpulin
