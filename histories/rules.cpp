#include "histories/rules.h"

#include "histories/key_history.h"

#include <fmt/format.h>

#include <algorithm>

#include "histories/huge_pages.h"
#include "histories/id_index.h"
#include "histories/model_catalog.h"

namespace gpulin {

namespace {

// " (line N)" for events read from a file; nothing for events built in code,
// whose line is 0 and would only confuse.
std::string at_line(uint32_t line) { return line ? fmt::format(" (line {})", line) : std::string(); }

void require_positive_param(const Header& h, const char* key, const std::string& file, uint32_t line) {
  const Value* v = h.params.find(key);
  if (!v || !v->is_int() || v->as_int() < 1)
    throw FormatError(file, line, fmt::format("model {} needs params.{}, an integer >= 1", h.model, key));
}

// The locks each operation holds, as a short list per operation threaded through
// one pool: an operation holds a few nodes at a time, and a hash map's per-event
// allocation costs more than the scan on histories of millions of lock events.
class HeldLocks {
 public:
  explicit HeldLocks(size_t ops) { assign_huge(head_, ops, kNone); }

  // Whether op `s` holds `node`; if so, `acq_line` is the line of its acq.
  bool holds(uint32_t s, int64_t node, uint32_t& acq_line) const {
    for (uint32_t k = head_[s]; k != kNone; k = pool_[k].next)
      if (pool_[k].node == node) {
        acq_line = pool_[k].acq_line;
        return true;
      }
    return false;
  }
  void acquire(uint32_t s, int64_t node, uint32_t line) {
    uint32_t k = free_;
    if (k == kNone) {
      k = static_cast<uint32_t>(pool_.size());
      pool_.push_back({});
    } else {
      free_ = pool_[k].next;
    }
    pool_[k] = Hold{node, line, head_[s]};
    head_[s] = k;
  }
  // False when op `s` does not hold `node`.
  bool release(uint32_t s, int64_t node) {
    uint32_t* link = &head_[s];
    while (*link != kNone && pool_[*link].node != node) link = &pool_[*link].next;
    if (*link == kNone) return false;
    const uint32_t k = *link;
    *link = pool_[k].next;
    pool_[k].next = free_;
    free_ = k;
    return true;
  }

 private:
  static constexpr uint32_t kNone = OpSpan::kNone;
  struct Hold {
    int64_t node;
    uint32_t acq_line;
    uint32_t next;
  };
  std::vector<uint32_t> head_;
  std::vector<Hold> pool_;
  uint32_t free_ = kNone;
};

// Checks that every t is unique and returns an (empty) index over the range of
// the events' op ids: one pass over events that may be hundreds of MB.
IdIndex check_unique_t_and_index_ops(std::span<const Event> ev, const std::string& file) {
  int64_t lo = ev.empty() ? 0 : ev[0].op, hi = ev.empty() ? -1 : ev[0].op;
  for (size_t i = 1; i < ev.size(); ++i) {
    lo = std::min(lo, ev[i].op), hi = std::max(hi, ev[i].op);
    if (ev[i].t != ev[i - 1].t) continue;
    // Both lines hold the t; the later one in the file is where it "shows".
    const uint32_t later = std::max(ev[i].line, ev[i - 1].line);
    const uint32_t earlier = std::min(ev[i].line, ev[i - 1].line);
    throw FormatError(file, later, fmt::format("duplicate t {}: every t must be unique{}", ev[i].t,
                                               earlier ? fmt::format(" (also on line {})", earlier) : ""));
  }
  return IdIndex(lo, hi, ev.size());
}

// Registers every inv; rejects a second inv of one op.
std::vector<OpSpan> collect_invocations(std::span<const Event> ev, IdIndex& index, const std::string& file) {
  std::vector<OpSpan> spans;
  // At most one op an event; the room reserved and not used is never touched.
  reserve_huge(spans, ev.size());
  for (uint32_t i = 0; i < ev.size(); ++i) {
    const Event& e = ev[i];
    if (e.kind != EventKind::Inv) continue;
    const uint32_t found = index.find(e.op);
    if (found != IdIndex::kAbsent)
      throw FormatError(file, e.line, fmt::format("second inv for op {}: an operation has exactly one inv{}", e.op,
                                                  at_line(ev[spans[found].inv_event].line)));
    index.set(e.op, static_cast<uint32_t>(spans.size()));
    spans.push_back(OpSpan{e.op, e.actor, i, OpSpan::kNone});
  }
  return spans;
}

// Places every non-inv event inside its operation; checks actors and lock pairs.
void place_other_events(std::span<const Event> ev, std::vector<OpSpan>& spans, const IdIndex& index,
                        const std::string& file) {
  HeldLocks held(spans.size());
  for (uint32_t i = 0; i < ev.size(); ++i) {
    const Event& e = ev[i];
    if (e.kind == EventKind::Inv) continue;
    const char* kind = to_string(e.kind);
    const uint32_t s = index.find(e.op);
    if (s == IdIndex::kAbsent)
      throw FormatError(file, e.line, fmt::format("{} event of op {}, which has no inv", kind, e.op));
    OpSpan& span = spans[s];
    const Event& inv = ev[span.inv_event];
    if (e.actor != span.actor)
      throw FormatError(file, e.line,
                        fmt::format("{} event of op {} has actor {}, but the op's inv has actor {}{}", kind, e.op,
                                    e.actor, span.actor, at_line(inv.line)));
    if (e.t < inv.t)
      throw FormatError(file, e.line,
                        fmt::format("{} event of op {} at t {} is not strictly between its inv and ret: "
                                    "it comes before the inv at t {}{}",
                                    kind, e.op, e.t, inv.t, at_line(inv.line)));
    if (span.ret_event != OpSpan::kNone) {
      const Event& ret = ev[span.ret_event];
      if (e.kind == EventKind::Ret)
        throw FormatError(file, e.line, fmt::format("second ret for op {}: an operation has at most one ret{}",
                                                    e.op, at_line(ret.line)));
      throw FormatError(file, e.line,
                        fmt::format("{} event of op {} at t {} is not strictly between its inv and ret: "
                                    "it comes after the ret at t {}{}",
                                    kind, e.op, e.t, ret.t, at_line(ret.line)));
    }
    if (e.kind == EventKind::Ret) {
      // Operation::ret_t uses this t to mean "no ret", so a ret there would read as pending.
      if (e.t == kPending)
        throw FormatError(file, e.line,
                          fmt::format("ret of op {} at t {} (2^64 - 1): that t is reserved to mark pending "
                                      "operations; a ret needs a smaller t",
                                      e.op, e.t));
      span.ret_event = i;
    } else if (e.kind == EventKind::Acq) {
      uint32_t held_since = 0;
      if (held.holds(s, e.node, held_since))
        throw FormatError(file, e.line,
                          fmt::format("acq of node {} by op {} while it already holds that node "
                                      "(acq and rel must alternate, starting with acq){}",
                                      e.node, e.op, at_line(held_since)));
      held.acquire(s, e.node, e.line);
    } else if (e.kind == EventKind::Rel) {
      if (!held.release(s, e.node))
        throw FormatError(file, e.line,
                          fmt::format("rel of node {} by op {} without a preceding acq "
                                      "(acq and rel must alternate, starting with acq)",
                                      e.node, e.op));
    }
  }
}

// Ops of one actor must not overlap. Spans are in inv order, so comparing each op
// with the actor's previous one suffices: earlier ones returned before that one began.
void check_actor_overlap(std::span<const Event> ev, const std::vector<OpSpan>& spans, const std::string& file) {
  IdIndex last = index_ids(spans, [](const OpSpan& s) { return s.actor; }, false);
  for (uint32_t i = 0; i < spans.size(); ++i) {
    const OpSpan& s = spans[i];
    const uint32_t p = last.find(s.actor);
    last.set(s.actor, i);
    if (p == IdIndex::kAbsent) continue;
    const OpSpan& prev = spans[p];
    const Event& inv = ev[s.inv_event];
    if (prev.ret_event == OpSpan::kNone)
      throw FormatError(file, inv.line,
                        fmt::format("op {} of actor {} starts while op {} of the same actor is pending "
                                    "(no ret; inv at t {}{}): one actor runs one operation at a time",
                                    s.id, s.actor, prev.id, ev[prev.inv_event].t, at_line(ev[prev.inv_event].line)));
    const Event& ret = ev[prev.ret_event];
    if (ret.t > inv.t)
      throw FormatError(file, inv.line,
                        fmt::format("op {} of actor {} starts at t {} before op {} of the same actor returned "
                                    "(ret at t {}{}): one actor runs one operation at a time",
                                    s.id, s.actor, inv.t, prev.id, ret.t, at_line(ret.line)));
  }
}

}  // namespace

std::vector<std::string> known_models() {
  std::vector<std::string> names;
  for (const ModelInfo& m : model_catalog()) names.push_back(m.name);
  return names;
}

void check_header(const Header& h, const std::string& file, uint32_t line) {
  if (h.version != 1)
    throw FormatError(file, line, fmt::format("unsupported history version {} (this reader knows version 1)", h.version));
  const ModelInfo* model = find_model_info(h.model);
  if (!model) {
    std::string known;
    for (const std::string& m : known_models()) known += (known.empty() ? "" : ", ") + m;
    throw FormatError(file, line, fmt::format("unknown model '{}' (known: {})", h.model, known));
  }
  if (!h.params.is_object()) throw FormatError(file, line, "header field 'params' must be an object");
  for (const std::string& param : model->positive_params) require_positive_param(h, param.c_str(), file, line);
  if (!h.lp_rule.empty() && h.lp_rule != "root-release" && h.lp_rule != "last-lock" && h.lp_rule != "explicit")
    throw FormatError(file, line,
                      fmt::format("header field 'lp_rule' is '{}'; it must be one of root-release, last-lock, explicit",
                                  h.lp_rule));
  for (size_t i = 0; i < h.extra.size(); ++i) {
    const std::string& key = h.extra[i].first;
    // "order" (history-format.md, "Order by key"): "per-key" orders events of
    // different keys only loosely, which only a model of single-key operations,
    // whose linearizability is decided key by key, may be judged on.
    if (key == kOrderField) {
      const std::string& v = h.extra[i].second;
      if (v != kOrderPerKey && v != kOrderRealTime)
        throw FormatError(file, line, fmt::format("header field 'order' is {}; it must be \"real-time\" or \"per-key\"", v));
      if (v == kOrderPerKey && !keyed_model(h.model))
        throw FormatError(file, line,
                          fmt::format("header field 'order' is \"per-key\", which only the single-key models map, set "
                                      "and multimap allow; model '{}' needs real-time order across keys",
                                      h.model));
    }
    if (key == "history" || key == "model" || key == "params" || key == "lp_rule")
      throw FormatError(file, line, fmt::format("header extra field '{}' repeats a standard field", key));
    for (size_t j = 0; j < i; ++j)
      if (h.extra[j].first == key) throw FormatError(file, line, fmt::format("duplicate header field '{}'", key));
  }
}

std::vector<OpSpan> check_events(std::span<const Event> events, const std::string& file) {
  if (events.size() >= OpSpan::kNone)
    throw FormatError(file, 0, "too many events (more than 2^32 - 2)");
  IdIndex index = check_unique_t_and_index_ops(events, file);
  std::vector<OpSpan> spans = collect_invocations(events, index, file);
  place_other_events(events, spans, index, file);
  check_actor_overlap(events, spans, file);
  return spans;
}

void validate_history(const History& h) {
  const std::string& file = h.source;
  check_header(h.header, file, 0);
  for (size_t i = 1; i < h.events.size(); ++i)
    if (h.events[i].t < h.events[i - 1].t)
      throw FormatError(file, h.events[i].line,
                        fmt::format("events are not sorted by t (t {} after t {}); call History::normalize()",
                                    h.events[i].t, h.events[i - 1].t));
  const std::vector<OpSpan> spans = check_events(h.events, file);
  if (spans.size() != h.ops.size())
    throw FormatError(file, 0,
                      fmt::format("the events invoke {} operations but ops holds {}", spans.size(), h.ops.size()));
  for (size_t i = 0; i < spans.size(); ++i) {
    const OpSpan& s = spans[i];
    const Operation& op = h.ops[i];
    const Event& inv = h.events[s.inv_event];
    const bool has_ret = s.ret_event != OpSpan::kNone;
    const uint64_t ret_t = has_ret ? h.events[s.ret_event].t : kPending;
    if (op.id != s.id || op.actor != s.actor || op.inv_t != inv.t || op.ret_t != ret_t)
      throw FormatError(file, inv.line,
                        fmt::format("ops[{}] (op {}, actor {}, inv_t {}, ret_t {}) does not match the events of op {} "
                                    "(actor {}, inv_t {}, ret_t {}); ops must be sorted by inv_t",
                                    i, op.id, op.actor, op.inv_t, op.ret_t, s.id, s.actor, inv.t, ret_t));
    if (!op.args.is_array())
      throw FormatError(file, inv.line, fmt::format("op {}: args must be an array", op.id));
    if (op.res.has_value() != has_ret)
      throw FormatError(file, has_ret ? h.events[s.ret_event].line : inv.line,
                        fmt::format("op {}: res must be present exactly when the op has a ret", op.id));
  }
}

}  // namespace gpulin
