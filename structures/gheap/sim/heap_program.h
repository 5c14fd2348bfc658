// A concurrent program for the heap: one list of operations per actor. Generated
// from a seed, shrunk when it fails, and written into replay strings explicitly so
// that a replay never depends on the generator's version.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace gpulin::explore {

struct HeapOp {
  bool insert = true;
  std::vector<uint32_t> keys;  // insert only: 1..k keys
  bool operator==(const HeapOp&) const = default;
};

struct Program {
  std::vector<std::vector<HeapOp>> actors;
  size_t op_count() const {
    size_t n = 0;
    for (const auto& a : actors) n += a.size();
    return n;
  }
};

struct WorkloadShape {
  uint32_t actors = 4;
  uint32_t ops = 8;          // per actor
  uint32_t k = 4;
  uint32_t partial_percent = 30;  // inserts with fewer than k keys
  uint32_t insert_percent = 60;
  uint32_t key_range = 64;   // keys drawn from [0, key_range): duplicates happen
};

// Mixed full and partial insert batches and deletes, keys with duplicates.
Program generate_program(const WorkloadShape& shape, uint64_t seed);

// "i3-1-2,d;d,i5" : actors separated by ';', operations by ','.
std::string encode_program(const Program& p);
// Throws std::invalid_argument with the offending part named.
Program decode_program(const std::string& text);

}  // namespace gpulin::explore
