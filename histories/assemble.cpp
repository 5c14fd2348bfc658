#include "histories/assemble.h"

#include <algorithm>
#include <numeric>

#include "histories/rules.h"

namespace gpulin {

void sort_events_by_t(std::vector<Event>& events, std::vector<uint32_t>& slot) {
  auto less_t = [](const Event& a, const Event& b) { return a.t < b.t; };
  if (std::is_sorted(events.begin(), events.end(), less_t)) return;
  std::vector<uint32_t> order(events.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return events[a].t < events[b].t; });
  std::vector<Event> sorted_events;
  std::vector<uint32_t> sorted_slot;
  sorted_events.reserve(order.size());
  sorted_slot.reserve(order.size());
  for (uint32_t i : order) {
    sorted_events.push_back(events[i]);
    sorted_slot.push_back(slot[i]);
  }
  events = std::move(sorted_events);
  slot = std::move(sorted_slot);
}

History assemble_history(std::string source, Header header, uint32_t header_line, RawHistory raw) {
  check_header(header, source, header_line);
  if (raw.events.size() >= OpSpan::kNone) throw FormatError(source, 0, "too many events (more than 2^32 - 2)");
  sort_events_by_t(raw.events, raw.slot);
  const std::vector<OpSpan> spans = check_events(raw.events, source);

  History h;
  h.source = std::move(source);
  h.header = std::move(header);
  // When the invocations were added in t order (a sorted file) the calls are
  // already in the order of ops and are taken over whole; otherwise reordered.
  bool in_order = raw.calls.size() == spans.size();
  for (size_t i = 0; in_order && i < spans.size(); ++i) in_order = raw.slot[spans[i].inv_event] == i;
  if (in_order) {
    h.ops = std::move(raw.calls);
  } else {
    h.ops.reserve(spans.size());
    for (const OpSpan& s : spans) h.ops.push_back(std::move(raw.calls[raw.slot[s.inv_event]]));
  }
  for (size_t i = 0; i < spans.size(); ++i) {
    const OpSpan& s = spans[i];
    Operation& op = h.ops[i];
    const Event& inv = raw.events[s.inv_event];
    op.id = s.id;
    op.actor = s.actor;
    op.inv_t = inv.t;
    op.inv_line = inv.line;
    if (s.ret_event != OpSpan::kNone) {
      const Event& ret = raw.events[s.ret_event];
      op.ret_t = ret.t;
      op.ret_line = ret.line;
      op.res = std::move(raw.results[raw.slot[s.ret_event]]);
    }
  }
  h.events = std::move(raw.events);
  return h;
}

}  // namespace gpulin
