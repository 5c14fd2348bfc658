#include "verify/models/set.h"

#include <unordered_set>

namespace gpulin {
namespace {

class SetState final : public ModelState {
 public:
  bool contains(const Value& key) const { return keys_.count(key) != 0; }
  void insert(const Value& key) {
    if (keys_.insert(key).second) sum_ += mix64(key.hash());
  }
  void erase(const Value& key) {
    if (keys_.erase(key)) sum_ -= mix64(key.hash());
  }

  std::unique_ptr<ModelState> clone() const override { return std::make_unique<SetState>(*this); }
  size_t hash() const override { return sum_ ^ mix64(keys_.size()); }
  bool equals(const ModelState& other) const override {
    const auto& o = static_cast<const SetState&>(other);
    return sum_ == o.sum_ && keys_ == o.keys_;
  }
  std::string describe() const override {
    std::string s = "{";
    for (const Value& k : keys_) {
      s += s.size() > 1 ? "," : "";
      s += brief_json(k);
    }
    return s + "}";
  }
  size_t bytes() const override { return sizeof(*this) + keys_.size() * (sizeof(Value) + 16); }

 private:
  std::unordered_set<Value, ValueHash> keys_;
  uint64_t sum_ = 0;  // order-independent hash of the keys
};

class SetModel final : public ValueResultModel {
 public:
  SetModel() : ValueResultModel("set") {}

  State initial_state() const override { return State(std::make_unique<SetState>()); }


  std::optional<std::string> check_call(const Operation& op) const override {
    if (op.f != "insert" && op.f != "delete" && op.f != "contains")
      return "unknown operation '" + op.f + "' (insert, delete, contains)";
    if (op.args.as_array().size() != 1) return op.f + " takes [key], got " + brief_json(op.args);
    return std::nullopt;
  }
  std::optional<std::string> check_result(const Operation& op) const override {
    if (op.f == "contains") {
      if (!op.res->is_bool()) return "contains returns true or false, got " + brief_json(*op.res);
    } else if (!op.res->is_null()) {
      return op.f + " returns null, got " + brief_json(*op.res);
    }
    return std::nullopt;
  }
  bool partitionable() const override { return true; }
  // contains -> true saw an insert of its key; -> false a delete of it (or the empty set).
  bool may_have_produced(const Operation& w, const Operation& r) const override {
    if (r.f != "contains" || w.args.as_array()[0] != r.args.as_array()[0]) return false;
    return w.f == (r.res->as_bool() ? "insert" : "delete");
  }

 private:
  Value result(const State& s, const Operation& op) const override {
    if (op.f != "contains") return Value();
    return Value::boolean(s.as<SetState>().contains(op.args.as_array()[0]));
  }
  void effect(State& s, const Operation& op) const override {
    auto& set = s.as<SetState>();
    if (op.f == "insert") set.insert(op.args.as_array()[0]);
    else if (op.f == "delete") set.erase(op.args.as_array()[0]);
  }
};

}  // namespace

std::unique_ptr<Model> make_set_model() { return std::make_unique<SetModel>(); }

}  // namespace gpulin
