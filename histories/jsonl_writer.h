// Writes the JSONL history format: the header line, then one line per event in t
// order, compact JSON with fields in the order of history-format.md. Reading the
// output back gives an equal History (extra header fields included, verbatim).
#pragma once

#include <ostream>
#include <string>

#include "histories/history.h"
#include "histories/key_history.h"

namespace gpulin {

void write_history(std::ostream& out, const History& h);
std::string history_to_jsonl(const History& h);
// Throws std::runtime_error when the file cannot be written.
void write_history_file(const std::string& path, const History& h);
// The same text as for expand(h), without building its Values (a GPU history).
void write_history(std::ostream& out, const KeyHistory& h);
void write_history_file(const std::string& path, const KeyHistory& h);

// The header as one line of compact JSON (no newline); the binary form stores it too.
std::string header_to_json(const Header& header);

}  // namespace gpulin
