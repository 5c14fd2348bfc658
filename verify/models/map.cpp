#include "verify/models/map.h"

#include <unordered_map>

namespace gpulin {
namespace {

class MapState final : public ModelState {
 public:
  const Value* find(const Value& key) const {
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : &it->second;
  }
  void replace(const Value& key, const Value& value) {
    erase(key);
    sum_ += entry_hash(key, value);
    map_.emplace(key, value);
  }
  void erase(const Value& key) {
    auto it = map_.find(key);
    if (it == map_.end()) return;
    sum_ -= entry_hash(it->first, it->second);
    map_.erase(it);
  }

  std::unique_ptr<ModelState> clone() const override { return std::make_unique<MapState>(*this); }
  size_t hash() const override { return sum_ ^ mix64(map_.size()); }
  bool equals(const ModelState& other) const override {
    const auto& o = static_cast<const MapState&>(other);
    return sum_ == o.sum_ && map_ == o.map_;
  }
  std::string describe() const override {
    std::string s = "{";
    for (const auto& [k, v] : map_) {
      s += s.size() > 1 ? "," : "";
      s += brief_json(k) + ":" + brief_json(v);
    }
    return s + "}";
  }
  size_t bytes() const override { return sizeof(*this) + map_.size() * 2 * sizeof(Value); }

 private:
  static uint64_t entry_hash(const Value& k, const Value& v) { return mix64(k.hash() ^ mix64(v.hash())); }
  std::unordered_map<Value, Value, ValueHash> map_;
  uint64_t sum_ = 0;  // sum of entry hashes, independent of the map's order
};

class MapModel final : public ValueResultModel {
 public:
  MapModel() : ValueResultModel("map") {}

  State initial_state() const override { return State(std::make_unique<MapState>()); }


  std::optional<std::string> check_call(const Operation& op) const override {
    const size_t n = op.args.as_array().size();
    if (op.f == "replace") {
      if (n != 2) return "replace takes [key, value], got " + brief_json(op.args);
    } else if (op.f == "delete" || op.f == "search") {
      if (n != 1) return op.f + " takes [key], got " + brief_json(op.args);
    } else {
      return "unknown operation '" + op.f + "' (replace, delete, search)";
    }
    return std::nullopt;
  }
  std::optional<std::string> check_result(const Operation& op) const override {
    if (op.f != "search" && !op.res->is_null()) return op.f + " returns null, got " + brief_json(*op.res);
    return std::nullopt;
  }
  bool partitionable() const override { return true; }
  // A search that found v saw a replace of its key to v; one that found nothing saw
  // a delete of its key (or the empty map, which no op wrote).
  bool may_have_produced(const Operation& w, const Operation& r) const override {
    if (r.f != "search" || w.args.as_array()[0] != r.args.as_array()[0]) return false;
    if (r.res->is_null()) return w.f == "delete";
    return w.f == "replace" && w.args.as_array()[1] == *r.res;
  }

 private:
  Value result(const State& s, const Operation& op) const override {
    if (op.f != "search") return Value();
    const Value* v = s.as<MapState>().find(op.args.as_array()[0]);
    return v ? *v : Value();
  }
  void effect(State& s, const Operation& op) const override {
    auto& m = s.as<MapState>();
    const auto& a = op.args.as_array();
    if (op.f == "replace") m.replace(a[0], a[1]);
    else if (op.f == "delete") m.erase(a[0]);
  }
};

}  // namespace

std::unique_ptr<Model> make_map_model() { return std::make_unique<MapModel>(); }

}  // namespace gpulin
