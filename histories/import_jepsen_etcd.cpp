#include "histories/import_jepsen_etcd.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "histories/import_log.h"

namespace gpulin {

namespace {

constexpr std::string_view kPrefix = "jepsen.util - ";

struct EtcdLine {
  uint32_t line;
  int64_t process;
  std::string type;  // invoke, ok, fail, info (without the colon)
  std::string f;     // read, write, cas
  std::string value; // nil, an integer, [a b], :timed-out
};

bool is_space(char c) { return c == ' ' || c == '\t'; }

// Next whitespace-separated token of s from pos.
std::string_view token(std::string_view s, size_t& pos) {
  while (pos < s.size() && is_space(s[pos])) ++pos;
  const size_t start = pos;
  while (pos < s.size() && !is_space(s[pos])) ++pos;
  return s.substr(start, pos - start);
}

bool parse_int(std::string_view s, int64_t& x) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), x);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

EtcdLine parse_line(const ImportLog& log, std::string_view text, uint32_t line) {
  const size_t at = text.find(kPrefix);
  if (at == std::string_view::npos)
    log.fail(line, "not a Jepsen log line (expected 'INFO  jepsen.util - <process> <type> <f> <value>')");
  std::string_view rest = text.substr(at + kPrefix.size());
  size_t pos = 0;
  EtcdLine l{line, 0, {}, {}, {}};
  const std::string_view process = token(rest, pos), type = token(rest, pos), f = token(rest, pos);
  if (!parse_int(process, l.process)) log.fail(line, fmt::format("process '{}' is not an integer", process));
  if (type.size() < 2 || type[0] != ':' || f.size() < 2 || f[0] != ':')
    log.fail(line, "expected a type and a function, as :invoke :read");
  l.type = std::string(type.substr(1));
  l.f = std::string(f.substr(1));
  std::string_view value = rest.substr(pos);
  while (!value.empty() && is_space(value.front())) value.remove_prefix(1);
  while (!value.empty() && is_space(value.back())) value.remove_suffix(1);
  l.value = std::string(value);
  return l;
}

Value int_value(const ImportLog& log, const EtcdLine& l, std::string_view text) {
  int64_t x = 0;
  if (!parse_int(text, x)) log.fail(l.line, fmt::format("value '{}' is not an integer", text));
  return Value::integer(x);
}

// "[a b]" -> [a, b]
Value cas_args(const ImportLog& log, const EtcdLine& l) {
  std::string_view v = l.value;
  if (v.size() < 2 || v.front() != '[' || v.back() != ']')
    log.fail(l.line, fmt::format("cas value '{}' is not of the form [from to]", v));
  v = v.substr(1, v.size() - 2);
  size_t pos = 0;
  const std::string_view from = token(v, pos), to = token(v, pos);
  if (to.empty() || !token(v, pos).empty())
    log.fail(l.line, fmt::format("cas value '{}' is not of the form [from to]", l.value));
  return Value::array({int_value(log, l, from), int_value(log, l, to)});
}

void invoke(ImportLog& log, const EtcdLine& l) {
  Value args;
  if (l.f == "read") {
    if (l.value != "nil") log.fail(l.line, fmt::format("a :read invocation carries nil, not '{}'", l.value));
    args = Value::array();
  } else if (l.f == "write") {
    args = Value::array({int_value(log, l, l.value)});
  } else if (l.f == "cas") {
    args = cas_args(log, l);
  } else {
    log.fail(l.line, fmt::format("unknown function :{} (known: :read, :write, :cas)", l.f));
  }
  log.invoke(l.process, l.line, l.f, std::move(args));
}

void answer(ImportLog& log, const EtcdLine& l) {
  if (l.type == "ok") {
    Value res;  // write: null
    if (l.f == "read") res = l.value == "nil" ? Value::null() : int_value(log, l, l.value);
    if (l.f == "cas") res = Value::boolean(true);
    log.complete(l.process, l.line, l.f, std::move(res));
  } else if (l.type == "fail") {
    if (l.f == "cas") log.complete(l.process, l.line, l.f, Value::boolean(false));
    else if (l.f == "read") log.leave_pending(l.process, l.line, l.f);
    else log.drop(l.process, l.line, l.f);
  } else if (l.type == "info") {
    log.leave_pending(l.process, l.line, l.f);
  } else {
    log.fail(l.line, fmt::format("unknown type :{} (known: :invoke, :ok, :fail, :info)", l.type));
  }
}

}  // namespace

History import_jepsen_etcd(const std::string& path) {
  return import_lines(path, "register", parse_line, [](ImportLog& log, const EtcdLine& l) {
    if (l.type == "invoke")
      invoke(log, l);
    else
      answer(log, l);
  });
}

}  // namespace gpulin
