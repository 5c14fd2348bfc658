#include <algorithm>
#include <string>
#include <type_traits>

#include "histories/assemble_events.h"
#include "histories/device_recorder.h"
#include "histories/hold_order.h"
#include "histories/id_index.h"
#include "histories/key_history.h"

namespace gpulin {

// DeviceEvent::kind is cast to EventKind below: the two numberings are one.
static_assert(kDeviceInv == static_cast<uint32_t>(EventKind::Inv) && kDeviceRet == static_cast<uint32_t>(EventKind::Ret) &&
              kDeviceAcq == static_cast<uint32_t>(EventKind::Acq) && kDeviceRel == static_cast<uint32_t>(EventKind::Rel) &&
              kDeviceLp == static_cast<uint32_t>(EventKind::Lp));

namespace {

// key_words: how many words `keys` holds (an event's keys past them, or past its
// actor's key_cap, are refused). unique_tickets: every event has its own ticket (the
// device recorder's one counter; a key-clock history's tickets repeat across keys).
template <class K>
KeyHistory assemble(std::vector<DeviceEvent> events, const K* keys, uint64_t key_words, uint64_t key_cap, Header header,
                    const std::vector<std::string>& fn_names, std::string source, bool unique_tickets) {
  // A hold recorded whole (kDeviceHold: hold versions with implied acqs) becomes
  // its acq and its rel, the acq right before the rel in the actor's log (the
  // events come actor by actor, each actor's in its log's order).
  if (std::any_of(events.begin(), events.end(), [](const DeviceEvent& e) { return e.kind == kDeviceHold; })) {
    std::vector<DeviceEvent> split;
    split.reserve(events.size() + events.size() / 2);
    for (DeviceEvent e : events) {
      if (e.kind == kDeviceHold) {
        if (e.t != 0)
          throw FormatError(source, 0, "recorded event at t " + std::to_string(e.t) + " (op " + std::to_string(e.op) +
                                           ", actor " + std::to_string(e.actor) +
                                           "): a whole hold (kind 5) with a ticket; the recorder numbers such holds on their node (t 0)");
        DeviceEvent acq = e;
        acq.kind = kDeviceAcq;
        acq.fn = kHoldUnnumbered;
        split.push_back(acq);
        e.kind = kDeviceRel;
      }
      split.push_back(e);
    }
    events.swap(split);
  }
  // Holds numbered on their nodes (t = 0, hold versions) are placed among the
  // ticketed events first: every event then has its place 1, 2, 3, ...
  if (std::any_of(events.begin(), events.end(), [](const DeviceEvent& e) { return e.t == 0; }))
    events = order_hold_versions(std::move(events), source);
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
  KeyHistory h;
  h.source = std::move(source);
  h.header = std::move(header);
  h.fn_names = fn_names;
  h.events.reserve(events.size());
  // A kind no EventKind names is refused here, naming the event (the format's
  // rules, check_events, judge the rest: an lp without an inv, an lp after its
  // op's ret; two lps of one op are the explicit rule's violation).
  auto refuse = [&](const DeviceEvent& e, const std::string& what) {
    throw FormatError(h.source, 0,
                      "recorded event at t " + std::to_string(e.t) + " (op " + std::to_string(e.op) + ", actor " +
                          std::to_string(e.actor) + "): " + what);
  };
  for (const DeviceEvent& e : events)
    if (e.kind > kDeviceLp) refuse(e, "unknown kind " + std::to_string(e.kind) + " (0 inv, 1 ret, 2 acq, 3 rel, 4 lp)");
  if (unique_tickets)
    for (size_t i = 1; i < events.size(); ++i)
      if (events[i].t == events[i - 1].t)
        refuse(events[i], "its ticket is also op " + std::to_string(events[i - 1].op) + "'s (actor " +
                              std::to_string(events[i - 1].actor) +
                              "): the recorder's one counter gives every event its own ticket");
  IdIndex index = index_ids(events, [](const DeviceEvent& e) { return e.op; }, false);
  // Every event's keys lie in its actor's room and in the buffer (checked before
  // anything is sized by them: a key_len of 2^32 must not reserve 16 GiB). Each
  // event's keys are then copied out in ticket order, so the pool holds exactly the
  // recorded payloads.
  uint64_t pool = 0;
  size_t invs = 0;
  for (const DeviceEvent& e : events) {
    invs += e.kind == kDeviceInv;
    if (e.kind != kDeviceInv && e.kind != kDeviceRet) continue;
    const uint64_t end = uint64_t(e.key_off) + e.key_len;
    if (key_cap && end > key_cap)
      refuse(e, "its keys [" + std::to_string(e.key_off) + ", " + std::to_string(end) + ") run past the actor's key room of " +
                    std::to_string(key_cap) + " words: the recorder overflowed (rerun with more room)");
    if (uint64_t(e.actor) * key_cap + end > key_words)
      refuse(e, "its keys end at word " + std::to_string(uint64_t(e.actor) * key_cap + end) + ", past the " +
                    std::to_string(key_words) + " words recorded");
    pool += e.key_len;
  }
  h.keys.reserve(pool);
  h.ops.reserve(invs);
  auto copy_keys = [&](const DeviceEvent& e, uint64_t& off, uint32_t& len) {
    off = h.keys.size();
    len = e.key_len;
    const K* p = keys + uint64_t(e.actor) * key_cap + e.key_off;
    if constexpr (!std::is_same_v<K, int64_t>)
      for (uint32_t i = 0; i < e.key_len; ++i)
        if (!fits_history_integer(p[i])) refuse(e, key_out_of_history_range(p[i]));
    h.keys.insert(h.keys.end(), p, p + e.key_len);
  };
  for (const DeviceEvent& e : events) {
    const auto kind = static_cast<EventKind>(e.kind);
    h.events.emplace_back(e.t, kind, e.op, e.actor, e.node, 0);
    if (kind == EventKind::Inv) {
      index.set(e.op, static_cast<uint32_t>(h.ops.size()));
      KeyOp o;
      o.id = e.op;
      o.actor = e.actor;
      o.fn = static_cast<uint16_t>(e.fn);
      o.inv_t = e.t;
      copy_keys(e, o.args_off, o.args_len);
      h.ops.push_back(o);
    } else if (kind == EventKind::Ret) {
      const uint32_t i = index.find(e.op);
      if (i == IdIndex::kAbsent) continue;  // rules.h reports it (a ret without an inv)
      KeyOp& o = h.ops[i];
      o.ret_t = e.t;
      o.res_kind = e.is_null ? KeyOp::kNullResult : KeyOp::kKeysResult;
      if (!e.is_null) copy_keys(e, o.res_off, o.res_len);
    }
  }
  return h;
}

}  // namespace

template <class K>
KeyHistory assemble_recorded_history(std::vector<DeviceEvent> events, const K* keys, uint64_t key_words, uint64_t key_cap,
                                     Header header, const std::vector<std::string>& fn_names, std::string source) {
  return assemble(std::move(events), keys, key_words, key_cap, std::move(header), fn_names, std::move(source), false);
}
template KeyHistory assemble_recorded_history(std::vector<DeviceEvent>, const uint32_t*, uint64_t, uint64_t, Header,
                                              const std::vector<std::string>&, std::string);
template KeyHistory assemble_recorded_history(std::vector<DeviceEvent>, const uint64_t*, uint64_t, uint64_t, Header,
                                              const std::vector<std::string>&, std::string);
template KeyHistory assemble_recorded_history(std::vector<DeviceEvent>, const int64_t*, uint64_t, uint64_t, Header,
                                              const std::vector<std::string>&, std::string);

template <class KeyWord>
KeyHistory assemble_device_history(std::vector<DeviceEvent> events, const std::vector<KeyWord>& keys,
                                   uint32_t key_cap, Header header, const std::vector<std::string>& fn_names,
                                   std::string source) {
  return assemble(std::move(events), keys.data(), keys.size(), key_cap, std::move(header), fn_names, std::move(source),
                  true);
}
template KeyHistory assemble_device_history(std::vector<DeviceEvent>, const std::vector<uint32_t>&, uint32_t, Header,
                                            const std::vector<std::string>&, std::string);
template KeyHistory assemble_device_history(std::vector<DeviceEvent>, const std::vector<uint64_t>&, uint32_t, Header,
                                            const std::vector<std::string>&, std::string);

}  // namespace gpulin
