#include "histories/published_clock_history.h"

#include <algorithm>
#include <string>

#include "histories/key_clock_history.h"

namespace gpulin {

namespace {

// ids: null, or record i is op ids[i]'s (messages name it so; the caller renumbers).
KeyHistory assemble_published(const std::vector<PublishedRecord>& records, const std::vector<PublishedCall>& calls,
                              const std::vector<int64_t>* ids, const std::vector<PublishedTick>& ticks, bool overflow,
                              Header header, const std::vector<std::string>& fn_names, std::string source) {
  auto refuse = [&](size_t op, const std::string& what) {
    const int64_t id = ids ? (*ids)[op] : static_cast<int64_t>(op);
    throw FormatError(source, 0, "published-clock record of op " + std::to_string(id) + ": " + what);
  };
  if (overflow)
    throw FormatError(source, 0, "published clock: the ticker's log was full and lost sightings (" +
                                     std::to_string(ticks.size()) + " kept); record with a larger tick log");
  if (calls.size() != records.size())
    throw FormatError(source, 0, "published clock: " + std::to_string(records.size()) + " records but " +
                                     std::to_string(calls.size()) + " calls");
  if (records.size() >= (uint64_t{1} << 29))
    throw FormatError(source, 0, "published clock: " + std::to_string(records.size()) + " records (at most 2^29)");
  // Each multiprocessor's sightings in log order: its clock only grows, G too.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> seen(kPublishedMaxSms);  // (value, g)
  for (const PublishedTick& t : ticks) {
    if (t.sm >= kPublishedMaxSms)
      throw FormatError(source, 0, "published clock: a sighting of multiprocessor " + std::to_string(t.sm));
    auto& s = seen[t.sm];
    if (!s.empty() && (t.value < s.back().first || t.g <= s.back().second))
      throw FormatError(source, 0, "published clock: multiprocessor " + std::to_string(t.sm) + "'s sightings go back");
    s.emplace_back(t.value, t.g);
  }
  // The order: a ret published at g (key 2g + 1) before an inv that loaded more
  // than g (key 2 inv); ties (same key) by op id, invs among invs and rets among
  // rets, which no precedence tells apart.
  struct Event {
    uint64_t key;
    uint32_t op;
    bool ret;
  };
  std::vector<Event> order;
  order.reserve(records.size() * 2);
  for (size_t op = 0; op < records.size(); ++op) {
    const PublishedRecord& r = records[op];
    if (r.shape == 0) refuse(op, "never written (the operation was not run, or its record was overwritten)");
    const uint32_t sm = (r.shape >> 8) & 0xFFu;
    order.push_back({2 * uint64_t{r.inv}, uint32_t(op), false});
    if (r.ret == 0) continue;  // pending
    const auto& s = seen[sm];
    const auto at = std::lower_bound(s.begin(), s.end(), std::make_pair(r.ret, uint32_t{0}));
    if (at == s.end())
      refuse(op, "its ret (multiprocessor " + std::to_string(sm) + " at " + std::to_string(r.ret) +
                     ") was never published by the ticker");
    if (at->second < r.inv)
      refuse(op, "its ret was published at G " + std::to_string(at->second) + ", before its inv loaded G " +
                     std::to_string(r.inv));
    order.push_back({2 * uint64_t{at->second} + 1, uint32_t(op), true});
  }
  std::sort(order.begin(), order.end(), [](const Event& a, const Event& b) {
    return a.key != b.key ? a.key < b.key : a.op != b.op ? a.op < b.op : a.ret < b.ret;
  });
  std::vector<KeyClockRecord> clocked(records.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const uint32_t ticket = static_cast<uint32_t>(i + 1);
    KeyClockRecord& c = clocked[order[i].op];
    (order[i].ret ? c.ret_t : c.inv_t) = ticket;
  }
  for (size_t op = 0; op < records.size(); ++op) {
    const PublishedRecord& r = records[op];
    KeyClockRecord& c = clocked[op];
    c.fn = (r.shape >> 4) & 0xFu;
    c.args[0] = calls[op].key;
    c.args[1] = calls[op].value;
    c.res = r.res;
    c.shape = key_clock_shape(r.shape & 3u, (r.shape >> 2) & 1u, (r.shape >> 3) & 1u, r.shape >> 16);
  }
  return assemble_key_clock_history(clocked, 0, std::move(header), fn_names, std::move(source));
}

}  // namespace

KeyHistory assemble_published_history(const std::vector<PublishedRecord>& records, const std::vector<PublishedCall>& calls,
                                      const std::vector<PublishedTick>& ticks, bool overflow, Header header,
                                      const std::vector<std::string>& fn_names, std::string source) {
  return assemble_published(records, calls, nullptr, ticks, overflow, std::move(header), fn_names, std::move(source));
}

KeyHistory assemble_published_ops(const std::vector<PublishedRecord>& records, const std::vector<PublishedCall>& calls,
                                  const std::vector<int64_t>& ids, const std::vector<PublishedTick>& ticks,
                                  bool overflow, Header header, const std::vector<std::string>& fn_names,
                                  std::string source) {
  if (ids.size() != records.size())
    throw FormatError(source, 0, "published clock: " + std::to_string(records.size()) + " records but " +
                                     std::to_string(ids.size()) + " op ids");
  KeyHistory h = assemble_published(records, calls, &ids, ticks, overflow, std::move(header), fn_names, std::move(source));
  // Op i of the assembly, its own actor i, is op ids[i]. No t changes, so the ops'
  // order (by inv) and the events' (by t) stay as they are.
  auto id_of = [&](int64_t i) { return ids[static_cast<size_t>(i)]; };
  for (KeyOp& op : h.ops) op.id = id_of(op.id), op.actor = id_of(op.actor);
  for (Event& e : h.events) e.op = id_of(e.op), e.actor = id_of(e.actor);
  return h;
}

}  // namespace gpulin
