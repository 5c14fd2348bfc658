// A JSON value as history-format.md uses it: null, bool, 64-bit integer, string,
// array, object. Operation arguments and results, and header params, are Values.
// Kept small and comparable; the checkers hash and compare results with it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpulin {

class Value {
 public:
  enum class Kind : uint8_t { Null, Bool, Int, String, Array, Object };
  using Array = std::vector<Value>;
  using Member = std::pair<std::string, Value>;
  using Object = std::vector<Member>;  // insertion order kept, keys unique

  Value() = default;  // null
  static Value null() { return Value(); }
  static Value boolean(bool b) { Value v; v.kind_ = Kind::Bool; v.int_ = b ? 1 : 0; return v; }
  static Value integer(int64_t i) { Value v; v.kind_ = Kind::Int; v.int_ = i; return v; }
  static Value string(std::string s) { Value v; v.kind_ = Kind::String; v.str_ = std::move(s); return v; }
  static Value array(Array a = {}) { Value v; v.kind_ = Kind::Array; v.arr_ = std::move(a); return v; }
  static Value object(Object o = {}) { Value v; v.kind_ = Kind::Object; v.obj_ = std::move(o); return v; }
  static Value int_array(const std::vector<int64_t>& xs) {
    Array a; a.reserve(xs.size());
    for (int64_t x : xs) push_integer(a, x);
    return array(std::move(a));
  }
  // Appends integer i to `a`, made in place: no Value moved or destroyed (the
  // simulator's recorder makes a key array per operation of every schedule).
  static void push_integer(Array& a, int64_t i) {
    Value& v = a.emplace_back();
    v.kind_ = Kind::Int;
    v.int_ = i;
  }

  // `a` becomes the integers xs[0, n), its elements that are integers already
  // rewritten in place (a history made again in the storage of the last one: the
  // simulator's recorder, every schedule).
  static void assign_integers(Array& a, const int64_t* xs, size_t n) {
    size_t i = 0;
    for (const size_t kept = std::min(n, a.size()); i < kept && a[i].kind_ == Kind::Int; ++i) a[i].int_ = xs[i];
    if (i == n) {
      a.resize(n);
      return;
    }
    a.resize(i);
    a.reserve(n);
    for (; i < n; ++i) push_integer(a, xs[i]);
  }

  // This value becomes null, or the integers xs[0, n), in the storage it has: an
  // array's elements are kept for a later assign_integers_to (a history made again
  // in the storage of the last one, whose operations' results change between null
  // and arrays from one schedule to the next). Equal to Value::null() and
  // Value::int_array(...) in every respect (comparison, hash, JSON): a null's
  // emptied array is no element.
  void set_null() {
    if (kind_ == Kind::Null) return;
    if (kind_ != Kind::Array) {
      *this = Value();
      return;
    }
    kind_ = Kind::Null;
    arr_.clear();
  }
  void assign_integers_to(const int64_t* xs, size_t n) {
    if (kind_ != Kind::Array) {
      if (kind_ != Kind::Null) *this = Value();
      kind_ = Kind::Array;
    }
    assign_integers(arr_, xs, n);
  }

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::Null; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_int() const { return kind_ == Kind::Int; }
  bool is_string() const { return kind_ == Kind::String; }
  bool is_array() const { return kind_ == Kind::Array; }
  bool is_object() const { return kind_ == Kind::Object; }

  bool as_bool() const { return int_ != 0; }
  int64_t as_int() const { return int_; }
  const std::string& as_string() const { return str_; }
  const Array& as_array() const { return arr_; }
  Array& as_array() { return arr_; }
  const Object& as_object() const { return obj_; }
  Object& as_object() { return obj_; }
  // Object member by key, nullptr when absent.
  const Value* find(std::string_view key) const {
    for (const auto& m : obj_) if (m.first == key) return &m.second;
    return nullptr;
  }
  // True when this is an array of integers only (pq keys, for example).
  bool is_int_array() const {
    if (kind_ != Kind::Array) return false;
    for (const auto& e : arr_) if (!e.is_int()) return false;
    return true;
  }
  std::vector<int64_t> to_ints() const {
    std::vector<int64_t> out; out.reserve(arr_.size());
    for (const auto& e : arr_) out.push_back(e.as_int());
    return out;
  }

  bool operator==(const Value& o) const {
    return kind_ == o.kind_ && int_ == o.int_ && str_ == o.str_ && arr_ == o.arr_ && obj_ == o.obj_;
  }
  bool operator!=(const Value& o) const { return !(*this == o); }

  // Compact JSON text, as the writer emits it (no spaces, strings escaped).
  std::string to_json() const;
  void append_json(std::string& out) const;
  size_t hash() const;

 private:
  Kind kind_ = Kind::Null;
  int64_t int_ = 0;
  std::string str_;
  Array arr_;
  Object obj_;
};

// Escapes a string as a JSON string literal (with the quotes).
void append_json_string(std::string& out, std::string_view s);
// `s` as a JSON string literal, quotes included.
inline std::string json_quoted(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

}  // namespace gpulin
