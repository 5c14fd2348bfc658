#include <algorithm>
#include <unordered_map>

#include "histories/compact_history.h"
#include "histories/device_recorder.h"

namespace gpulin {

CompactHistory assemble_compact_device_history(std::vector<DeviceEvent> events, std::vector<uint32_t> keys,
                                               uint32_t key_cap, Header header,
                                               const std::vector<std::string>& fn_names, std::string source) {
  // Tickets are 1, 2, 3, ... with no gaps (one counter for every event), so each
  // event goes straight to its place; anything else falls back to sorting.
  bool dense = true;
  for (const DeviceEvent& e : events) dense &= e.t >= 1 && e.t <= events.size();
  if (dense) {
    std::vector<DeviceEvent> by_t(events.size());
    std::vector<bool> seen(events.size(), false);
    for (const DeviceEvent& e : events) {
      dense &= !seen[e.t - 1];
      seen[e.t - 1] = true;
      by_t[e.t - 1] = e;
    }
    if (dense) events.swap(by_t);
  }
  if (!dense)
    std::sort(events.begin(), events.end(), [](const DeviceEvent& a, const DeviceEvent& b) { return a.t < b.t; });
  CompactHistory c;
  History& h = c.skeleton;
  h.source = std::move(source);
  h.header = std::move(header);
  h.events.reserve(events.size());
  std::unordered_map<int64_t, size_t> index;
  auto span = [key_cap](const DeviceEvent& e) { return KeySpan{uint64_t(e.actor) * key_cap + e.key_off, e.key_len}; };
  for (const DeviceEvent& e : events) {
    const auto kind = static_cast<EventKind>(e.kind);
    h.events.push_back(Event{e.t, kind, e.op, e.actor, e.node, 0});
    if (kind == EventKind::Inv) {
      index[e.op] = h.ops.size();
      Operation o;
      o.id = e.op;
      o.actor = e.actor;
      o.f = fn_names.at(e.fn);
      o.args = Value::array();
      o.inv_t = e.t;
      h.ops.push_back(std::move(o));
      c.args.push_back(span(e));
      c.res.push_back(KeySpan{});
    } else if (kind == EventKind::Ret) {
      const size_t i = index.at(e.op);
      h.ops[i].res = e.is_null ? Value::null() : Value::array();
      h.ops[i].ret_t = e.t;
      c.res[i] = span(e);
    }
  }
  c.keys = std::move(keys);
  return c;
}

History expand(const CompactHistory& c) {
  History h = c.skeleton;
  auto values = [&c](const KeySpan& s) {
    Value::Array a;
    a.reserve(s.len);
    for (uint32_t i = 0; i < s.len; ++i) a.push_back(Value::integer(c.keys[s.off + i]));
    return Value::array(std::move(a));
  };
  for (size_t i = 0; i < h.ops.size(); ++i) {
    h.ops[i].args = values(c.args[i]);
    if (h.ops[i].res && !h.ops[i].res->is_null()) h.ops[i].res = values(c.res[i]);
  }
  return h;
}

CompactHistory compact(const History& h) {
  CompactHistory c;
  c.skeleton = h;
  auto take = [&](const Value& v, uint32_t line) {
    KeySpan s{c.keys.size(), 0};
    if (v.is_null()) return s;
    for (const Value& e : v.as_array()) {
      if (!e.is_int() || e.as_int() < 0 || e.as_int() > 0xffffffffLL)
        throw FormatError(h.source, line, "compact form holds keys in [0, 2^32) only");
      c.keys.push_back(static_cast<uint32_t>(e.as_int()));
      ++s.len;
    }
    return s;
  };
  for (auto& op : c.skeleton.ops) {
    c.args.push_back(take(op.args, op.inv_line));
    c.res.push_back(op.res ? take(*op.res, op.ret_line) : KeySpan{});
    op.args = Value::array();
    if (op.res && !op.res->is_null()) op.res = Value::array();
  }
  return c;
}

History assemble_device_history(std::vector<DeviceEvent> events, const std::vector<uint32_t>& keys,
                                uint32_t key_cap, Header header, const std::vector<std::string>& fn_names,
                                std::string source) {
  return expand(assemble_compact_device_history(std::move(events), keys, key_cap, std::move(header), fn_names,
                                                std::move(source)));
}

}  // namespace gpulin
