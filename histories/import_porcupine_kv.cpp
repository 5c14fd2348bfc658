#include "histories/import_porcupine_kv.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "histories/import_log.h"

namespace gpulin {

namespace {

// The EDN this log uses: a flat map from keywords to nil, integers, keywords and
// strings. Commas are whitespace in EDN.
struct Edn {
  enum Kind { Nil, Int, Keyword, String } kind = Nil;
  int64_t i = 0;
  std::string s;  // keyword (without ':') or string contents
};

class EdnMapParser {
 public:
  EdnMapParser(const ImportLog& log, std::string_view text, uint32_t line) : log_(log), s_(text), line_(line) {}

  std::vector<std::pair<std::string, Edn>> parse() {
    std::vector<std::pair<std::string, Edn>> out;
    skip_ws();
    expect('{');
    for (;;) {
      skip_ws();
      if (peek() == '}') break;
      Edn key = value();
      if (key.kind != Edn::Keyword) fail("map keys must be keywords, as :process");
      skip_ws();
      for (const auto& m : out)
        if (m.first == key.s) fail(fmt::format("key :{} appears twice", key.s));
      out.emplace_back(key.s, value());
    }
    ++pos_;
    skip_ws();
    if (pos_ != s_.size()) fail("text after the closing '}'");
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& msg) const {
    log_.fail(line_, fmt::format("not an EDN map of this log's form (column {}): {}", pos_ + 1, msg));
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void expect(char c) {
    if (peek() != c) fail(fmt::format("expected '{}'", c));
    ++pos_;
  }
  void skip_ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == ',' || s_[pos_] == '\t')) ++pos_;
  }
  bool delimiter(char c) const { return c == ' ' || c == ',' || c == '\t' || c == '}' || c == '\0'; }
  std::string_view word() {
    const size_t start = pos_;
    while (!delimiter(peek())) ++pos_;
    return s_.substr(start, pos_ - start);
  }
  Edn value() {
    Edn v;
    const char c = peek();
    if (c == '"') {
      v.kind = Edn::String;
      v.s = string();
    } else if (c == ':') {
      ++pos_;
      v.kind = Edn::Keyword;
      v.s = std::string(word());
      if (v.s.empty()) fail("empty keyword");
    } else {
      const std::string_view w = word();
      if (w == "nil") return v;
      auto r = std::from_chars(w.data(), w.data() + w.size(), v.i);
      if (w.empty() || r.ec != std::errc() || r.ptr != w.data() + w.size())
        fail(fmt::format("'{}' is not nil, an integer, a keyword or a string", w));
      v.kind = Edn::Int;
    }
    return v;
  }
  std::string string() {
    std::string out;
    ++pos_;  // opening quote
    for (;;) {
      if (pos_ >= s_.size()) fail("unterminated string");
      char c = s_[pos_++];
      if (c == '"') return out;
      if (c == '\\') {
        if (pos_ >= s_.size()) fail("unterminated string");
        switch (c = s_[pos_++]) {
          case 'n': out.push_back('\n'); break;
          case 't': out.push_back('\t'); break;
          case 'r': out.push_back('\r'); break;
          case '"': case '\\': out.push_back(c); break;
          default: fail(fmt::format("unknown string escape \\{}", c));
        }
      } else {
        out.push_back(c);
      }
    }
  }

  const ImportLog& log_;
  std::string_view s_;
  uint32_t line_;
  size_t pos_ = 0;
};

struct KvLine {
  uint32_t line;
  int64_t process;
  std::string type, f, key;
  std::optional<std::string> value;  // nullopt: nil or absent
};

KvLine to_line(const ImportLog& log, const std::vector<std::pair<std::string, Edn>>& map, uint32_t line) {
  auto get = [&](std::string_view key, Edn::Kind kind, bool required) -> const Edn* {
    for (const auto& [k, v] : map) {
      if (k != key) continue;
      if (v.kind == kind) return &v;
      if (v.kind == Edn::Nil && !required) return nullptr;
      log.fail(line, fmt::format(":{} has the wrong type", key));
    }
    if (required) log.fail(line, fmt::format("the map has no :{}", key));
    return nullptr;
  };
  KvLine l{line, get("process", Edn::Int, true)->i, get("type", Edn::Keyword, true)->s,
         get("f", Edn::Keyword, true)->s, get("key", Edn::String, true)->s, std::nullopt};
  if (const Edn* v = get("value", Edn::String, false)) l.value = v->s;
  for (const auto& [k, v] : map)
    if (k != "process" && k != "type" && k != "f" && k != "key" && k != "value")
      log.fail(line, fmt::format("unknown key :{}", k));
  if (l.f != "get" && l.f != "put" && l.f != "append")
    log.fail(line, fmt::format("unknown function :{} (known: :get, :put, :append)", l.f));
  return l;
}

void apply(ImportLog& log, const KvLine& l) {
  if (l.type == "invoke") {
    Value::Array args{Value::string(l.key)};
    if (l.f != "get") {
      if (!l.value) log.fail(l.line, fmt::format("a :{} invocation needs a string :value", l.f));
      args.push_back(Value::string(*l.value));
    }
    log.invoke(l.process, l.line, l.f, Value::array(std::move(args)));
  } else if (l.type == "ok") {
    log.complete(l.process, l.line, l.f, l.f == "get" ? Value::string(l.value.value_or("")) : Value::null());
  } else if (l.type == "info") {
    log.leave_pending(l.process, l.line, l.f);
  } else if (l.type == "fail") {
    log.drop(l.process, l.line, l.f);
  } else {
    log.fail(l.line, fmt::format("unknown type :{} (known: :invoke, :ok, :fail, :info)", l.type));
  }
}

}  // namespace

History import_porcupine_kv(const std::string& path) {
  return import_lines(
      path, "kv",
      [](ImportLog& probe, const std::string& text, uint32_t line) {
        return to_line(probe, EdnMapParser(probe, text, line).parse(), line);
      },
      apply);
}

}  // namespace gpulin
