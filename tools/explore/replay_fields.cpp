#include "tools/explore/replay_fields.h"

#include <sstream>
#include <stdexcept>

namespace gpulin::explore {

std::vector<std::string> split_fields(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) out.push_back(part);
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

uint32_t parse_u32_field(const std::string& s, const char* kind, const char* what) {
  const std::string where = std::string(kind) + " schedule: " + what + " '" + s + "'";
  if (s.empty() || s.size() > 10 || s.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument(where + " is not a number");
  const uint64_t v = std::stoull(s);
  if (v > 0xFFFFFFFFull) throw std::invalid_argument(where + " is too large");
  return static_cast<uint32_t>(v);
}

}  // namespace gpulin::explore
