#include "verify/models/register.h"

namespace gpulin {
namespace {

class Cell final : public ModelState {
 public:
  explicit Cell(Value v) : value(std::move(v)) {}
  Value value;

  std::unique_ptr<ModelState> clone() const override { return std::make_unique<Cell>(*this); }
  size_t hash() const override { return value.hash(); }
  bool equals(const ModelState& other) const override { return value == static_cast<const Cell&>(other).value; }
  std::string describe() const override { return brief_json(value); }
  size_t bytes() const override { return sizeof(*this); }
};

class RegisterModel final : public ValueResultModel {
 public:
  explicit RegisterModel(Value init) : ValueResultModel("register"), init_(std::move(init)) {}

  State initial_state() const override { return State(std::make_unique<Cell>(init_)); }


  std::optional<std::string> check_call(const Operation& op) const override {
    const size_t n = op.args.as_array().size();
    if (op.f == "write") {
      if (n != 1) return "write takes [value], got " + brief_json(op.args);
    } else if (op.f == "read") {
      if (n != 0) return "read takes no arguments, got " + brief_json(op.args);
    } else if (op.f == "cas") {
      if (n != 2) return "cas takes [old, new], got " + brief_json(op.args);
    } else {
      return "unknown operation '" + op.f + "' (write, read, cas)";
    }
    return std::nullopt;
  }
  std::optional<std::string> check_result(const Operation& op) const override {
    if (op.f == "write" && !op.res->is_null()) return "write returns null, got " + brief_json(*op.res);
    if (op.f == "cas" && !op.res->is_bool()) return "cas returns true or false, got " + brief_json(*op.res);
    return std::nullopt;
  }
  // A read saw the value some write or successful cas stored; a successful cas saw
  // its `old` the same way (a failed one saw only some other value: nothing).
  bool may_have_produced(const Operation& w, const Operation& r) const override {
    if (r.f == "read") return stores(w, *r.res);
    return r.f == "cas" && r.res->as_bool() && stores(w, r.args.as_array()[0]);
  }

 private:
  // Whether w stores v: a write of v, or a cas to v that succeeded or is pending.
  static bool stores(const Operation& w, const Value& v) {
    const auto& a = w.args.as_array();
    if (w.f == "write") return a[0] == v;
    return w.f == "cas" && a[1] == v && (!w.res || w.res->as_bool());
  }
  Value result(const State& s, const Operation& op) const override {
    const Value& cur = s.as<Cell>().value;
    if (op.f == "read") return cur;
    if (op.f == "cas") return Value::boolean(cur == op.args.as_array()[0]);
    return Value();
  }
  void effect(State& s, const Operation& op) const override {
    Value& cur = s.as<Cell>().value;
    const auto& a = op.args.as_array();
    if (op.f == "write") cur = a[0];
    else if (op.f == "cas" && cur == a[0]) cur = a[1];
  }

  Value init_;
};

}  // namespace

std::unique_ptr<Model> make_register_model(Value init) { return std::make_unique<RegisterModel>(std::move(init)); }

}  // namespace gpulin
