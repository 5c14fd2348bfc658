#include "histories/recorder.h"

#include <unordered_map>

namespace gpulin {

History HostRecorder::to_history(Header header, std::string source) const {
  History h;
  h.source = std::move(source);
  h.header = std::move(header);
  h.events.reserve(events_.size());
  std::unordered_map<int64_t, size_t> op_index;
  auto payload = [this](const Raw& r) {
    if (r.is_null) return Value::null();
    Value::Array a;
    a.reserve(r.len);
    for (uint32_t i = 0; i < r.len; ++i) a.push_back(Value::integer(pool_[r.off + i]));
    return Value::array(std::move(a));
  };
  for (size_t i = 0; i < events_.size(); ++i) {
    const Raw& r = events_[i];
    const uint64_t t = i + 1;
    h.events.push_back(Event{t, r.kind, r.op, r.actor, r.node, 0});
    if (r.kind == EventKind::Inv) {
      op_index[r.op] = h.ops.size();
      Operation o;
      o.id = r.op;
      o.actor = r.actor;
      o.f = fn_names_.at(r.fn);
      o.args = payload(r);
      if (o.args.is_null()) o.args = Value::array();
      o.inv_t = t;
      h.ops.push_back(std::move(o));
    } else if (r.kind == EventKind::Ret) {
      Operation& o = h.ops[op_index.at(r.op)];
      o.res = payload(r);
      o.ret_t = t;
    }
  }
  return h;
}

}  // namespace gpulin
