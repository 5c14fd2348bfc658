#include "histories/json_dom.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

namespace gpulin {

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

void check_unique_keys(simdjson::dom::object obj, const std::string& file, uint32_t line, std::string_view what) {
  // Value::Object promises unique keys; JSON does not, so check here.
  std::unordered_set<std::string_view> keys;
  for (auto field : obj)
    if (!keys.insert(field.key).second)
      throw FormatError(file, line, fmt::format("{}: key \"{}\" appears twice in one object", what, field.key));
}

// Compact JSON text of the value as written: the source bytes minus whitespace
// outside strings. Escapes and number spellings stay as the author wrote them.
std::string compact_raw(std::string_view raw, const std::string& file, uint32_t line) {
  std::string out(raw.size() + simdjson::SIMDJSON_PADDING, '\0');
  size_t len = 0;
  if (simdjson::minify(raw.data(), raw.size(), out.data(), len) != simdjson::SUCCESS)
    throw FormatError(file, line, "header: cannot compact an extra field's value");
  out.resize(len);
  return out;
}

// Extra header fields in file order, with their raw text. The DOM has already
// validated the line, so the on-demand walk here cannot meet bad JSON.
std::vector<std::pair<std::string, std::string>> raw_extras(const simdjson::padded_string& buf,
                                                           const std::string& file, uint32_t line) {
  std::vector<std::pair<std::string, std::string>> out;
  try {
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc = parser.iterate(buf);
    for (auto field : doc.get_object()) {
      std::string key(std::string_view(field.unescaped_key()));
      if (key == "history" || key == "model" || key == "params" || key == "lp_rule") continue;
      simdjson::ondemand::value v = field.value();
      std::string_view raw;
      switch (v.type()) {
        case simdjson::ondemand::json_type::object: {
          simdjson::ondemand::object o = v.get_object();
          raw = o.raw_json();
          break;
        }
        case simdjson::ondemand::json_type::array: {
          simdjson::ondemand::array a = v.get_array();
          raw = a.raw_json();
          break;
        }
        default: raw = v.raw_json_token(); break;
      }
      out.emplace_back(std::move(key), compact_raw(raw, file, line));
    }
  } catch (const simdjson::simdjson_error& e) {
    throw FormatError(file, line, fmt::format("header: {}", e.what()));
  }
  return out;
}

}  // namespace

Value dom_to_value(element e, const std::string& file, uint32_t line, std::string_view what) {
  switch (e.type()) {
    case element_type::NULL_VALUE: return Value::null();
    case element_type::BOOL: return Value::boolean(bool(e.get_bool()));
    case element_type::INT64: return Value::integer(int64_t(e.get_int64()));
    case element_type::UINT64:
      throw FormatError(file, line, fmt::format("{}: integer {} is beyond the signed 64-bit range", what,
                                                uint64_t(e.get_uint64())));
    case element_type::DOUBLE:
      throw FormatError(file, line,
                        fmt::format("{}: number {} is not an integer (values hold 64-bit integers only)", what,
                                    double(e.get_double())));
    case element_type::STRING: return Value::string(std::string(std::string_view(e.get_string())));
    case element_type::ARRAY: {
      simdjson::dom::array arr = e.get_array();
      Value::Array out;
      out.reserve(arr.size());
      for (element x : arr) out.push_back(dom_to_value(x, file, line, what));
      return Value::array(std::move(out));
    }
    case element_type::OBJECT: {
      simdjson::dom::object obj = e.get_object();
      check_unique_keys(obj, file, line, what);
      Value::Object out;
      out.reserve(obj.size());
      for (auto field : obj) out.emplace_back(std::string(field.key), dom_to_value(field.value, file, line, what));
      return Value::object(std::move(out));
    }
  }
  throw FormatError(file, line, fmt::format("{}: unsupported JSON value", what));
}

Header parse_header_json(std::string_view text, const std::string& file, uint32_t line) {
  const simdjson::padded_string buf(text);
  simdjson::dom::parser parser;
  element root;
  if (auto err = parser.parse(buf).get(root))
    throw FormatError(file, line, fmt::format("not valid JSON: {}", simdjson::error_message(err)));
  simdjson::dom::object obj;
  if (root.get_object().get(obj))
    throw FormatError(file, line, "not a JSON object (the header must be an object)");
  check_unique_keys(obj, file, line, "header");

  Header h;
  bool has_history = false, has_model = false, has_extra = false;
  for (auto field : obj) {
    const std::string_view key = field.key;
    const element v = field.value;
    if (key == "history") {
      has_history = true;
      int64_t version = 0;
      if (v.get_int64().get(version) || v.type() == element_type::BOOL)
        throw FormatError(file, line, "header field 'history' must be the integer 1");
      if (version != 1)
        throw FormatError(file, line, fmt::format("unsupported history version {} (this reader knows version 1)",
                                                  version));
      h.version = 1;
    } else if (key == "model") {
      has_model = true;
      std::string_view model;
      if (v.get_string().get(model)) throw FormatError(file, line, "header field 'model' must be a string");
      h.model = std::string(model);
    } else if (key == "params") {
      if (!v.is_object()) throw FormatError(file, line, "header field 'params' must be an object");
      h.params = dom_to_value(v, file, line, "header field 'params'");
    } else if (key == "lp_rule") {
      std::string_view rule;
      if (v.get_string().get(rule)) throw FormatError(file, line, "header field 'lp_rule' must be a string");
      h.lp_rule = std::string(rule);
    } else {
      has_extra = true;
    }
  }
  if (!has_history)
    throw FormatError(file, line,
                      "header missing: the first non-comment line must be the header "
                      "{\"history\": 1, \"model\": ...}");
  if (!has_model) throw FormatError(file, line, "header field 'model' is missing");
  if (has_extra) h.extra = raw_extras(buf, file, line);
  return h;
}

}  // namespace gpulin
