// Key-clock records (key_clock_records.h) to a KeyHistory: the host half of
// recording by key clocks, plain C++ so that CPU tests feed it records by hand.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "histories/key_clock_records.h"
#include "histories/key_history.h"

namespace gpulin {

// records[op] is operation op's (op ids 0 .. records.size() - 1), recorded with
// `clock_bits` clocks. Each operation is its own actor (its op id: the launches'
// order, which a thread's operations follow, is in t); its events' t are
// key_clock_t(launch, ticket, clock). The header gets order "per-key" (kOrderPerKey,
// history.h), unless clock_bits is 0: one clock orders every event in real time.
// Throws FormatError naming the op for a record never written (inv_t 0), a ticket
// at or past 2^30 (a clock that wrapped), a launch past 2^13 or out of order, an
// unknown operation or a malformed shape; the format's rules (check_events) judge
// the rest, as for every recording.
KeyHistory assemble_key_clock_history(const std::vector<KeyClockRecord>& records, uint32_t clock_bits, Header header,
                                      const std::vector<std::string>& fn_names, std::string source);

}  // namespace gpulin
