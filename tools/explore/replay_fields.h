// Reading the fields of a replay string (CONFIG|PROGRAM|PICKS): splitting on a
// separator and decimal numbers, each refused with a message that names the
// schedule's kind and the field.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/memory/memory_mode.h"

namespace gpulin::explore {

// Every part between separators, empty ones included ("a;;b" is three parts, "a;"
// two).
std::vector<std::string> split_fields(const std::string& s, char sep);
// A decimal number below 2^32; throws std::invalid_argument("KIND schedule: WHAT
// '...' is not a number" or "... is too large").
uint32_t parse_u32_field(const std::string& s, const char* kind, const char* what);

// The same run under another memory mode: CONFIG's memory field replaced (every
// structure's CONFIG is NAME:FIELD:...), and, for sc, the choices taken out of
// PICKS (a run under ptx replayed under sc: the same interleaving, every load
// reading the newest store). Throws std::invalid_argument on a string without
// three parts.
std::string with_memory_mode(const std::string& schedule, sim::memory::MemoryMode m);

}  // namespace gpulin::explore
