#include <algorithm>
#include <unordered_map>

#include "histories/device_recorder.h"

namespace gpulin {

History assemble_device_history(std::vector<DeviceEvent> events, const std::vector<uint32_t>& keys,
                                uint32_t key_cap, Header header, const std::vector<std::string>& fn_names,
                                std::string source) {
  std::sort(events.begin(), events.end(), [](const DeviceEvent& a, const DeviceEvent& b) { return a.t < b.t; });
  History h;
  h.source = std::move(source);
  h.header = std::move(header);
  h.events.reserve(events.size());
  std::unordered_map<int64_t, size_t> index;
  auto payload = [&](const DeviceEvent& e) {
    Value::Array a;
    a.reserve(e.key_len);
    const size_t base = static_cast<size_t>(e.actor) * key_cap + e.key_off;
    for (uint32_t i = 0; i < e.key_len; ++i) a.push_back(Value::integer(keys[base + i]));
    return Value::array(std::move(a));
  };
  for (const DeviceEvent& e : events) {
    const auto kind = static_cast<EventKind>(e.kind);
    h.events.push_back(Event{e.t, kind, e.op, e.actor, e.node, 0});
    if (kind == EventKind::Inv) {
      index[e.op] = h.ops.size();
      Operation o;
      o.id = e.op;
      o.actor = e.actor;
      o.f = fn_names.at(e.fn);
      o.args = payload(e);
      o.inv_t = e.t;
      h.ops.push_back(std::move(o));
    } else if (kind == EventKind::Ret) {
      Operation& o = h.ops.at(index.at(e.op));
      o.res = e.is_null ? Value::null() : payload(e);
      o.ret_t = e.t;
    }
  }
  return h;
}

}  // namespace gpulin
