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
  // Appended piece by piece: GCC 12 takes `"," + std::to_string(k)` for an
  // overlapping copy (-Wrestrict, a false positive of its inliner).
  std::string s = "[";
  for (size_t i = 0; i < n && i < 16; ++i) {
    if (i) s += ',';
    s += std::to_string(p[i]);
  }
  if (n > 16) {
    s += ",... (";
    s += std::to_string(n);
    s += " keys)";
  }
  s += ']';
  return s;
}
inline std::string keys_text(const std::vector<int64_t>& keys) { return keys_text(keys.data(), keys.size()); }

}  // namespace gpulin
