#include "histories/jsonl_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "histories/op_payloads.h"

namespace gpulin {

namespace {

template <class Int>
void append_int(std::string& out, Int x) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, x);
  out.append(buf, r.ptr);
}

// One value as JSON: a Value, or a KeyHistory's payload (op_payloads.h).
struct AppendJson {
  std::string& out;
  void operator()(const Value& v) const { v.append_json(out); }
  void operator()(op_payloads::KeyList keys) const {
    out.push_back('[');
    for (uint32_t i = 0; i < keys.n; ++i) {
      if (i) out.push_back(',');
      append_int(out, keys.p[i]);
    }
    out.push_back(']');
  }
  void operator()(int64_t x) const { append_int(out, x); }
  void operator()(bool b) const { out += b ? "true" : "false"; }
  void operator()(std::nullptr_t) const { out += "null"; }
};

template <class H>
void append_event(std::string& out, const H& h, const IdIndex& index, const Event& e) {
  out += "{\"t\":";
  append_int(out, e.t);
  out += ",\"e\":\"";
  out += to_string(e.kind);
  out += "\",\"op\":";
  append_int(out, e.op);
  out += ",\"actor\":";
  append_int(out, e.actor);
  switch (e.kind) {
    case EventKind::Inv: {
      const uint32_t i = op_payloads::payload_op(h, index, e);
      out += ",\"f\":";
      append_json_string(out, op_payloads::fn(h, i));
      out += ",\"args\":";
      op_payloads::visit_args(h, i, AppendJson{out});
      break;
    }
    case EventKind::Ret:
      out += ",\"res\":";
      op_payloads::visit_res(h, op_payloads::payload_op(h, index, e), AppendJson{out});
      break;
    case EventKind::Acq:
    case EventKind::Rel:
      out += ",\"node\":";
      append_int(out, e.node);
      break;
    case EventKind::Lp: break;
  }
  out += "}\n";
}

template <class H>
void write_any(std::ostream& out, const H& h) {
  const IdIndex index = op_payloads::index_ops(h);
  std::string buf = header_to_json(h.header);
  buf.push_back('\n');
  // Events go out through one buffer flushed in large pieces: a million-operation
  // history is a few hundred MB of text, and per-line stream writes dominate.
  for (const Event& e : h.events) {
    append_event(buf, h, index, e);
    if (buf.size() >= (1u << 20)) {
      out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
      buf.clear();
    }
  }
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

template <class H>
void write_any_file(const std::string& path, const H& h) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot open " + path + " for writing");
  write_any(out, h);
  out.close();
  if (!out) throw std::runtime_error("error writing " + path);
}

}  // namespace

std::string header_to_json(const Header& header) {
  std::string out = "{\"history\":";
  append_int(out, header.version);
  out += ",\"model\":";
  append_json_string(out, header.model);
  // An empty params object reads back the same as none, so it is left out.
  if (!(header.params.is_object() && header.params.as_object().empty())) {
    out += ",\"params\":";
    header.params.append_json(out);
  }
  if (!header.lp_rule.empty()) {
    out += ",\"lp_rule\":";
    append_json_string(out, header.lp_rule);
  }
  for (const auto& [key, json] : header.extra) {
    out.push_back(',');
    append_json_string(out, key);
    out.push_back(':');
    out += json;
  }
  out.push_back('}');
  return out;
}

void write_history(std::ostream& out, const History& h) { write_any(out, h); }
void write_history(std::ostream& out, const KeyHistory& h) { write_any(out, h); }

std::string history_to_jsonl(const History& h) {
  std::ostringstream out;
  write_history(out, h);
  return std::move(out).str();
}

void write_history_file(const std::string& path, const History& h) { write_any_file(path, h); }
void write_history_file(const std::string& path, const KeyHistory& h) { write_any_file(path, h); }

}  // namespace gpulin
