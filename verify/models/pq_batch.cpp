#include "verify/models/pq_batch.h"

#include "verify/models/key_multiset.h"

namespace gpulin {
namespace {

class PqBatchModel final : public Model {
 public:
  PqBatchModel(std::string name, int64_t k) : Model(std::move(name)), k_(static_cast<size_t>(k)) {}

  State initial_state() const override { return State(std::make_unique<KeyMultiset>()); }

  bool apply(State& s, const Operation& op) const override {
    auto& keys = s.as<KeyMultiset>();
    if (op.f == "ins") {
      if (!op.res->is_null()) return false;
      for (const Value& key : op.args.as_array()) keys.insert(key.as_int());
      return true;
    }
    return pop_and_compare(keys, k_, *op.res);
  }

  void apply_pending(const State& s, const Operation& op, std::vector<State>& out) const override {
    State next = s;
    auto& keys = next.as<KeyMultiset>();
    if (op.f == "ins") {
      for (const Value& key : op.args.as_array()) keys.insert(key.as_int());
    } else {
      std::vector<int64_t> dropped;
      keys.pop_smallest(k_, dropped);
    }
    out.push_back(std::move(next));
  }

  std::string expected_result(const State& s, const Operation& op) const override {
    if (op.f == "ins") return "null";
    return Value::int_array(s.as<KeyMultiset>().smallest(k_)).to_json();
  }

  std::optional<std::string> check_call(const Operation& op) const override {
    if (op.f == "ins") {
      if (!is_int_list(op.args, 1, k_))
        return "ins takes 1 to " + std::to_string(k_) + " integer keys, got " + brief_json(op.args);
    } else if (op.f == "del") {
      if (!op.args.as_array().empty()) return "del takes no arguments, got " + brief_json(op.args);
    } else {
      return "unknown operation '" + op.f + "' (ins, del)";
    }
    return std::nullopt;
  }

  std::optional<std::string> check_result(const Operation& op) const override {
    if (op.f == "ins") {
      if (!op.res->is_null()) return "ins returns null, got " + brief_json(*op.res);
    } else if (!is_int_list(*op.res, 0, k_) || !is_ascending_ints(*op.res)) {
      return "del returns at most " + std::to_string(k_) + " integer keys ascending, got " + brief_json(*op.res);
    }
    return std::nullopt;
  }

  // A del saw the inserts of the keys it returned (an empty answer saw no write).
  bool may_have_produced(const Operation& w, const Operation& r) const override {
    return r.f == "del" && w.f == "ins" && shares_a_key(w.args, *r.res);
  }

 private:
  size_t k_;
};

}  // namespace

std::unique_ptr<Model> make_pq_batch_model(std::string name, int64_t k) {
  return std::make_unique<PqBatchModel>(std::move(name), k);
}

}  // namespace gpulin
