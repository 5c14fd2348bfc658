#include "histories/jsonl_reader.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <cstring>

#include "histories/assemble.h"
#include "histories/event_fields.h"
#include "histories/json_dom.h"

namespace gpulin {

namespace {

using simdjson::dom::element;

using namespace event_fields;

int field_of(std::string_view key) {
  for (int i = 0; i < kFieldCount; ++i)
    if (key == kFieldName[i]) return i;
  return -1;
}

class LineReader {
 public:
  LineReader(const std::string& source) : source_(source) {}

  void event(const char* p, size_t len, uint32_t line, RawHistory& raw) {
    element root;
    // The whole file sits in one padded buffer, so every line has the padding
    // simdjson needs after it and parses in place, without a copy.
    if (auto err = parser_.parse(p, len, false).get(root))
      fail(line, fmt::format("not valid JSON: {}", simdjson::error_message(err)));
    simdjson::dom::object obj;
    if (root.get_object().get(obj)) fail(line, "not a JSON object (an event must be an object)");

    element val[kFieldCount];
    unsigned seen = 0;
    for (auto field : obj) {
      const int f = field_of(field.key);
      if (f < 0)
        fail(line, fmt::format("unknown field '{}' (an event has t, e, op, actor and, by kind, f, args, res, node)",
                               std::string_view(field.key)));
      if (seen & (1u << f)) fail(line, fmt::format("field '{}' appears twice", kFieldName[f]));
      seen |= 1u << f;
      val[f] = field.value;
    }

    if (!(seen & bit(kE))) fail(line, "missing field 'e'");
    std::string_view e;
    if (val[kE].get_string().get(e)) fail(line, "field 'e' must be a string");
    Event ev;
    if (!kind_of(e, ev.kind)) fail(line, fmt::format("unknown event kind e='{}' (known: inv, ret, acq, rel, lp)", e));
    const unsigned want = fields_of(ev.kind);
    for (int f = 0; f < kFieldCount; ++f) {
      if ((want & (1u << f)) && !(seen & (1u << f)))
        fail(line, fmt::format("missing field '{}' (an event of kind {} needs it)", kFieldName[f], e));
      if (!(want & (1u << f)) && (seen & (1u << f)))
        fail(line, fmt::format("field '{}' does not belong to an event of kind {}", kFieldName[f], e));
    }

    ev.line = line;
    if (val[kT].get_uint64().get(ev.t)) fail(line, "field 't' must be an unsigned 64-bit integer");
    ev.op = int_field(val[kOp], kOp, line);
    ev.actor = int_field(val[kActor], kActor, line);
    if (seen & bit(kNode)) ev.node = int_field(val[kNode], kNode, line);

    if (ev.kind == EventKind::Inv) {
      std::string_view f;
      if (val[kF].get_string().get(f)) fail(line, "field 'f' must be a string");
      if (!val[kArgs].is_array()) fail(line, "field 'args' must be an array");
      raw.add_inv(ev, std::string(f), dom_to_value(val[kArgs], source_, line, "field 'args'"));
    } else if (ev.kind == EventKind::Ret) {
      raw.add_ret(ev, dom_to_value(val[kRes], source_, line, "field 'res'"));
    } else {
      raw.add_other(ev);
    }
  }

 private:
  [[noreturn]] void fail(uint32_t line, const std::string& msg) { throw FormatError(source_, line, msg); }

  int64_t int_field(element v, Field f, uint32_t line) {
    int64_t x = 0;
    if (v.get_int64().get(x)) fail(line, fmt::format("field '{}' must be a signed 64-bit integer", kFieldName[f]));
    return x;
  }

  const std::string& source_;
  simdjson::dom::parser parser_;
};

History read_padded(const simdjson::padded_string& buf, const std::string& source) {
  const char* p = buf.data();
  const char* const end = p + buf.size();
  LineReader reader(source);
  Header header;
  uint32_t header_line = 0;
  RawHistory raw;
  // Event lines are about 60 bytes; a guess that saves regrowing, not a limit.
  raw.events.reserve(buf.size() / 56);
  raw.slot.reserve(buf.size() / 56);
  raw.calls.reserve(buf.size() / 224);
  raw.results.reserve(buf.size() / 224);
  uint32_t line = 0;
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
    const char* le = nl ? nl : end;
    if (++line == 0) throw FormatError(source, UINT32_MAX, "too many lines (more than 2^32 - 1)");
    const char* q = p;
    while (q < le && (*q == ' ' || *q == '\t' || *q == '\r')) ++q;
    if (q != le && *q != '#') {
      if (header_line == 0) {
        header = parse_header_json(std::string_view(p, le - p), source, line);
        header_line = line;
      } else {
        reader.event(p, le - p, line, raw);
      }
    }
    p = le + 1;
  }
  if (header_line == 0)
    throw FormatError(source, std::max<uint32_t>(line, 1),
                      "header missing: the file has no header line (it is empty or only comments)");
  return assemble_history(source, std::move(header), header_line, std::move(raw));
}

}  // namespace

History read_history_file(const std::string& path) {
  simdjson::padded_string buf;
  if (auto err = simdjson::padded_string::load(path).get(buf))
    throw FormatError(path, 0, fmt::format("cannot read the file: {}", simdjson::error_message(err)));
  return read_padded(buf, path);
}

History read_history_text(std::string_view text, const std::string& source_name) {
  return read_padded(simdjson::padded_string(text), source_name);
}

}  // namespace gpulin
