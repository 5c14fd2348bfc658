#include "verify/models/counters.h"

#include <map>

namespace gpulin {
namespace {

// Only the counters that were touched; the rest are 0.
class CountersState final : public ModelState {
 public:
  int64_t get(int64_t i) const {
    const auto it = values_.find(i);
    return it == values_.end() ? 0 : it->second;
  }
  void add(int64_t i, int64_t d) { values_[i] += d; }

  std::unique_ptr<ModelState> clone() const override { return std::make_unique<CountersState>(*this); }
  size_t hash() const override {
    uint64_t h = 0;
    for (const auto& [i, v] : values_) h ^= mix64(static_cast<uint64_t>(i) * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(v));
    return h;
  }
  bool equals(const ModelState& other) const override {
    return values_ == static_cast<const CountersState&>(other).values_;
  }
  std::string describe() const override {
    std::string s = "{";
    for (const auto& [i, v] : values_) s += (s.size() > 1 ? "," : "") + std::to_string(i) + ":" + std::to_string(v);
    return s + "}";
  }
  size_t bytes() const override { return sizeof(*this) + values_.size() * 48; }

 private:
  std::map<int64_t, int64_t> values_;
};

bool all_ints(const Value& a) {
  for (const Value& v : a.as_array())
    if (!v.is_int()) return false;
  return true;
}

class CountersModel final : public ValueResultModel {
 public:
  CountersModel() : ValueResultModel("counters") {}

  State initial_state() const override { return State(std::make_unique<CountersState>()); }

  std::optional<std::string> check_call(const Operation& op) const override {
    const size_t n = op.args.as_array().size();
    if (op.f == "add") {
      if (n != 2 || !all_ints(op.args)) return "add takes [counter, amount], got " + brief_json(op.args);
    } else if (op.f == "get") {
      if (n != 1 || !all_ints(op.args)) return "get takes [counter], got " + brief_json(op.args);
    } else {
      return "unknown operation '" + op.f + "' (add, get)";
    }
    return std::nullopt;
  }
  std::optional<std::string> check_result(const Operation& op) const override {
    if (op.f == "add" && !op.res->is_null()) return "add returns null, got " + brief_json(*op.res);
    if (op.f == "get" && !(op.res->is_array() && op.res->as_array().size() == 1 && all_ints(*op.res)))
      return "get returns [value], got " + brief_json(*op.res);
    return std::nullopt;
  }
  bool partitionable() const override { return true; }
  // A get's value is the sum of the adds to its counter before it: any of them.
  bool may_have_produced(const Operation& w, const Operation& r) const override {
    return r.f == "get" && w.f == "add" && w.args.as_array()[0] == r.args.as_array()[0];
  }

 private:
  Value result(const State& s, const Operation& op) const override {
    if (op.f != "get") return Value();
    return Value::array({Value::integer(s.as<CountersState>().get(op.args.as_array()[0].as_int()))});
  }
  void effect(State& s, const Operation& op) const override {
    if (op.f != "add") return;
    const auto& a = op.args.as_array();
    s.as<CountersState>().add(a[0].as_int(), a[1].as_int());
  }
};

}  // namespace

std::unique_ptr<Model> make_counters_model() { return std::make_unique<CountersModel>(); }

}  // namespace gpulin
