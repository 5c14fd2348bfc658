#include "verify/models/multimap.h"

#include <algorithm>
#include <deque>
#include <unordered_map>

namespace gpulin {
namespace {

// Every operation names one key, so only each key's own insertion order matters:
// the state keeps, per key, its values oldest first (keys with none left out).
class MultimapState final : public ModelState {
 public:
  using Values = std::deque<Value>;

  const Values* find(const Value& key) const {
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : &it->second;
  }
  void insert(const Value& key, const Value& value) {
    edit(key, [&](Values& vs) { vs.push_back(value); });
  }
  void erase_oldest(const Value& key) {
    edit(key, [](Values& vs) { if (!vs.empty()) vs.pop_front(); });
  }
  void erase_all(const Value& key) {
    edit(key, [](Values& vs) { vs.clear(); });
  }

  std::unique_ptr<ModelState> clone() const override { return std::make_unique<MultimapState>(*this); }
  size_t hash() const override { return sum_ ^ mix64(map_.size()); }
  bool equals(const ModelState& other) const override {
    const auto& o = static_cast<const MultimapState&>(other);
    return sum_ == o.sum_ && map_ == o.map_;
  }
  std::string describe() const override {
    std::string s = "{";
    for (const auto& [k, vs] : map_) {
      s += s.size() > 1 ? "," : "";
      s += brief_json(k) + ":[";
      for (size_t i = 0; i < vs.size(); ++i) {
        s += i ? "," : "";
        s += brief_json(vs[i]);
      }
      s += "]";
    }
    return s + "}";
  }
  size_t bytes() const override {
    size_t b = sizeof(*this);
    for (const auto& [k, vs] : map_) b += 96 + (vs.size() + 1) * sizeof(Value);
    return b;
  }

 private:
  static uint64_t entry_hash(const Value& key, const Values& vs) {
    uint64_t h = mix64(key.hash());
    for (const Value& v : vs) h = mix64(h ^ v.hash());
    return h;
  }
  // Applies `change` to key's values, keeping sum_ and the no-empty-lists rule.
  template <class F>
  void edit(const Value& key, F change) {
    auto it = map_.find(key);
    if (it == map_.end()) it = map_.emplace(key, Values()).first;
    else sum_ -= entry_hash(key, it->second);
    change(it->second);
    if (it->second.empty()) map_.erase(it);
    else sum_ += entry_hash(key, it->second);
  }

  std::unordered_map<Value, Values, ValueHash> map_;
  uint64_t sum_ = 0;  // sum of per-key hashes, independent of the map's order
};

class MultimapModel final : public DeterministicModel {
 public:
  MultimapModel() : DeterministicModel("multimap") {}

  State initial_state() const override { return State(std::make_unique<MultimapState>()); }

  bool result_fits(const State& s, const Operation& op) const override {
    const auto* vs = s.as<MultimapState>().find(key(op));
    if (op.f == "search") {
      if (*op.res != (vs ? vs->front() : Value())) return false;
    } else if (op.f == "searchall") {
      // Any order: the same values with the same multiplicities.
      const auto& got = op.res->as_array();
      const size_t n = vs ? vs->size() : 0;
      if (got.size() != n || (n && !std::is_permutation(got.begin(), got.end(), vs->begin()))) return false;
    } else if (!op.res->is_null()) {
      return false;
    }
    return true;
  }
  std::string expected_result(const State& s, const Operation& op) const override {
    const auto* vs = s.as<MultimapState>().find(key(op));
    if (op.f == "search") return vs ? brief_json(vs->front()) : "null";
    if (op.f == "searchall") {
      Value::Array all;
      if (vs) all.assign(vs->begin(), vs->end());
      return brief_json(Value::array(std::move(all))) + " in any order";
    }
    return "null";
  }

  std::optional<std::string> check_call(const Operation& op) const override {
    const size_t n = op.args.as_array().size();
    if (op.f == "insert") {
      if (n != 2) return "insert takes [key, value], got " + brief_json(op.args);
    } else if (op.f == "search" || op.f == "searchall" || op.f == "delete" || op.f == "deleteall") {
      if (n != 1) return op.f + " takes [key], got " + brief_json(op.args);
    } else {
      return "unknown operation '" + op.f + "' (insert, search, searchall, delete, deleteall)";
    }
    return std::nullopt;
  }
  std::optional<std::string> check_result(const Operation& op) const override {
    if (op.f == "searchall") {
      if (!op.res->is_array()) return "searchall returns an array, got " + brief_json(*op.res);
    } else if (op.f != "search" && !op.res->is_null()) {
      return op.f + " returns null, got " + brief_json(*op.res);
    }
    return std::nullopt;
  }
  bool partitionable() const override { return true; }
  // A search or searchall saw the inserts of the values it returned on its key; one
  // that found none saw a delete or deleteall of the key (or the empty multimap).
  bool may_have_produced(const Operation& w, const Operation& r) const override {
    if ((r.f != "search" && r.f != "searchall") || key(w) != key(r)) return false;
    const bool none = r.res->is_null() || (r.res->is_array() && r.res->as_array().empty());
    if (none) return w.f == "delete" || w.f == "deleteall";
    if (w.f != "insert") return false;
    const Value& v = w.args.as_array()[1];
    if (r.f == "search") return v == *r.res;
    const auto& got = r.res->as_array();
    return std::find(got.begin(), got.end(), v) != got.end();
  }

 private:
  static const Value& key(const Operation& op) { return op.args.as_array()[0]; }
  void effect(State& s, const Operation& op) const override {
    auto& mm = s.as<MultimapState>();
    if (op.f == "insert") mm.insert(key(op), op.args.as_array()[1]);
    else if (op.f == "delete") mm.erase_oldest(key(op));
    else if (op.f == "deleteall") mm.erase_all(key(op));
  }
};

}  // namespace

std::unique_ptr<Model> make_multimap_model() { return std::make_unique<MultimapModel>(); }

}  // namespace gpulin
