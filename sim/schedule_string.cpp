#include "sim/schedule_string.h"

#include <charconv>
#include <stdexcept>
#include <string>

namespace gpulin::sim {

std::string encode_picks(const std::vector<uint32_t>& picks) {
  std::string out;
  for (size_t i = 0; i < picks.size();) {
    size_t j = i;
    while (j < picks.size() && picks[j] == picks[i]) ++j;
    if (!out.empty()) out.push_back('.');
    if (is_choice(picks[i])) out.push_back('r');
    out += std::to_string(unmarked(picks[i]));
    if (j - i > 1) {
      out.push_back('*');
      out += std::to_string(j - i);
    }
    i = j;
  }
  return out;
}

static uint64_t parse_number(const char*& p, const char* end) {
  uint64_t v = 0;
  auto [next, ec] = std::from_chars(p, end, v);
  if (ec != std::errc() || next == p) throw std::invalid_argument("schedule: expected a number");
  p = next;
  return v;
}

std::vector<uint32_t> decode_picks(const std::string& text, uint64_t max_picks) {
  std::vector<uint32_t> picks;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    const bool choice = *p == 'r';
    if (choice) ++p;
    uint64_t actor = parse_number(p, end);
    uint64_t times = 1;
    if (p < end && *p == '*') {
      ++p;
      times = parse_number(p, end);
    }
    if (actor >= 64)
      throw std::invalid_argument(std::string("schedule: ") + (choice ? "value " : "actor ") + std::to_string(actor) +
                                  " (at most 63)");
    if (times == 0 || times > max_picks - picks.size())
      throw std::invalid_argument("schedule: a run of " + std::to_string(times) + " after " + std::to_string(picks.size()) +
                                   " picks (1 or more, at most " + std::to_string(max_picks) + " in all)");
    picks.insert(picks.end(), times, static_cast<uint32_t>(actor) | (choice ? kChoiceMark : 0));
    if (p < end) {
      if (*p != '.') throw std::invalid_argument("schedule: expected '.' between picks");
      if (++p == end) throw std::invalid_argument("schedule: '.' at the end");
    }
  }
  return picks;
}

}  // namespace gpulin::sim
