#include "histories/key_history.h"

#include <algorithm>
#include <string>

namespace gpulin {

bool keys_only_model(const std::string& model) {
  return model == "pq" || model == "pq-batch" || model == "psync-pq";
}

bool keyed_model(const std::string& model) { return model == "map" || model == "set" || model == "multimap"; }

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

namespace {

Operation expand_op(const KeyHistory& k, const KeyOp& o) {
  auto values = [&k](uint64_t off, uint32_t len) {
    Value::Array a;
    a.reserve(len);
    for (uint32_t i = 0; i < len; ++i) Value::push_integer(a, k.keys[off + i]);
    return Value::array(std::move(a));
  };
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
  if (o.res_kind == KeyOp::kValueResult) op.res = Value::integer(k.keys[o.res_off]);
  if (o.res_kind == KeyOp::kBoolResult) op.res = Value::boolean(k.keys[o.res_off] != 0);
  return op;
}

History expanded_header(const KeyHistory& k) {
  History h;
  h.source = k.source;
  h.header = k.header;
  return h;
}

}  // namespace

History expand(const KeyHistory& k) {
  History h = expanded_header(k);
  h.events = k.events;
  h.ops.reserve(k.ops.size());
  for (const KeyOp& o : k.ops) h.ops.push_back(expand_op(k, o));
  return h;
}

History expand(KeyHistory&& k) {
  History h;
  h.ops.reserve(k.ops.size());
  for (const KeyOp& o : k.ops) h.ops.push_back(expand_op(k, o));
  h.source = std::move(k.source);
  h.header = std::move(k.header);
  h.events = std::move(k.events);
  return h;
}

History expand(const KeyHistory& k, const std::vector<size_t>& op_indices) {
  History h = expanded_header(k);
  std::vector<int64_t> ids;
  ids.reserve(op_indices.size());
  for (size_t i : op_indices) {
    h.ops.push_back(expand_op(k, k.ops[i]));
    ids.push_back(k.ops[i].id);
  }
  std::sort(ids.begin(), ids.end());
  for (const Event& e : k.events)
    if (std::binary_search(ids.begin(), ids.end(), e.op)) h.events.push_back(e);
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
  const bool scalars = keyed_model(h.header.model);
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
      } else if (scalars && (op.res->is_int() || op.res->is_bool())) {
        o.res_kind = op.res->is_int() ? KeyOp::kValueResult : KeyOp::kBoolResult;
        o.res_off = k.keys.size();
        o.res_len = 1;
        k.keys.push_back(op.res->as_int());  // a bool's as_int is 0 or 1
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
