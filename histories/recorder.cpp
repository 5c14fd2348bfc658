#include "histories/recorder.h"

#include <algorithm>

#include "histories/assemble_events.h"
#include "histories/id_index.h"

namespace gpulin {

// The host's events take the device recorder's form (ticket = position, one key
// pool), so both recorders share one conversion (assemble_events.h).
KeyHistory HostRecorder::to_key_history(Header header, std::string source) const {
  std::vector<DeviceEvent> events;
  events.reserve(events_.size());
  for (size_t i = 0; i < events_.size(); ++i) {
    const Raw& r = events_[i];
    events.push_back(DeviceEvent{i + 1, r.op, r.node, static_cast<uint32_t>(r.kind), r.fn, r.off, r.len,
                                 r.is_null ? 1u : 0u, r.actor});
  }
  return assemble_recorded_history(std::move(events), pool_.data(), pool_.size(), 0, std::move(header), fn_names_,
                                   std::move(source));
}

// expand(to_key_history(...)), made in one pass: the simulator's runners convert
// every explored schedule's recording, and the detour through device events and a
// KeyHistory cost a fifth of a schedule. Of what assemble_recorded_history does, a
// host recording needs only the pairing of each ret with its op's inv: its events
// are already in ticket order with no gaps, it has no whole holds, and push checked
// its keys (recorded_events_test holds the two conversions equal).
History HostRecorder::to_history(Header header, std::string source) const {
  History h;
  h.source = std::move(source);
  h.header = std::move(header);
  convert(h);
  return h;
}

History HostRecorder::to_history(const Header& header, std::string source, History&& reuse) const {
  History h = std::move(reuse);
  h.source = std::move(source);
  if (!(h.header == header)) h.header = header;
  convert(h);
  return h;
}

void HostRecorder::convert(History& h) const {
  h.events.clear();
  h.events.reserve(events_.size());
  // Only invs enter the index (a ret's op outside their ids is not found).
  h.ops.resize(invs_.count);  // each rewritten below, its arrays' storage kept
  IdIndex index(invs_.lo, invs_.hi, invs_.count);
  size_t made = 0;
  for (size_t i = 0; i < events_.size(); ++i) {
    const Raw& r = events_[i];
    const uint64_t t = i + 1;
    h.events.emplace_back(t, r.kind, r.op, r.actor, r.node, 0);
    if (r.kind == EventKind::Inv) {
      index.set(r.op, static_cast<uint32_t>(made));
      Operation& op = h.ops[made++];
      op.id = r.op;
      op.actor = r.actor;
      op.f = fn_names_[static_cast<uint16_t>(r.fn)];  // as a KeyOp's fn holds it
      op.args.assign_integers_to(pool_.data() + r.off, r.len);
      op.inv_t = t;
      op.ret_t = kPending;  // op.res is set below (pending: none)
      op.inv_line = op.ret_line = 0;
    } else if (r.kind == EventKind::Ret) {
      const uint32_t at = index.find(r.op);
      if (at == IdIndex::kAbsent) continue;  // rules.h reports it (a ret without an inv)
      Operation& op = h.ops[at];
      op.ret_t = t;
      if (!op.res) op.res = Value::null();  // filled in place below
      if (r.is_null)
        op.res->set_null();
      else
        op.res->assign_integers_to(pool_.data() + r.off, r.len);
    }
  }
  // An op's result from the reused history goes where its own ret never came (an
  // op reused is rewritten at its inv, so a ret met before it is its own).
  for (Operation& op : h.ops)
    if (op.ret_t == kPending) op.res.reset();
}

}  // namespace gpulin
