#include "histories/jsonl_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "histories/id_index.h"

namespace gpulin {

namespace {

template <class Int>
void append_int(std::string& out, Int x) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, x);
  out.append(buf, r.ptr);
}

IdIndex index_ops(const History& h) {
  return index_ids(h.ops, [](const Operation& op) { return op.id; });
}

void append_event(std::string& out, const Event& e, const Operation* op) {
  out += "{\"t\":";
  append_int(out, e.t);
  out += ",\"e\":\"";
  out += to_string(e.kind);
  out += "\",\"op\":";
  append_int(out, e.op);
  out += ",\"actor\":";
  append_int(out, e.actor);
  switch (e.kind) {
    case EventKind::Inv:
      out += ",\"f\":";
      append_json_string(out, op->f);
      out += ",\"args\":";
      op->args.append_json(out);
      break;
    case EventKind::Ret:
      out += ",\"res\":";
      op->res->append_json(out);
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

// The operation record that supplies an inv's f/args or a ret's res.
const Operation* payload_op(const History& h, const IdIndex& index, const Event& e) {
  if (e.kind != EventKind::Inv && e.kind != EventKind::Ret) return nullptr;
  const uint32_t i = index.find(e.op);
  if (i == IdIndex::kAbsent)
    throw FormatError(h.source, e.line, fmt::format("cannot write: {} event of op {} has no entry in ops",
                                                    to_string(e.kind), e.op));
  const Operation* op = &h.ops[i];
  if (e.kind == EventKind::Ret && !op->res)
    throw FormatError(h.source, e.line, fmt::format("cannot write: ret event of op {}, whose res is unset", e.op));
  return op;
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

void write_history(std::ostream& out, const History& h) {
  const IdIndex index = index_ops(h);
  std::string buf = header_to_json(h.header);
  buf.push_back('\n');
  // Events go out through one buffer flushed in large pieces: a million-operation
  // history is a few hundred MB of text, and per-line stream writes dominate.
  for (const Event& e : h.events) {
    append_event(buf, e, payload_op(h, index, e));
    if (buf.size() >= (1u << 20)) {
      out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
      buf.clear();
    }
  }
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

std::string history_to_jsonl(const History& h) {
  std::ostringstream out;
  write_history(out, h);
  return std::move(out).str();
}

void write_history_file(const std::string& path, const History& h) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot open " + path + " for writing");
  write_history(out, h);
  out.close();
  if (!out) throw std::runtime_error("error writing " + path);
}

}  // namespace gpulin
