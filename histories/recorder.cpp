#include "histories/recorder.h"

#include "histories/assemble_events.h"

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

History HostRecorder::to_history(Header header, std::string source) const {
  return expand(to_key_history(std::move(header), std::move(source)));
}

}  // namespace gpulin
