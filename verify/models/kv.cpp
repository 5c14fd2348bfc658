#include "verify/models/kv.h"

#include <functional>
#include <string>
#include <algorithm>
#include <memory>
#include <vector>

namespace gpulin {
namespace {

// Sorted (key, value) entries; keys holding "" are left out, so that every state
// has one representation. Values are shared between states: the search keeps
// many states of long strings, and a step changes one key, so a copy shares the
// others' strings and an append makes one new string.
class KvState final : public ModelState {
 public:
  const std::string& get(const std::string& key) const {
    static const std::string kEmpty;
    auto it = find(key);
    return it != entries_.end() && it->first == key ? *it->second : kEmpty;
  }
  void put(const std::string& key, std::string value) {
    auto it = find(key);
    const bool present = it != entries_.end() && it->first == key;
    if (present) sum_ -= entry_hash(key, *it->second);
    own_bytes_ = value.size();
    if (value.empty()) {
      if (present) entries_.erase(it);
      return;
    }
    sum_ += entry_hash(key, value);
    auto shared = std::make_shared<const std::string>(std::move(value));
    if (present) it->second = std::move(shared);
    else entries_.emplace(it, key, std::move(shared));
  }
  void append(const std::string& key, const std::string& tail) { put(key, get(key) + tail); }

  std::unique_ptr<ModelState> clone() const override { return std::make_unique<KvState>(*this); }
  size_t hash() const override { return sum_ ^ mix64(entries_.size()); }
  bool equals(const ModelState& other) const override {
    const auto& o = static_cast<const KvState&>(other);
    if (sum_ != o.sum_ || entries_.size() != o.entries_.size()) return false;
    for (size_t i = 0; i < entries_.size(); ++i)
      if (entries_[i].first != o.entries_[i].first ||
          (entries_[i].second != o.entries_[i].second && *entries_[i].second != *o.entries_[i].second))
        return false;
    return true;
  }
  std::string describe() const override {
    Value::Object o;
    for (const auto& [k, v] : entries_) o.emplace_back(k, Value::string(*v));
    return brief_json(Value::object(std::move(o)));
  }
  // The entries, and the one string this state made (the others are shared).
  size_t bytes() const override { return sizeof(*this) + entries_.capacity() * sizeof(Entry) + own_bytes_; }

 private:
  using Entry = std::pair<std::string, std::shared_ptr<const std::string>>;
  std::vector<Entry>::iterator find(const std::string& key) {
    return std::lower_bound(entries_.begin(), entries_.end(), key, [](const Entry& e, const std::string& k) { return e.first < k; });
  }
  std::vector<Entry>::const_iterator find(const std::string& key) const {
    return std::lower_bound(entries_.begin(), entries_.end(), key, [](const Entry& e, const std::string& k) { return e.first < k; });
  }
  static uint64_t entry_hash(const std::string& k, const std::string& v) {
    return mix64(std::hash<std::string>()(k) ^ mix64(std::hash<std::string>()(v)));
  }

  std::vector<Entry> entries_;
  uint64_t sum_ = 0;  // order-independent hash of the entries
  size_t own_bytes_ = 0;
};

class KvModel final : public DeterministicModel {
 public:
  KvModel() : DeterministicModel("kv") {}

  State initial_state() const override { return State(std::make_unique<KvState>()); }

  bool result_fits(const State& s, const Operation& op) const override {
    if (op.f == "get") return op.res->as_string() == s.as<KvState>().get(key(op));
    return op.res->is_null();
  }
  std::string expected_result(const State& s, const Operation& op) const override {
    if (op.f != "get") return "null";
    return brief_json(Value::string(s.as<KvState>().get(key(op))));
  }

  std::optional<std::string> check_call(const Operation& op) const override {
    const auto& a = op.args.as_array();
    if (op.f == "get") {
      if (a.size() != 1 || !a[0].is_string()) return "get takes [key] (a string), got " + brief_json(op.args);
    } else if (op.f == "put" || op.f == "append") {
      if (a.size() != 2 || !a[0].is_string() || !a[1].is_string())
        return op.f + " takes [key, string] (strings), got " + brief_json(op.args);
    } else {
      return "unknown operation '" + op.f + "' (get, put, append)";
    }
    return std::nullopt;
  }
  std::optional<std::string> check_result(const Operation& op) const override {
    if (op.f == "get") {
      if (!op.res->is_string()) return "get returns a string, got " + brief_json(*op.res);
    } else if (!op.res->is_null()) {
      return op.f + " returns null, got " + brief_json(*op.res);
    }
    return std::nullopt;
  }
  bool partitionable() const override { return true; }
  // A get that read s saw the put its value starts from and the appends it holds;
  // one that read "" saw a put of "" (or no write at all).
  bool may_have_produced(const Operation& w, const Operation& r) const override {
    if (r.f != "get" || (w.f != "put" && w.f != "append") || key(w) != key(r)) return false;
    const std::string& s = r.res->as_string();
    const std::string& v = w.args.as_array()[1].as_string();
    if (s.empty()) return w.f == "put" && v.empty();
    if (v.empty()) return false;
    return w.f == "put" ? s.compare(0, v.size(), v) == 0 : s.find(v) != std::string::npos;
  }

 private:
  static const std::string& key(const Operation& op) { return op.args.as_array()[0].as_string(); }
  void effect(State& s, const Operation& op) const override {
    auto& kv = s.as<KvState>();
    if (op.f == "put") kv.put(key(op), op.args.as_array()[1].as_string());
    else if (op.f == "append") kv.append(key(op), op.args.as_array()[1].as_string());
  }
};

}  // namespace

std::unique_ptr<Model> make_kv_model() { return std::make_unique<KvModel>(); }

}  // namespace gpulin
