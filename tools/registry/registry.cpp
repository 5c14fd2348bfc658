#include "tools/registry/registry.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include <fmt/core.h>

namespace gpulin::registry {

uint64_t Selection::num(const std::string& name) const {
  const auto it = params.find(name);
  if (it == params.end()) throw std::invalid_argument(fmt::format("{} has no parameter '{}'", structure, name));
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
  if (ec != std::errc() || end != it->second.data() + it->second.size())
    throw std::invalid_argument(fmt::format("{}: parameter '{}' is '{}', not a number", structure, name, it->second));
  return v;
}

const std::string& Selection::text(const std::string& name) const {
  const auto it = params.find(name);
  if (it == params.end()) throw std::invalid_argument(fmt::format("{} has no parameter '{}'", structure, name));
  return it->second;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

void Registry::add(StructureRow row) {
  if (row.name.empty()) throw std::invalid_argument("a structure row needs a name");
  if (find(row.name)) throw std::invalid_argument(fmt::format("structure '{}' is registered twice", row.name));
  if (!row.explore || !row.title || !row.owns_replay || !row.replay)
    throw std::invalid_argument(
        fmt::format("structure '{}': a row needs its explore, title, owns_replay and replay functions", row.name));
  rows_.push_back(std::move(row));
}

const StructureRow* Registry::find(const std::string& name) const {
  for (const StructureRow& r : rows_)
    if (r.name == name) return &r;
  return nullptr;
}

const StructureRow* Registry::owner_of_replay(const std::string& schedule) const {
  for (const StructureRow& r : rows_)
    if (r.owns_replay(schedule)) return &r;
  return nullptr;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> n;
  for (const StructureRow& r : rows_) n.push_back(r.name);
  return n;
}

std::vector<std::string> Registry::stress_names() const {
  std::vector<std::string> n;
  for (const StructureRow& r : rows_)
    if (r.stress) n.push_back(r.name);
  return n;
}


namespace {

Selection selection_of(const StructureRow& row, const std::vector<Param>& params) {
  Selection s;
  s.structure = row.name;
  if (!row.variants.empty()) s.variant = row.variants.front();
  for (const Param& p : params) s.params[p.name] = p.fallback;
  return s;
}

void set_param_of(const StructureRow& row, const std::vector<Param>& params, Selection& s, const std::string& name,
                  const std::string& value) {
  const auto p = std::find_if(params.begin(), params.end(), [&](const Param& q) { return q.name == name; });
  if (p == params.end()) {
    std::vector<std::string> options;
    for (const Param& q : params) options.push_back("--" + q.name);
    throw std::invalid_argument(fmt::format("--{} is not an option of {} (its options: {})", name, row.name,
                                            options.empty() ? "none" : joined(options)));
  }
  if (!p->choices.empty()) {
    if (std::find(p->choices.begin(), p->choices.end(), value) == p->choices.end())
      throw std::invalid_argument(
          fmt::format("--{} {}: {} takes one of {}", name, value, row.name, joined(p->choices)));
  } else if (p->numeric()) {
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || end != value.data() + value.size() || v < p->min || v > p->max)
      throw std::invalid_argument(fmt::format("--{} {}: {} takes a number from {} to {} ({})", name, value, row.name,
                                              p->min, p->max, p->help));
  }
  s.params[name] = value;
}

}  // namespace

Selection default_selection(const StructureRow& row) { return selection_of(row, row.params); }
Selection default_stress_selection(const StructureRow& row) { return selection_of(row, row.stress_params); }

void set_param(const StructureRow& row, Selection& s, const std::string& name, const std::string& value) {
  set_param_of(row, row.params, s, name, value);
}

void set_stress_param(const StructureRow& row, Selection& s, const std::string& name, const std::string& value) {
  set_param_of(row, row.stress_params, s, name, value);
}

void check_choice(const StructureRow& row, const Selection& s) {
  if (row.variants.empty() ? !s.variant.empty()
                           : std::find(row.variants.begin(), row.variants.end(), s.variant) == row.variants.end())
    throw std::invalid_argument(fmt::format("--variant {}: {} has {}", s.variant, row.name,
                                            row.variants.empty() ? "no variants" : "variants " + joined(row.variants)));
  if (s.mutant != "none" && std::find(row.mutants.begin(), row.mutants.end(), s.mutant) == row.mutants.end())
    throw std::invalid_argument(fmt::format("unknown {} mutant '{}' (none{}{})", row.name, s.mutant,
                                            row.mutants.empty() ? "" : ", ", joined(row.mutants)));
}

Selection chosen_selection(const StructureRow& row, const std::string& variant, const std::string& mutant,
                           const std::map<std::string, std::string>& given) {
  Selection s = default_selection(row);
  if (!variant.empty()) s.variant = variant;
  s.mutant = mutant;
  check_choice(row, s);
  for (const auto& [name, value] : given) set_param(row, s, name, value);
  return s;
}

}  // namespace gpulin::registry
