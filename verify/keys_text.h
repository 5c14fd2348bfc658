// A list of keys in a checker's message: "[1,2,3]", the first 16 and a count when
// longer (a GPU batch holds 1024). One spelling for every pq checker, so their
// messages (and the tests that compare them) agree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpulin {

inline std::string keys_text(const int64_t* p, size_t n) {
  std::string s = "[";
  for (size_t i = 0; i < n && i < 16; ++i) s += (i ? "," : "") + std::to_string(p[i]);
  if (n > 16) s += ",... (" + std::to_string(n) + " keys)";
  return s + "]";
}
inline std::string keys_text(const std::vector<int64_t>& keys) { return keys_text(keys.data(), keys.size()); }

}  // namespace gpulin
