#include "stack_model.h"

#include <vector>

#include "verify/model_registry.h"

namespace own {

namespace {

using gpulin::Operation;
using gpulin::State;
using gpulin::Value;

// The values on the stack, bottom first.
class StackState final : public gpulin::ModelState {
 public:
  std::vector<int64_t> values;

  std::unique_ptr<gpulin::ModelState> clone() const override { return std::make_unique<StackState>(*this); }
  size_t hash() const override {
    uint64_t h = values.size();
    for (int64_t v : values) h = gpulin::mix64(h * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(v));
    return h;
  }
  bool equals(const gpulin::ModelState& other) const override {
    return values == static_cast<const StackState&>(other).values;
  }
  std::string describe() const override {
    std::string s = "[";
    for (size_t i = 0; i < values.size(); ++i) s += (i ? "," : "") + std::to_string(values[i]);
    return s + "] (top last)";
  }
  size_t bytes() const override { return sizeof(*this) + values.capacity() * sizeof(int64_t); }
};

class StackModel final : public gpulin::ValueResultModel {
 public:
  StackModel() : ValueResultModel("stack") {}

  State initial_state() const override { return State(std::make_unique<StackState>()); }

  std::optional<std::string> check_call(const Operation& op) const override {
    if (op.f == "push") {
      if (!gpulin::is_int_list(op.args, 1, 1)) return "push takes [value], got " + gpulin::brief_json(op.args);
    } else if (op.f == "pop") {
      if (!gpulin::is_int_list(op.args, 0, 0)) return "pop takes [], got " + gpulin::brief_json(op.args);
    } else {
      return "unknown operation '" + op.f + "' (push, pop)";
    }
    return std::nullopt;
  }
  std::optional<std::string> check_result(const Operation& op) const override {
    if (op.f == "push" && !op.res->is_null()) return "push returns null, got " + gpulin::brief_json(*op.res);
    if (op.f == "pop" && !gpulin::is_int_list(*op.res, 0, 1))
      return "pop returns [value] or [], got " + gpulin::brief_json(*op.res);
    return std::nullopt;
  }
  // A pop that returned [v] read the push of v: a minimal failing history keeps it
  // beside the pop (verify/minimise.h).
  bool may_have_produced(const Operation& writer, const Operation& reader) const override {
    if (reader.f != "pop" || writer.f != "push" || !reader.res || reader.res->as_array().empty()) return false;
    return writer.args.as_array()[0] == reader.res->as_array()[0];
  }

 private:
  Value result(const State& s, const Operation& op) const override {
    if (op.f != "pop") return Value();
    const auto& values = s.as<StackState>().values;
    if (values.empty()) return Value::array();
    return Value::array({Value::integer(values.back())});
  }
  void effect(State& s, const Operation& op) const override {
    auto& values = s.as<StackState>().values;
    if (op.f == "push")
      values.push_back(op.args.as_array()[0].as_int());
    else if (!values.empty())
      values.pop_back();
  }
};

}  // namespace

std::unique_ptr<gpulin::Model> make_stack_model() { return std::make_unique<StackModel>(); }

void register_stack_model() {
  gpulin::register_model({"stack", {}, "LIFO stack: push a value, pop the top one ([] when empty); examples/own-structure"},
                         [](const gpulin::Header&) { return make_stack_model(); });
}

}  // namespace own
