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
// for all actors) among the key_words words of `keys`; keys past them, or past an
// actor's key_cap, are refused (FormatError naming the event). Events are sorted by
// ticket here (tickets may repeat: a key-clock history's); the structural rules are not
// checked (the checkers' readers do that). Built for key words uint32_t, uint64_t
// (a key above 2^63 - 1 is refused: FormatError naming the op, see
// fits_history_integer) and int64_t (the host recorder's pool).
template <class K>
KeyHistory assemble_recorded_history(std::vector<DeviceEvent> events, const K* keys, uint64_t key_words, uint64_t key_cap,
                                     Header header, const std::vector<std::string>& fn_names, std::string source);

}  // namespace gpulin
