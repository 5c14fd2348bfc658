#include "tools/explore/replay_fields.h"

#include "sim/schedule_string.h"
#include "sim/strategies/replay_strategy.h"

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

std::string with_memory_mode(const std::string& schedule, sim::memory::MemoryMode m) {
  const size_t config_end = schedule.find('|');
  const size_t picks_start = schedule.rfind('|');
  if (config_end == std::string::npos || picks_start == config_end)
    throw std::invalid_argument("schedule: want CONFIG|PROGRAM|PICKS");
  std::string config;
  for (const std::string& field : split_fields(schedule.substr(0, config_end), ':'))
    if (field.rfind("memory=", 0) != 0) config += (config.empty() ? "" : ":") + field;
  std::string picks = schedule.substr(picks_start + 1);
  if (m == sim::memory::MemoryMode::Sc)
    picks = sim::encode_picks(sim::ReplayStrategy::without_choices(sim::decode_picks(picks)));
  return config + sim::memory::memory_config_field(m) + schedule.substr(config_end, picks_start + 1 - config_end) + picks;
}

}  // namespace gpulin::explore
