#include "tools/registry/op_structure_row.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include <fmt/core.h>

#include "tools/explore/replay_fields.h"
#include "tools/registry/registry.h"

namespace gpulin::registry {

namespace {

bool is_shape(const std::string& name) { return name == "actors" || name == "ops"; }

// NAME[:variant=V][:mutant=M][:P=V...] over every parameter but the shape, which the
// program itself carries.
std::string encode_config(const Selection& s) {
  std::string c = s.structure;
  if (!s.variant.empty()) c += ":variant=" + s.variant;
  if (s.mutant != "none") c += ":mutant=" + s.mutant;
  for (const auto& [name, value] : s.params)
    if (!is_shape(name)) c += ":" + name + "=" + value;
  return c + sim::memory::memory_config_field(s.memory);
}

Selection decode_config(const StructureRow& row, const std::string& config) {
  const auto fields = explore::split_fields(config, ':');
  if (fields[0] != row.name)
    throw std::invalid_argument(fmt::format("{} schedule: the config names '{}'", row.name, fields[0]));
  Selection s = default_selection(row);
  for (size_t i = 1; i < fields.size(); ++i) {
    const auto eq = fields[i].find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument(fmt::format("{} schedule: config field '{}' is not NAME=VALUE", row.name, fields[i]));
    const std::string name = fields[i].substr(0, eq), value = fields[i].substr(eq + 1);
    if (name == "variant")
      s.variant = value;
    else if (name == "mutant")
      s.mutant = value;
    else if (name == "memory")
      s.memory = sim::memory::parse_memory_config_value(value, row.name + " schedule");
    else
      set_param(row, s, name, value);
  }
  check_choice(row, s);
  return s;
}

explore::OpStructure structure_for(const OpStructureSpec& spec, const Selection& s) {
  explore::OpStructure st = spec.make(s);
  st.config = encode_config(s);
  st.memory = s.memory;
  st.file_name = s.structure + (s.variant.empty() ? "" : "-" + s.variant) + (s.mutant == "none" ? "" : "-" + s.mutant);
  st.header.model = spec.row.model;
  st.actors = s.u32("actors");
  st.ops = s.u32("ops");
  return st;
}

}  // namespace

StructureRow op_structure_row(OpStructureSpec spec) {
  StructureRow& row = spec.row;
  auto declared = [&](const char* name) {
    return std::any_of(row.params.begin(), row.params.end(), [&](const Param& p) { return p.name == name; });
  };
  if (!declared("actors")) row.params.insert(row.params.begin(), {"actors", "actors (fibers)", "3", 1, 64});
  if (!declared("ops")) row.params.insert(row.params.begin() + 1, {"ops", "calls per actor", "4", 0, 100000});
  auto shared = std::make_shared<OpStructureSpec>(spec);
  row.explore = [shared](const explore::ExploreOptions& o, const Selection& s) {
    return explore::run_op_explore(o, structure_for(*shared, s));
  };
  row.title = [](const Selection& s) {
    std::string t = s.structure + (s.variant.empty() ? "" : " " + s.variant);
    for (const auto& [name, value] : s.params) t += " " + name + "=" + value;
    return t;
  };
  const std::string name = row.name;
  row.owns_replay = [name](const std::string& schedule) {
    return schedule.rfind(name + ":", 0) == 0 || schedule.rfind(name + "|", 0) == 0;
  };
  row.replay = [shared](const std::string& schedule, uint64_t max_points) {
    const auto parts = explore::split_op_replay_string(schedule, shared->row.name.c_str());
    const Selection s = decode_config(shared->row, parts.config);
    const explore::OpStructure st = structure_for(*shared, s);
    explore::OpExecution e = explore::replay_ops(st, parts.program, parts.picks, max_points);
    explore::set_schedule_field(e.history, explore::op_replay_string(st, parts.program, e.run.picks));
    const explore::Judgement j = explore::judge_ops(e, explore::JudgeOptions{});
    return replayed(std::move(e), j);
  };
  return std::move(spec.row);
}

}  // namespace gpulin::registry
