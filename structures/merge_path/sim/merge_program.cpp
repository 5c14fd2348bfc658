#include "structures/merge_path/sim/merge_program.h"

#include <algorithm>
#include <random>
#include <sstream>
#include <stdexcept>

#include "sim/schedule_string.h"

namespace gpulin::explore {

using merge_path::MergeMutant;

std::string merge_mutant_name(MergeMutant m) {
  switch (m) {
    case MergeMutant::None: return "none";
    case MergeMutant::WindowOverrun: return "merge-window-overrun";
    case MergeMutant::EarlyRelease: return "merge-early-release";
    case MergeMutant::NoWarpSync: return "merge-no-warp-sync";
  }
  return "none";
}

std::optional<MergeMutant> parse_merge_mutant(const std::string& s) {
  for (MergeMutant m : {MergeMutant::None, MergeMutant::WindowOverrun, MergeMutant::EarlyRelease, MergeMutant::NoWarpSync})
    if (s == merge_mutant_name(m)) return m;
  return std::nullopt;
}

MergeProgram generate_merge_program(const MergeConfig& c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t distinct_choices[] = {1, 2, 4, 16, 1000};
  const uint32_t distinct = distinct_choices[rng() % 5];
  auto sorted = [&](uint64_t n) {
    std::vector<uint32_t> v(n);
    for (auto& k : v) k = static_cast<uint32_t>(rng() % distinct);
    std::sort(v.begin(), v.end());
    return v;
  };
  MergeProgram p;
  p.a = sorted(rng() % (c.max_len + 1));
  p.b = sorted(rng() % (c.max_len + 1));
  p.off_a = static_cast<uint32_t>(rng() % 4);
  p.off_b = static_cast<uint32_t>(rng() % 4);
  p.off_c = static_cast<uint32_t>(rng() % 4);
  return p;
}

bool is_merge_replay(const std::string& replay) { return replay.rfind("merge:", 0) == 0; }

namespace {

std::string encode_keys(const std::vector<uint32_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {  // piece by piece: verify/keys_text.h says why
    if (i) s += ',';
    s += std::to_string(v[i]);
  }
  return s;
}

uint32_t parse_u32(const std::string& s, const std::string& what) {
  size_t used = 0;
  unsigned long v = 0;
  try {
    v = std::stoul(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != s.size() || v > 0xffffffffUL) throw std::invalid_argument("merge schedule: bad " + what + " '" + s + "'");
  return static_cast<uint32_t>(v);
}

// "OFF:k,k,..." (keys sorted), or "OFF" for the output.
void decode_array(const std::string& text, uint32_t& off, std::vector<uint32_t>* keys) {
  const size_t colon = text.find(':');
  off = parse_u32(text.substr(0, colon), "offset");
  if (off > 3) throw std::invalid_argument("merge schedule: offsets are 0 to 3");
  if (!keys) return;
  if (colon == std::string::npos) throw std::invalid_argument("merge schedule: want OFF:keys in '" + text + "'");
  std::istringstream in(text.substr(colon + 1));
  for (std::string k; std::getline(in, k, ',');) keys->push_back(parse_u32(k, "key"));
  if (!std::is_sorted(keys->begin(), keys->end())) throw std::invalid_argument("merge schedule: inputs must be sorted");
}

}  // namespace

std::string merge_replay_string(const MergeConfig& c, const MergeProgram& p, const std::vector<uint32_t>& picks) {
  std::string config = "merge:blocks=" + std::to_string(c.blocks);
  if (c.mutant != MergeMutant::None) config += ":mutant=" + merge_mutant_name(c.mutant);
  config += sim::memory::memory_config_field(c.memory);
  return config + "|a=" + std::to_string(p.off_a) + ":" + encode_keys(p.a) + ";b=" + std::to_string(p.off_b) + ":" +
         encode_keys(p.b) + ";c=" + std::to_string(p.off_c) + "|" + sim::encode_picks(picks);
}

MergeReplayInput parse_merge_replay_string(const std::string& s) {
  const size_t x = s.find('|');
  const size_t y = x == std::string::npos ? x : s.find('|', x + 1);
  if (!is_merge_replay(s) || y == std::string::npos) throw std::invalid_argument("merge schedule: want merge:CONFIG|PROGRAM|PICKS");
  MergeReplayInput in;
  std::istringstream config(s.substr(6, x - 6));
  for (std::string field; std::getline(config, field, ':');) {
    if (field.rfind("blocks=", 0) == 0) {
      in.config.blocks = parse_u32(field.substr(7), "blocks");
      if (in.config.blocks < 1 || in.config.blocks > 21) throw std::invalid_argument("merge schedule: 1 to 21 blocks");
    } else if (field.rfind("memory=", 0) == 0) {
      in.config.memory = sim::memory::parse_memory_config_value(field.substr(7), "merge schedule");
    } else if (field.rfind("mutant=", 0) == 0) {
      const auto m = parse_merge_mutant(field.substr(7));
      if (!m) throw std::invalid_argument("merge schedule: unknown mutant '" + field.substr(7) + "'");
      in.config.mutant = *m;
    } else {
      throw std::invalid_argument("merge schedule: unknown setting '" + field + "'");
    }
  }
  std::istringstream program(s.substr(x + 1, y - x - 1));
  bool seen[3] = {false, false, false};
  for (std::string part; std::getline(program, part, ';');) {
    if (part.rfind("a=", 0) == 0) decode_array(part.substr(2), in.program.off_a, &in.program.a), seen[0] = true;
    else if (part.rfind("b=", 0) == 0) decode_array(part.substr(2), in.program.off_b, &in.program.b), seen[1] = true;
    else if (part.rfind("c=", 0) == 0) decode_array(part.substr(2), in.program.off_c, nullptr), seen[2] = true;
    else throw std::invalid_argument("merge schedule: unknown part '" + part + "'");
  }
  if (!seen[0] || !seen[1] || !seen[2]) throw std::invalid_argument("merge schedule: want a=...;b=...;c=...");
  in.picks = sim::decode_picks(s.substr(y + 1));
  return in;
}

}  // namespace gpulin::explore
