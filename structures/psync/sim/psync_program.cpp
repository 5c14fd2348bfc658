#include "structures/psync/sim/psync_program.h"

#include <random>
#include <stdexcept>

#include "histories/jsonl_writer.h"
#include "sim/schedule_string.h"
#include "tools/explore/replay_fields.h"

namespace gpulin::explore {

size_t PsyncProgram::keys() const {
  size_t n = 0;
  for (const auto& c : cycles) n += c.size();
  return n;
}

Header psync_header(uint32_t r, const std::string& source) {
  Header header;
  header.model = "psync-pq";
  header.lp_rule = "explicit";
  header.params = Value::object({{"r", Value::integer(r)}});
  std::string quoted;
  append_json_string(quoted, source);
  header.extra.emplace_back("source", quoted);
  return header;
}

std::vector<std::string> psync_fn_names() { return {"cycle"}; }

std::string psync_mutant_name(psync::Mutant m) {
  switch (m) {
    case psync::Mutant::None: return "none";
    case psync::Mutant::TwoLevels: return "psync-two-levels";
    case psync::Mutant::NoBarrier: return "psync-no-barrier";
    case psync::Mutant::RefillWrongEnd: return "psync-refill-wrong-end";
  }
  return "none";
}

const std::vector<std::string>& psync_mutant_names() {
  static const std::vector<std::string> names = {"psync-two-levels", "psync-no-barrier", "psync-refill-wrong-end"};
  return names;
}

std::optional<psync::Mutant> parse_psync_mutant(const std::string& s) {
  using psync::Mutant;
  for (Mutant m : {Mutant::None, Mutant::TwoLevels, Mutant::NoBarrier, Mutant::RefillWrongEnd})
    if (psync_mutant_name(m) == s) return m;
  return std::nullopt;
}

PsyncProgram generate_psync_program(const PsyncConfig& c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&rng](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  PsyncProgram p;
  for (uint32_t i = 0; i < c.cycles; ++i) {
    const uint32_t k = pick(4) != 0 ? c.r + pick(c.r + 1) : pick(c.r);
    std::vector<uint32_t> keys;
    for (uint32_t j = 0; j < k; ++j) keys.push_back(pick(c.keys));
    p.cycles.push_back(std::move(keys));
  }
  return p;
}

bool is_psync_replay(const std::string& replay) { return replay.rfind("psync:", 0) == 0; }

std::string psync_replay_string(const PsyncConfig& c, const PsyncProgram& p, const std::vector<uint32_t>& picks) {
  std::string s = "psync:r=" + std::to_string(c.r);
  if (c.mutant != psync::Mutant::None) s += ":mutant=" + psync_mutant_name(c.mutant);
  if (c.threads != 2) s += ":threads=" + std::to_string(c.threads);
  s += sim::memory::memory_config_field(c.memory) + "|";
  for (size_t i = 0; i < p.cycles.size(); ++i) {
    if (i) s += ";";
    for (size_t j = 0; j < p.cycles[i].size(); ++j) {  // piece by piece: verify/keys_text.h says why
      if (j) s += ',';
      s += std::to_string(p.cycles[i][j]);
    }
  }
  return s + "|" + sim::encode_picks(picks);
}

PsyncReplayInput parse_psync_replay_string(const std::string& s) {
  const auto parts = split_fields(s, '|');
  if (!is_psync_replay(s) || parts.size() != 3) throw std::invalid_argument("psync schedule: want psync:CONFIG|PROGRAM|PICKS");
  PsyncReplayInput in;
  const auto config = split_fields(parts[0], ':');
  bool has_r = false;
  for (size_t i = 1; i < config.size(); ++i) {
    const std::string& kv = config[i];
    if (kv.rfind("r=", 0) == 0) {
      in.config.r = parse_u32_field(kv.substr(2), "psync", "r");
      if (in.config.r == 0 || in.config.r > 64) throw std::invalid_argument("psync schedule: r must be 1..64");
      has_r = true;
    } else if (kv.rfind("threads=", 0) == 0) {
      in.config.threads = parse_u32_field(kv.substr(8), "psync", "threads");
      if (in.config.threads == 0 || in.config.threads > 1024)
        throw std::invalid_argument("psync schedule: threads must be 1..1024");
    } else if (kv.rfind("memory=", 0) == 0) {
      in.config.memory = sim::memory::parse_memory_config_value(kv.substr(7), "psync schedule");
    } else if (kv.rfind("mutant=", 0) == 0) {
      const auto m = parse_psync_mutant(kv.substr(7));
      if (!m) throw std::invalid_argument("psync schedule: unknown mutant '" + kv.substr(7) + "'");
      in.config.mutant = *m;
    } else {
      throw std::invalid_argument("psync schedule: unknown config field '" + kv + "'");
    }
  }
  if (!has_r) throw std::invalid_argument("psync schedule: the config needs r=R");
  for (const std::string& cycle : split_fields(parts[1], ';')) {
    std::vector<uint32_t> keys;
    for (const std::string& key : split_fields(cycle, ',')) keys.push_back(parse_u32_field(key, "psync", "key"));
    if (keys.size() > 2 * in.config.r)
      throw std::invalid_argument("psync schedule: a cycle brings at most 2r = " + std::to_string(2 * in.config.r) +
                                  " keys, '" + cycle + "' has " + std::to_string(keys.size()));
    in.program.cycles.push_back(std::move(keys));
  }
  if (in.program.cycles.size() > 4096) throw std::invalid_argument("psync schedule: at most 4096 cycles");
  in.picks = sim::decode_picks(parts[2]);
  return in;
}

}  // namespace gpulin::explore
