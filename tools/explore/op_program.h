// A program of recorded operations for any structure whose operations are a
// function code and a few argument words: one list of calls per actor. The
// generic explorer (op_explore.h) generates, runs, shrinks and replays these, so a
// new structure needs no program type, shrinker or replay format of its own
// (structures/counter_array/counter_array.h, docs/own-structure.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpulin::explore {

struct OpCall {
  uint32_t fn = 0;
  std::vector<uint32_t> args;
};

struct OpProgram {
  std::vector<std::vector<OpCall>> actors;
  size_t op_count() const;
};

// "0.1.2,1.0;0.0.5": actors separated by ';', calls by ',', a call's fn and then
// its args by '.'.
std::string encode_op_program(const OpProgram& p);
// Throws std::invalid_argument("KIND schedule: ...") naming the offending part.
OpProgram decode_op_program(const std::string& text, const char* kind);

}  // namespace gpulin::explore
