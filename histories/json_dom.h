// simdjson glue shared by the JSONL reader and the binary reader (whose header is
// the JSONL header line): DOM values to Value, and the header line to Header.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "histories/history.h"

namespace gpulin {

// Converts a parsed JSON value. Values hold 64-bit signed integers only, so a
// fraction, an exponent or an integer beyond int64 is a FormatError naming `what`
// (the field) at file:line; so is a key repeated within one object.
Value dom_to_value(simdjson::dom::element e, const std::string& file, uint32_t line, std::string_view what);

// Parses and checks a header line (any JSON text, padded or not). Fields other
// than history/model/params/lp_rule go to Header::extra as compact JSON text,
// byte for byte as written apart from whitespace outside strings.
Header parse_header_json(std::string_view text, const std::string& file, uint32_t line);

}  // namespace gpulin
