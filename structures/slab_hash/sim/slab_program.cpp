#include "structures/slab_hash/sim/slab_program.h"

#include <algorithm>
#include <iterator>
#include <random>
#include <stdexcept>

#include "sim/schedule_string.h"
#include "tools/explore/replay_fields.h"

namespace gpulin::explore {

namespace {

constexpr char kFnCodes[] = {'i', 'd', 's', 'a', 'x'};


}  // namespace

size_t SlabProgram::size() const {
  size_t n = 0;
  for (const auto& w : warps) n += w.size();
  return n;
}

std::string slab_mode_name(slab_hash::Mode m) {
  using slab_hash::Mode;
  return m == Mode::Map ? "map" : m == Mode::Set ? "set" : "multimap";
}

Header slab_header(slab_hash::Mode m, const std::string& source) {
  Header header;
  header.model = slab_mode_name(m);
  header.lp_rule = "explicit";
  std::string quoted;
  append_json_string(quoted, source);
  header.extra.emplace_back("source", quoted);
  return header;
}

std::vector<std::string> slab_fn_names(slab_hash::Mode m) {
  std::vector<std::string> names;
  for (uint32_t fn = 0; fn < slab_hash::kFnCount; ++fn) names.emplace_back(slab_hash::fn_name(m, fn));
  return names;
}

const ResultShapes& slab_result_shapes() {
  static const ResultShapes shapes = {{"search", ResultShape::Scalar}, {"contains", ResultShape::Bool}};
  return shapes;
}

std::optional<slab_hash::Mode> parse_slab_structure(const std::string& s) {
  if (s == "slab-map") return slab_hash::Mode::Map;
  if (s == "slab-set") return slab_hash::Mode::Set;
  if (s == "slab-multimap") return slab_hash::Mode::Multimap;
  return std::nullopt;
}

std::string slab_variant_name(slab_hash::Variant v) { return v == slab_hash::Variant::Fixed ? "fixed" : "paper"; }

std::optional<slab_hash::Variant> parse_slab_variant(const std::string& s) {
  if (s == "paper") return slab_hash::Variant::Paper;
  if (s == "fixed") return slab_hash::Variant::Fixed;
  return std::nullopt;
}

std::string slab_mutant_name(slab_hash::Mutant m) {
  switch (m) {
    case slab_hash::Mutant::None: return "none";
    case slab_hash::Mutant::SearchFirstSlab: return "slab-search-first-slab";
    case slab_hash::Mutant::InsertNoReread: return "slab-insert-no-reread";
    case slab_hash::Mutant::LostNextCas: return "slab-lost-next-cas";
  }
  return "none";
}

const std::vector<std::string>& slab_mutant_names() {
  static const std::vector<std::string> names = {"slab-search-first-slab", "slab-insert-no-reread",
                                                 "slab-lost-next-cas"};
  return names;
}

std::optional<slab_hash::Mutant> parse_slab_mutant(const std::string& s) {
  using slab_hash::Mutant;
  for (Mutant m : {Mutant::None, Mutant::SearchFirstSlab, Mutant::InsertNoReread, Mutant::LostNextCas})
    if (slab_mutant_name(m) == s) return m;
  return std::nullopt;
}

std::string slab_lanes_problem(const SlabConfig& c) {
  if (c.lanes != 32 && c.lanes != 16 && c.lanes != 8) return "lanes must be 32, 16 or 8";
  if (c.lanes != 32 && c.mode == slab_hash::Mode::Set)
    return "a set's slab holds 32-bit keys: it runs on 32 lanes (tiles are for pairs)";
  return "";
}

SlabProgram generate_slab_program(const SlabConfig& c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&rng](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  SlabProgram p;
  uint32_t value = 1;
  for (uint32_t w = 0; w < c.warps; ++w) {
    std::vector<SlabTask> ops;
    for (uint32_t i = 0; i < c.ops; ++i) {
      SlabTask t;
      t.key = pick(c.keys);
      const uint32_t roll = pick(100);
      if (roll < c.insert_percent) {
        t.fn = slab_hash::kFnInsert;
        t.value = c.mode == slab_hash::Mode::Set ? 0 : value++;
      } else if (roll < c.insert_percent + c.delete_percent) {
        t.fn = c.mode == slab_hash::Mode::Multimap && pick(4) == 0 ? slab_hash::kFnDeleteAll : slab_hash::kFnDelete;
      } else {
        t.fn = c.mode == slab_hash::Mode::Multimap && pick(3) == 0 ? slab_hash::kFnSearchAll : slab_hash::kFnSearch;
      }
      ops.push_back(t);
    }
    p.warps.push_back(std::move(ops));
  }
  return p;
}

bool is_slab_replay(const std::string& replay) { return replay.rfind("slab-", 0) == 0; }

std::string slab_replay_string(const SlabConfig& c, const SlabProgram& p, const std::vector<uint32_t>& picks) {
  std::string s = "slab-" + slab_mode_name(c.mode) + ":buckets=" + std::to_string(c.buckets);
  if (c.variant != slab_hash::Variant::Paper) s += ":variant=" + slab_variant_name(c.variant);
  if (!c.light) s += ":alloc=regular";
  if (c.lanes != 32) s += ":lanes=" + std::to_string(c.lanes);
  if (c.mutant != slab_hash::Mutant::None) s += ":mutant=" + slab_mutant_name(c.mutant);
  s += sim::memory::memory_config_field(c.memory) + "|";
  for (size_t w = 0; w < p.warps.size(); ++w) {
    if (w) s += ";";
    for (size_t i = 0; i < p.warps[w].size(); ++i) {
      const SlabTask& t = p.warps[w][i];
      if (i) s += ",";
      s += kFnCodes[t.fn] + std::to_string(t.key);
      if (t.fn == slab_hash::kFnInsert && c.mode != slab_hash::Mode::Set) s += "=" + std::to_string(t.value);
    }
  }
  return s + "|" + sim::encode_picks(picks);
}

SlabReplayInput parse_slab_replay_string(const std::string& s) {
  const auto parts = split_fields(s, '|');
  if (!is_slab_replay(s) || parts.size() != 3)
    throw std::invalid_argument("slab schedule: want slab-MODE:CONFIG|PROGRAM|PICKS");
  SlabReplayInput in;
  const auto config = split_fields(parts[0], ':');
  const auto mode = parse_slab_structure(config[0]);
  if (!mode) throw std::invalid_argument("slab schedule: unknown structure '" + config[0] + "'");
  in.config.mode = *mode;
  for (size_t i = 1; i < config.size(); ++i) {
    const std::string& kv = config[i];
    if (kv.rfind("buckets=", 0) == 0) {
      in.config.buckets = parse_u32_field(kv.substr(8), "slab", "buckets");
      if (in.config.buckets == 0 || in.config.buckets > 4096)
        throw std::invalid_argument("slab schedule: buckets must be 1..4096");
    } else if (kv.rfind("variant=", 0) == 0) {
      const auto v = parse_slab_variant(kv.substr(8));
      if (!v) throw std::invalid_argument("slab schedule: unknown variant '" + kv.substr(8) + "' (paper, fixed)");
      in.config.variant = *v;
    } else if (kv.rfind("memory=", 0) == 0) {
      in.config.memory = sim::memory::parse_memory_config_value(kv.substr(7), "slab schedule");
    } else if (kv == "alloc=regular") {
      in.config.light = false;
    } else if (kv.rfind("lanes=", 0) == 0) {
      in.config.lanes = parse_u32_field(kv.substr(6), "slab", "lanes");
    } else if (kv.rfind("mutant=", 0) == 0) {
      const auto m = parse_slab_mutant(kv.substr(7));
      if (!m) throw std::invalid_argument("slab schedule: unknown mutant '" + kv.substr(7) + "'");
      in.config.mutant = *m;
    } else {
      throw std::invalid_argument("slab schedule: unknown config field '" + kv + "'");
    }
  }
  if (in.config.variant == slab_hash::Variant::Fixed && in.config.mode != slab_hash::Mode::Multimap)
    throw std::invalid_argument("slab schedule: variant=fixed is the multimap's (map and set have one variant)");
  if (const std::string why = slab_lanes_problem(in.config); !why.empty()) throw std::invalid_argument("slab schedule: " + why);
  for (const std::string& warp : split_fields(parts[1], ';')) {
    std::vector<SlabTask> ops;
    for (const std::string& op : split_fields(warp, ',')) {
      if (op.empty()) continue;
      SlabTask t;
      const char* code = std::find(std::begin(kFnCodes), std::end(kFnCodes), op[0]);
      if (code == std::end(kFnCodes)) throw std::invalid_argument("slab schedule: unknown operation '" + op + "'");
      t.fn = static_cast<uint32_t>(code - kFnCodes);
      const size_t eq = op.find('=');
      t.key = parse_u32_field(op.substr(1, eq == std::string::npos ? std::string::npos : eq - 1), "slab", "key");
      if (t.key > slab_hash::kMaxKey) throw std::invalid_argument("slab schedule: key '" + op + "' is reserved");
      if (eq != std::string::npos) t.value = parse_u32_field(op.substr(eq + 1), "slab", "value");
      ops.push_back(t);
    }
    if (ops.size() > in.config.lanes)
      throw std::invalid_argument("slab schedule: an actor has at most " + std::to_string(in.config.lanes) +
                                  " operations (one per lane)");
    in.program.warps.push_back(std::move(ops));
  }
  if (in.program.warps.empty() || in.program.warps.size() > 64)
    throw std::invalid_argument("slab schedule: 1..64 warps");
  in.picks = sim::decode_picks(parts[2]);
  return in;
}

}  // namespace gpulin::explore
