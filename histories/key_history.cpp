#include "histories/key_history.h"

#include <string>

namespace gpulin {

uint16_t KeyHistory::fn_index(std::string_view name) {
  for (size_t i = 0; i < fn_names.size(); ++i)
    if (fn_names[i] == name) return static_cast<uint16_t>(i);
  fn_names.emplace_back(name);
  return static_cast<uint16_t>(fn_names.size() - 1);
}

std::string key_out_of_history_range(uint64_t key) {
  return "key " + std::to_string(key) +
         " is above 2^63 - 1, the largest history integer (history-format.md: integers are signed 64-bit)";
}

size_t KeyHistory::bytes() const {
  size_t b = events.capacity() * sizeof(Event) + ops.capacity() * sizeof(KeyOp) + keys.capacity() * sizeof(int64_t);
  for (const std::string& f : fn_names) b += f.capacity();
  return b;
}

History expand(const KeyHistory& k) {
  History h;
  h.source = k.source;
  h.header = k.header;
  h.events = k.events;
  h.ops.reserve(k.ops.size());
  auto values = [&k](uint64_t off, uint32_t len) {
    Value::Array a;
    a.reserve(len);
    for (uint32_t i = 0; i < len; ++i) a.push_back(Value::integer(k.keys[off + i]));
    return Value::array(std::move(a));
  };
  for (const KeyOp& o : k.ops) {
    Operation op;
    op.id = o.id;
    op.actor = o.actor;
    op.f = k.fn_names[o.fn];
    op.args = values(o.args_off, o.args_len);
    op.inv_t = o.inv_t;
    op.ret_t = o.ret_t;
    op.inv_line = o.inv_line;
    op.ret_line = o.ret_line;
    if (o.res_kind == KeyOp::kNullResult) op.res = Value::null();
    if (o.res_kind == KeyOp::kKeysResult) op.res = values(o.res_off, o.res_len);
    h.ops.push_back(std::move(op));
  }
  return h;
}

KeyHistory to_key_history(const History& h) {
  KeyHistory k;
  k.source = h.source;
  k.header = h.header;
  k.events = h.events;
  k.ops.reserve(h.ops.size());
  auto take = [&](const Value& v, uint32_t line, const char* what, uint64_t& off, uint32_t& len) {
    if (!v.is_array())
      throw FormatError(h.source, line, std::string(what) + " must be an array of integer keys here");
    off = k.keys.size();
    for (const Value& e : v.as_array()) {
      if (!e.is_int()) throw FormatError(h.source, line, std::string(what) + " must be an array of integer keys here");
      k.keys.push_back(e.as_int());
    }
    len = static_cast<uint32_t>(k.keys.size() - off);
  };
  for (const Operation& op : h.ops) {
    KeyOp o;
    o.id = op.id;
    o.actor = op.actor;
    o.inv_t = op.inv_t;
    o.ret_t = op.ret_t;
    o.inv_line = op.inv_line;
    o.ret_line = op.ret_line;
    o.fn = k.fn_index(op.f);
    take(op.args, op.inv_line, "args", o.args_off, o.args_len);
    if (op.res) {
      if (op.res->is_null()) {
        o.res_kind = KeyOp::kNullResult;
      } else {
        o.res_kind = KeyOp::kKeysResult;
        take(*op.res, op.ret_line, "res", o.res_off, o.res_len);
      }
    }
    k.ops.push_back(o);
  }
  return k;
}

}  // namespace gpulin
