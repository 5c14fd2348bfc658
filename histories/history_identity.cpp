#include "histories/history_identity.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace gpulin {

namespace {

// Appends LEB128 numbers and length-prefixed bytes to a buffer grown ahead of the
// writes: the fields of a simulated history are small numbers, a byte or two each,
// and writing them one push_back at a time cost more than the checks it saves.
class Packer {
 public:
  explicit Packer(size_t expected) : buf_(expected, '\0') {}

  void put(uint64_t v) {
    room(10);
    char* p = buf_.data() + used_;
    while (v >= 0x80) {
      *p++ = static_cast<char>(v | 0x80);
      v >>= 7;
    }
    *p++ = static_cast<char>(v);
    used_ = static_cast<size_t>(p - buf_.data());
  }
  void put_signed(int64_t v) { put((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }  // zigzag
  void put_byte(uint8_t b) {
    room(1);
    buf_[used_++] = static_cast<char>(b);
  }
  void put_text(std::string_view s) {
    put(s.size());
    room(s.size());
    s.copy(buf_.data() + used_, s.size());
    used_ += s.size();
  }
  void put_value(const Value& v) {
    put_byte(static_cast<uint8_t>(v.kind()));
    switch (v.kind()) {
      case Value::Kind::Null: break;
      case Value::Kind::Bool: put_byte(v.as_bool() ? 1 : 0); break;
      case Value::Kind::Int: put_signed(v.as_int()); break;
      case Value::Kind::String: put_text(v.as_string()); break;
      case Value::Kind::Array:
        put(v.as_array().size());
        for (const Value& e : v.as_array()) put_value(e);
        break;
      case Value::Kind::Object:
        put(v.as_object().size());
        for (const auto& [key, e] : v.as_object()) {
          put_text(key);
          put_value(e);
        }
        break;
    }
  }
  std::string done() && {
    buf_.resize(used_);
    return std::move(buf_);
  }

 private:
  void room(size_t n) {
    if (used_ + n > buf_.size()) buf_.resize(std::max(2 * buf_.size(), used_ + n));
  }
  std::string buf_;
  size_t used_ = 0;
};

}  // namespace

std::string history_identity(const History& h) {
  Packer out(64 + 12 * h.events.size() + 24 * h.ops.size());
  out.put(static_cast<uint64_t>(h.header.version));
  out.put_text(h.header.model);
  out.put_value(h.header.params);
  out.put_text(h.header.lp_rule);
  size_t extra = 0;
  for (const auto& field : h.header.extra) extra += field.first != "schedule";
  out.put(extra);
  for (const auto& [key, json] : h.header.extra) {
    if (key == "schedule") continue;
    out.put_text(key);
    out.put_text(json);
  }
  out.put(h.events.size());
  for (const Event& e : h.events) {
    out.put_byte(static_cast<uint8_t>(e.kind));
    out.put(e.t);
    out.put_signed(e.op);
    out.put_signed(e.actor);
    out.put_signed(e.node);
  }
  out.put(h.ops.size());
  for (const Operation& o : h.ops) {
    out.put_signed(o.id);
    out.put_signed(o.actor);
    out.put_text(o.f);
    out.put_value(o.args);
    out.put_byte(o.res ? 1 : 0);
    if (o.res) out.put_value(*o.res);
    out.put(o.inv_t);
    out.put(o.ret_t);
  }
  return std::move(out).done();
}

}  // namespace gpulin
