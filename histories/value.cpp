#include "histories/value.h"

#include <cstdio>
#include <functional>

namespace gpulin {

void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out.push_back('"');
}

void Value::append_json(std::string& out) const {
  switch (kind_) {
    case Kind::Null: out += "null"; break;
    case Kind::Bool: out += int_ ? "true" : "false"; break;
    case Kind::Int: out += std::to_string(int_); break;
    case Kind::String: append_json_string(out, str_); break;
    case Kind::Array:
      out.push_back('[');
      for (size_t i = 0; i < arr_.size(); ++i) {
        if (i) out.push_back(',');
        arr_[i].append_json(out);
      }
      out.push_back(']');
      break;
    case Kind::Object:
      out.push_back('{');
      for (size_t i = 0; i < obj_.size(); ++i) {
        if (i) out.push_back(',');
        append_json_string(out, obj_[i].first);
        out.push_back(':');
        obj_[i].second.append_json(out);
      }
      out.push_back('}');
      break;
  }
}

std::string Value::to_json() const {
  std::string s;
  append_json(s);
  return s;
}

size_t Value::hash() const {
  size_t h = static_cast<size_t>(kind_) * 0x9e3779b97f4a7c15ULL;
  auto mix = [&h](size_t x) { h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  switch (kind_) {
    case Kind::Null: break;
    case Kind::Bool:
    case Kind::Int: mix(std::hash<int64_t>()(int_)); break;
    case Kind::String: mix(std::hash<std::string>()(str_)); break;
    case Kind::Array: for (const auto& e : arr_) mix(e.hash()); break;
    case Kind::Object:
      for (const auto& m : obj_) { mix(std::hash<std::string>()(m.first)); mix(m.second.hash()); }
      break;
  }
  return h;
}

}  // namespace gpulin
