// Reading the fields of a replay string (CONFIG|PROGRAM|PICKS): splitting on a
// separator and decimal numbers, each refused with a message that names the
// schedule's kind and the field.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpulin::explore {

// Every part between separators, empty ones included ("a;;b" is three parts, "a;"
// two).
std::vector<std::string> split_fields(const std::string& s, char sep);
// A decimal number below 2^32; throws std::invalid_argument("KIND schedule: WHAT
// '...' is not a number" or "... is too large").
uint32_t parse_u32_field(const std::string& s, const char* kind, const char* what);

}  // namespace gpulin::explore
