#include "verify/models/psync_pq.h"

#include <algorithm>

#include "verify/models/key_multiset.h"

namespace gpulin {
namespace {

class PsyncPqModel final : public Model {
 public:
  explicit PsyncPqModel(int64_t r) : Model("psync-pq"), r_(static_cast<size_t>(r)) {}

  State initial_state() const override { return State(std::make_unique<KeyMultiset>()); }

  bool apply(State& s, const Operation& op) const override {
    auto& keys = s.as<KeyMultiset>();
    insert_new(keys, op);
    if (pop_and_compare(keys, r_, *op.res)) return true;
    remove_new(keys, op);
    return false;
  }

  void apply_pending(const State& s, const Operation& op, std::vector<State>& out) const override {
    State next = s;
    auto& keys = next.as<KeyMultiset>();
    insert_new(keys, op);
    std::vector<int64_t> dropped;
    keys.pop_smallest(r_, dropped);
    out.push_back(std::move(next));
  }

  std::string expected_result(const State& s, const Operation& op) const override {
    KeyMultiset keys = s.as<KeyMultiset>();
    insert_new(keys, op);
    return Value::int_array(keys.smallest(r_)).to_json();
  }

  std::optional<std::string> check_call(const Operation& op) const override {
    if (op.f != "cycle") return "unknown operation '" + op.f + "' (cycle)";
    if (!is_int_list(op.args, 0, 2 * r_))
      return "cycle takes 0 to " + std::to_string(2 * r_) + " integer keys, got " + brief_json(op.args);
    return std::nullopt;
  }

  std::optional<std::string> check_result(const Operation& op) const override {
    if (!is_int_list(*op.res, 0, r_) || !is_ascending_ints(*op.res))
      return "cycle returns at most " + std::to_string(r_) + " integer keys ascending, got " + brief_json(*op.res);
    return std::nullopt;
  }

  // A cycle saw the cycles that brought the keys it returned (its own new keys are
  // its own doing).
  bool may_have_produced(const Operation& w, const Operation& r) const override {
    return shares_a_key(w.args, *r.res);
  }

 private:
  static void insert_new(KeyMultiset& keys, const Operation& op) {
    for (const Value& key : op.args.as_array()) keys.insert(key.as_int());
  }
  // Undoes insert_new after a mismatch, so apply leaves the state as it was.
  static void remove_new(KeyMultiset& keys, const Operation& op) {
    // The new keys are in the multiset; rebuilding without one copy of each is
    // O(n), and only happens on the one mismatch that ends a replay or a branch.
    std::vector<int64_t> all;
    keys.pop_smallest(keys.size(), all);
    std::vector<int64_t> drop = op.args.to_ints();
    std::sort(drop.begin(), drop.end());
    size_t j = 0;
    for (int64_t key : all) {
      if (j < drop.size() && drop[j] == key) { ++j; continue; }
      keys.insert(key);
    }
  }

  size_t r_;
};

}  // namespace

std::unique_ptr<Model> make_psync_pq_model(int64_t r) { return std::make_unique<PsyncPqModel>(r); }

}  // namespace gpulin
