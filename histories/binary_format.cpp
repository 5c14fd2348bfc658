#include "histories/binary_format.h"

#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "histories/assemble.h"
#include "histories/binary_layout.h"
#include "histories/op_payloads.h"
#include "histories/json_dom.h"
#include "histories/jsonl_reader.h"
#include "histories/jsonl_writer.h"

namespace gpulin {

namespace {

using namespace binary_layout;
constexpr int kMaxDepth = 1024;  // as simdjson's default; bounds recursion on corrupt input

// ---- writing -------------------------------------------------------------------

void put_u32(std::string& out, uint32_t x) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(x >> (8 * i)));
}
void put_u64(std::string& out, uint64_t x) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(x >> (8 * i)));
}
void put_string(std::string& out, std::string_view s) {
  if (s.size() > UINT32_MAX) throw std::length_error("binary history: a string longer than 4 GiB");
  put_u32(out, static_cast<uint32_t>(s.size()));
  out.append(s);
}
void put_value(std::string& out, const Value& v) {
  switch (v.kind()) {
    case Value::Kind::Null: out.push_back(kNull); break;
    case Value::Kind::Bool: out.push_back(v.as_bool() ? kTrue : kFalse); break;
    case Value::Kind::Int: out.push_back(kInt); put_u64(out, static_cast<uint64_t>(v.as_int())); break;
    case Value::Kind::String: out.push_back(kString); put_string(out, v.as_string()); break;
    case Value::Kind::Array:
      out.push_back(kArray);
      put_u32(out, static_cast<uint32_t>(v.as_array().size()));
      for (const Value& x : v.as_array()) put_value(out, x);
      break;
    case Value::Kind::Object:
      out.push_back(kObject);
      put_u32(out, static_cast<uint32_t>(v.as_object().size()));
      for (const auto& [key, x] : v.as_object()) {
        put_string(out, key);
        put_value(out, x);
      }
      break;
  }
}

// One value in the pool's encoding: a Value, or a KeyHistory's payload (op_payloads.h).
struct PutValue {
  std::string& out;
  void operator()(const Value& v) const { put_value(out, v); }
  void operator()(op_payloads::KeyList keys) const {
    out.push_back(kArray);
    put_u32(out, keys.n);
    for (uint32_t i = 0; i < keys.n; ++i) (*this)(keys.p[i]);
  }
  void operator()(int64_t x) const {
    out.push_back(kInt);
    put_u64(out, static_cast<uint64_t>(x));
  }
  void operator()(bool b) const { out.push_back(b ? kTrue : kFalse); }
  void operator()(std::nullptr_t) const { out.push_back(kNull); }
};

// An inv's (f, then args) or a ret's (res) payload, appended to `pool`.
template <class H>
void put_payload(std::string& pool, const H& h, uint32_t i, EventKind kind) {
  if (kind == EventKind::Inv) {
    put_string(pool, op_payloads::fn(h, i));
    op_payloads::visit_args(h, i, PutValue{pool});
  } else {
    op_payloads::visit_res(h, i, PutValue{pool});
  }
}

// Streams the binary form: the header (which holds the pool's size, so the
// payloads are sized first), the records, then the pool. Written once for both
// in-memory forms; memory beyond the history is a few bytes a payload.
template <class H>
void write_binary(std::ostream& out, const H& h) {
  const IdIndex index = op_payloads::index_ops(h);
  auto carries_payload = [](const Event& e) { return e.kind == EventKind::Inv || e.kind == EventKind::Ret; };
  std::vector<uint32_t> payload_op;  // per inv/ret event, in event order
  std::string buf;
  uint64_t pool_size = 0;
  for (const Event& e : h.events) {
    if (!carries_payload(e)) continue;
    payload_op.push_back(op_payloads::payload_op(h, index, e));
    buf.clear();
    put_payload(buf, h, payload_op.back(), e.kind);
    pool_size += buf.size();
  }
  buf.assign(kMagic, sizeof kMagic);
  put_string(buf, header_to_json(h.header));
  put_u64(buf, h.events.size());
  put_u64(buf, pool_size);
  auto flush = [&](bool always) {
    if (!always && buf.size() < (size_t{1} << 20)) return;
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    buf.clear();
  };
  uint64_t at = 0;
  size_t next = 0;
  std::string scratch;
  for (const Event& e : h.events) {
    uint64_t aux = 0;
    if (e.kind == EventKind::Acq || e.kind == EventKind::Rel) aux = static_cast<uint64_t>(e.node);
    if (carries_payload(e)) {
      aux = at;
      scratch.clear();
      put_payload(scratch, h, payload_op[next++], e.kind);
      at += scratch.size();
    }
    put_u64(buf, e.t);
    put_u64(buf, static_cast<uint64_t>(e.op));
    put_u64(buf, static_cast<uint64_t>(e.actor));
    put_u64(buf, aux);
    put_u64(buf, static_cast<uint8_t>(e.kind));  // kind byte, then seven zero bytes
    flush(false);
  }
  next = 0;
  for (const Event& e : h.events) {
    if (!carries_payload(e)) continue;
    put_payload(buf, h, payload_op[next++], e.kind);
    flush(false);
  }
  flush(true);
}

template <class H>
void write_binary_file(const std::string& path, const H& h) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot open " + path + " for writing");
  write_binary(out, h);
  out.close();
  if (!out) throw std::runtime_error("error writing " + path);
}

// ---- reading -------------------------------------------------------------------

// Decodes pool payloads; every failure names the record being decoded.
class PoolReader {
 public:
  PoolReader(std::string_view pool, const std::string& source) : pool_(pool), source_(source) {}

  size_t pos() const { return pos_; }
  // Names the record that later failures belong to.
  void set_record(uint64_t record) { record_ = record; }
  // Payloads lie back to back in record order; anything else is corruption.
  void expect_offset(uint64_t offset) {
    if (offset != pos_)
      fail(fmt::format("payload offset {} is not where the previous payload ended ({})", offset, pos_));
  }
  std::string string() {
    const uint32_t n = static_cast<uint32_t>(get_le(take(4), 4));
    return std::string(take(n), n);
  }
  Value value(int depth = 0) {
    if (depth > kMaxDepth) fail("values nested too deeply");
    const uint8_t tag = static_cast<uint8_t>(*take(1));
    switch (tag) {
      case kNull: return Value::null();
      case kFalse: return Value::boolean(false);
      case kTrue: return Value::boolean(true);
      case kInt: return Value::integer(static_cast<int64_t>(get_le(take(8), 8)));
      case kString: return Value::string(string());
      case kArray: {
        const uint32_t n = static_cast<uint32_t>(get_le(take(4), 4));
        Value::Array a;
        for (uint32_t i = 0; i < n; ++i) a.push_back(value(depth + 1));
        return Value::array(std::move(a));
      }
      case kObject: {
        const uint32_t n = static_cast<uint32_t>(get_le(take(4), 4));
        Value::Object o;
        for (uint32_t i = 0; i < n; ++i) {
          std::string key = string();
          for (const auto& m : o)
            if (m.first == key) fail(fmt::format("object key \"{}\" appears twice", key));
          o.emplace_back(std::move(key), value(depth + 1));
        }
        return Value::object(std::move(o));
      }
      default: fail(fmt::format("unknown value tag {}", tag));
    }
  }
  [[noreturn]] void fail(const std::string& msg) const {
    throw FormatError(source_, static_cast<uint32_t>(record_ + 1),
                      fmt::format("binary record {} (line = record index + 1): {}", record_ + 1, msg));
  }

 private:
  const char* take(uint64_t n) {
    if (n > pool_.size() - pos_) fail("payload runs past the end of the value pool (file truncated or corrupt)");
    const char* p = pool_.data() + pos_;
    pos_ += n;
    return p;
  }
  std::string_view pool_;
  const std::string& source_;
  size_t pos_ = 0;
  uint64_t record_ = 0;
};

}  // namespace

std::string history_to_binary(const History& h) {
  std::ostringstream out;
  write_binary(out, h);
  return std::move(out).str();
}

History read_history_binary_bytes(std::string_view bytes, const std::string& source) {
  auto fail0 = [&](const std::string& msg) { throw FormatError(source, 0, "binary header: " + msg); };
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    fail0("not a binary history (the magic \"GPULINH1\" is missing)");
  size_t pos = sizeof kMagic;
  if (bytes.size() - pos < 4) fail0("file truncated before the header length");
  const uint64_t header_len = get_le(bytes.data() + pos, 4);
  pos += 4;
  if (bytes.size() - pos < header_len + 16) fail0("file truncated inside the header or the counts");
  Header header = parse_header_json(bytes.substr(pos, header_len), source, 0);
  pos += header_len;
  const uint64_t count = get_le(bytes.data() + pos, 8);
  const uint64_t pool_size = get_le(bytes.data() + pos + 8, 8);
  pos += 16;

  const uint64_t whole = (bytes.size() - pos) / kRecordSize;
  if (count > whole)
    throw FormatError(source, static_cast<uint32_t>(std::min<uint64_t>(whole + 1, UINT32_MAX)),
                      fmt::format("binary record {} (line = record index + 1): truncated; the header announces {} "
                                  "records and the file ends inside record {}",
                                  whole + 1, count, whole + 1));
  if (count >= UINT32_MAX) fail0(fmt::format("{} records is more than this reader supports", count));
  const char* rec = bytes.data() + pos;
  pos += count * kRecordSize;
  const std::string_view pool = bytes.substr(pos, std::min<uint64_t>(pool_size, bytes.size() - pos));

  PoolReader reader(pool, source);
  RawHistory raw;
  raw.events.reserve(count);
  raw.slot.reserve(count);
  for (uint64_t i = 0; i < count; ++i, rec += kRecordSize) {
    const Record r = decode_record(rec, i);
    Event ev = r.ev;
    const uint64_t aux = r.aux;
    reader.set_record(i);
    if (!r.known_kind()) reader.fail(fmt::format("unknown event kind byte {}", r.kind_byte));
    if (!r.padding_zero) reader.fail("padding bytes are not zero (corrupt record)");
    switch (ev.kind) {
      case EventKind::Acq:
      case EventKind::Rel:
        ev.node = static_cast<int64_t>(aux);
        raw.add_other(ev);
        break;
      case EventKind::Lp:
        if (aux != 0) reader.fail("an lp record's aux field is not zero (corrupt record)");
        raw.add_other(ev);
        break;
      case EventKind::Inv: {
        reader.expect_offset(aux);
        std::string f = reader.string();
        Value args = reader.value();
        if (!args.is_array()) reader.fail("an inv's args are not an array");
        raw.add_inv(ev, std::move(f), std::move(args));
        break;
      }
      case EventKind::Ret:
        reader.expect_offset(aux);
        raw.add_ret(ev, reader.value());
        break;
    }
  }
  if (reader.pos() != pool_size)
    fail0(fmt::format("the value pool should hold {} bytes; the records use {} and the file has {}", pool_size,
                      reader.pos(), pool.size()));
  if (pos + pool_size != bytes.size())
    fail0(fmt::format("{} bytes follow the value pool", bytes.size() - pos - pool_size));
  return assemble_history(source, std::move(header), 0, std::move(raw));
}

void write_history_binary(const std::string& path, const History& h) { write_binary_file(path, h); }
void write_history_binary(const std::string& path, const KeyHistory& h) { write_binary_file(path, h); }

std::string read_file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw FormatError(path, 0, "cannot read the file");
  std::string bytes(static_cast<size_t>(in.tellg()), '\0');
  in.seekg(0);
  if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
    throw FormatError(path, 0, "cannot read the file");
  return bytes;
}

History read_history_binary(const std::string& path) { return read_history_binary_bytes(read_file_bytes(path), path); }

bool is_binary_history_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[sizeof kMagic] = {};
  return in.read(head, sizeof head) && std::memcmp(head, kMagic, sizeof kMagic) == 0;
}

History read_history_any(const std::string& path) {
  return is_binary_history_file(path) ? read_history_binary(path) : read_history_file(path);
}

}  // namespace gpulin
