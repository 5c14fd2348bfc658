#include "verify/model.h"

#include <unordered_map>

namespace gpulin {

std::optional<State> Model::step(const State& s, const Operation& op) const {
  State next = s;
  if (!apply(next, op)) return std::nullopt;
  return next;
}

std::vector<State> Model::step_pending(const State& s, const Operation& op) const {
  std::vector<State> out;
  apply_pending(s, op, out);
  return out;
}

void Model::validate_ops(const History& h) const {
  for (const Operation& op : h.ops) {
    if (!op.args.is_array())
      throw FormatError(h.source, op.inv_line, name_ + ": args of op " + std::to_string(op.id) + " is not an array");
    if (auto why = check_call(op))
      throw FormatError(h.source, op.inv_line, name_ + ": op " + std::to_string(op.id) + " (" + op.f + "): " + *why);
    if (op.res)
      if (auto why = check_result(op))
        throw FormatError(h.source, op.ret_line,
                          name_ + ": result of op " + std::to_string(op.id) + " (" + op.f + "): " + *why);
  }
}

std::vector<std::vector<size_t>> Model::partition(const History& h) const {
  std::vector<std::vector<size_t>> groups;
  if (!partitionable()) {
    groups.emplace_back(h.ops.size());
    for (size_t i = 0; i < h.ops.size(); ++i) groups[0][i] = i;
    return groups;
  }
  std::unordered_map<Value, size_t, ValueHash> group_of;
  for (size_t i = 0; i < h.ops.size(); ++i) {
    auto [it, fresh] = group_of.emplace(partition_key(h.ops[i]), groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  return groups;
}

std::vector<size_t> Model::sources(const History& h, size_t i) const {
  std::vector<size_t> out;
  const Operation& reader = h.ops[i];
  if (reader.pending()) return out;
  for (size_t j = 0; j < h.ops.size(); ++j)
    if (j != i && h.ops[j].inv_t < reader.ret_t && may_have_produced(h.ops[j], reader)) out.push_back(j);
  return out;
}

std::string brief_json(const Value& v) {
  std::string s = v.to_json();
  constexpr size_t kMax = 200;
  if (s.size() > kMax) s = s.substr(0, kMax) + "...";
  return s;
}

bool is_int_list(const Value& v, size_t min_n, size_t max_n) {
  return v.is_int_array() && v.as_array().size() >= min_n && v.as_array().size() <= max_n;
}

bool is_ascending_ints(const Value& v) {
  if (!v.is_int_array()) return false;
  const auto& a = v.as_array();
  for (size_t i = 1; i < a.size(); ++i)
    if (a[i - 1].as_int() > a[i].as_int()) return false;
  return true;
}

uint64_t mix64(uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string ValueResultModel::expected_result(const State& s, const Operation& op) const {
  return brief_json(result(s, op));
}

}  // namespace gpulin
