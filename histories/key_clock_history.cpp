#include "histories/key_clock_history.h"

#include <string>

#include "histories/assemble_events.h"
#include "histories/device_events.h"

namespace gpulin {

KeyHistory assemble_key_clock_history(const std::vector<KeyClockRecord>& records, uint32_t clock_bits, Header header,
                                      const std::vector<std::string>& fn_names, std::string source) {
  auto refuse = [&](size_t op, const std::string& what) {
    throw FormatError(source, 0, "key-clock record of op " + std::to_string(op) + ": " + what);
  };
  if (clock_bits > kKeyClockMaxBits)
    throw FormatError(source, 0, "key clocks: " + std::to_string(clock_bits) + " clock bits (at most 20)");
  if (records.size() >= (uint64_t{1} << 30))
    throw FormatError(source, 0, "key clocks: " + std::to_string(records.size()) + " records (at most 2^30)");
  std::vector<DeviceEvent> events;
  std::vector<uint32_t> keys;
  events.reserve(records.size() * 3);
  keys.reserve(records.size() * 2);
  uint32_t launch_of_prev = 0;
  constexpr uint32_t kTicketLimit = uint32_t{1} << kKeyClockTicketBits;
  for (size_t op = 0; op < records.size(); ++op) {
    const KeyClockRecord& r = records[op];
    if (r.inv_t == 0) refuse(op, "never written (the operation was not run, or its record was overwritten)");
    for (uint32_t t : {r.inv_t, r.lp_t, r.ret_t})
      if (t >= kTicketLimit) refuse(op, "ticket " + std::to_string(t) + " is at or past 2^30: its key's clock wrapped");
    const uint32_t args_len = r.shape & 3u, res_len = (r.shape >> 2) & 1u, launch = r.shape >> 8;
    const bool res_null = (r.shape >> 3) & 1u;
    // A record holds two argument words (key, value): args_len 3 would read past them.
    if (args_len == 0 || args_len > 2 || (res_null && res_len))
      refuse(op, "malformed shape word " + std::to_string(r.shape));
    if (launch >= (uint32_t{1} << kKeyClockEpochBits)) refuse(op, "launch " + std::to_string(launch) + " is past 2^13");
    if (r.fn >= fn_names.size()) refuse(op, "unknown operation " + std::to_string(r.fn));
    if (op != 0 && launch < launch_of_prev) refuse(op, "launch " + std::to_string(launch) + " after a later one");
    launch_of_prev = launch;
    const uint32_t clock = key_clock_of(r.args[0], clock_bits);
    // Each operation is its own actor. The thread that ran it runs one operation a
    // launch, and the launches' order is in t already; a thread id as the actor
    // would add nothing but make an operation that never returned (an insert with
    // no free memory) block that thread's later ones.
    const uint32_t actor = static_cast<uint32_t>(op);
    const int64_t id = static_cast<int64_t>(op);
    DeviceEvent inv{key_clock_t(launch, r.inv_t, clock), id, 0, kDeviceInv, r.fn, uint32_t(keys.size()), args_len, 0, actor};
    keys.insert(keys.end(), r.args, r.args + args_len);
    events.push_back(inv);
    if (r.lp_t) events.push_back(DeviceEvent{key_clock_t(launch, r.lp_t, clock), id, 0, kDeviceLp, 0, 0, 0, 0, actor});
    if (r.ret_t) {
      events.push_back(DeviceEvent{key_clock_t(launch, r.ret_t, clock), id, 0, kDeviceRet, 0, uint32_t(keys.size()),
                                   res_len, res_null ? 1u : 0u, actor});
      if (res_len) keys.push_back(r.res);
    }
  }
  // One clock orders every event: t is then real time (the default order).
  if (clock_bits != 0) header.extra.emplace_back(kOrderField, kOrderPerKey);
  return assemble_recorded_history(std::move(events), keys.data(), keys.size(), 0, std::move(header), fn_names,
                                   std::move(source));
}

}  // namespace gpulin
