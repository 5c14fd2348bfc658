#include "verify/models/bucket_pq.h"

#include <map>
#include <set>
#include <utility>

namespace gpulin {
namespace {

// Both directions are kept: value -> priority for update and delete, and the
// ordered (priority, value) pairs for extractmin.
class BucketState final : public ModelState {
 public:
  void set(int64_t value, int64_t prio) {
    erase(value);
    prio_of_[value] = prio;
    by_prio_.emplace(prio, value);
  }
  void erase(int64_t value) {
    auto it = prio_of_.find(value);
    if (it == prio_of_.end()) return;
    by_prio_.erase({it->second, value});
    prio_of_.erase(it);
  }
  const std::set<std::pair<int64_t, int64_t>>& by_prio() const { return by_prio_; }
  bool contains(int64_t value, int64_t prio) const { return by_prio_.count({prio, value}) != 0; }

  std::unique_ptr<ModelState> clone() const override { return std::make_unique<BucketState>(*this); }
  size_t hash() const override {
    uint64_t h = mix64(by_prio_.size());
    for (const auto& [p, v] : by_prio_) h = mix64(h ^ mix64(static_cast<uint64_t>(v)) ^ static_cast<uint64_t>(p));
    return h;
  }
  bool equals(const ModelState& other) const override {
    return by_prio_ == static_cast<const BucketState&>(other).by_prio_;
  }
  std::string describe() const override {
    std::string s = "{";
    for (const auto& [p, v] : by_prio_) {
      s += s.size() > 1 ? "," : "";
      s += std::to_string(v) + ":" + std::to_string(p);
    }
    return s + "}";
  }
  size_t bytes() const override { return sizeof(*this) + by_prio_.size() * 96; }

 private:
  std::map<int64_t, int64_t> prio_of_;
  std::set<std::pair<int64_t, int64_t>> by_prio_;
};

class BucketPqModel final : public Model {
 public:
  BucketPqModel() : Model("bucket-pq") {}

  State initial_state() const override { return State(std::make_unique<BucketState>()); }

  bool apply(State& s, const Operation& op) const override {
    auto& b = s.as<BucketState>();
    if (op.f == "extractmin") {
      if (op.res->is_null()) return b.by_prio().empty();
      const int64_t value = op.res->as_array()[0].as_int(), prio = op.res->as_array()[1].as_int();
      // Any pair of least priority may come out.
      if (b.by_prio().empty() || b.by_prio().begin()->first != prio || !b.contains(value, prio)) return false;
      b.erase(value);
      return true;
    }
    if (!op.res->is_null()) return false;
    effect(b, op);
    return true;
  }

  void apply_pending(const State& s, const Operation& op, std::vector<State>& out) const override {
    const auto& b = s.as<BucketState>();
    if (op.f != "extractmin" || b.by_prio().empty()) {
      State next = s;
      effect(next.as<BucketState>(), op);
      out.push_back(std::move(next));
      return;
    }
    const int64_t least = b.by_prio().begin()->first;
    for (auto it = b.by_prio().begin(); it != b.by_prio().end() && it->first == least; ++it) {
      State next = s;
      next.as<BucketState>().erase(it->second);
      out.push_back(std::move(next));
    }
  }

  std::string expected_result(const State& s, const Operation& op) const override {
    const auto& b = s.as<BucketState>();
    if (op.f != "extractmin") return "null";
    if (b.by_prio().empty()) return "null";
    const int64_t least = b.by_prio().begin()->first;
    std::string any;
    size_t n = 0;
    for (auto it = b.by_prio().begin(); it != b.by_prio().end() && it->first == least; ++it, ++n) {
      any += n ? " or " : "";
      any += Value::int_array({it->second, it->first}).to_json();
    }
    return n > 1 ? "any of " + any : any;
  }

  std::optional<std::string> check_call(const Operation& op) const override {
    const auto& a = op.args.as_array();
    if (op.f == "update") {
      for (const Value& pair : a)
        if (!is_int_list(pair, 2, 2))
          return "update takes [value, priority] integer pairs, got " + brief_json(op.args);
    } else if (op.f == "extractmin") {
      if (!a.empty()) return "extractmin takes no arguments, got " + brief_json(op.args);
    } else if (op.f == "delete") {
      if (!is_int_list(op.args, 1, 1)) return "delete takes [value], got " + brief_json(op.args);
    } else {
      return "unknown operation '" + op.f + "' (update, extractmin, delete)";
    }
    return std::nullopt;
  }

  std::optional<std::string> check_result(const Operation& op) const override {
    if (op.f == "extractmin") {
      if (!op.res->is_null() && !is_int_list(*op.res, 2, 2))
        return "extractmin returns [value, priority] or null, got " + brief_json(*op.res);
    } else if (!op.res->is_null()) {
      return op.f + " returns null, got " + brief_json(*op.res);
    }
    return std::nullopt;
  }

  // An extractmin saw the update that set the pair it returned (null: no write).
  bool may_have_produced(const Operation& w, const Operation& r) const override {
    if (r.f != "extractmin" || w.f != "update" || r.res->is_null()) return false;
    for (const Value& pair : w.args.as_array())
      if (pair == *r.res) return true;
    return false;
  }

 private:
  // update and delete; extractmin's effect depends on its result, handled above.
  static void effect(BucketState& b, const Operation& op) {
    if (op.f == "update") {
      for (const Value& pair : op.args.as_array()) b.set(pair.as_array()[0].as_int(), pair.as_array()[1].as_int());
    } else if (op.f == "delete") {
      b.erase(op.args.as_array()[0].as_int());
    }
  }
};

}  // namespace

std::unique_ptr<Model> make_bucket_pq_model() { return std::make_unique<BucketPqModel>(); }

}  // namespace gpulin
