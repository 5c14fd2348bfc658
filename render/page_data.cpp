#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "render/page.h"

namespace gpulin::render {

namespace {

void str(std::string& out, std::string_view s) { append_json_string(out, s); }

}  // namespace

std::string page_json(const History& h, const Timeline& tl, const PageOptions& o) {
  const uint64_t from = o.from.value_or(0), to = o.to.value_or(kPending);
  auto shown = [&](const Operation& op) { return op.inv_t <= to && (op.pending() || op.ret_t >= from); };
  // Ops drawn, renumbered; the lane of each actor in order of first appearance.
  std::vector<int64_t> new_index(h.ops.size(), -1);
  std::unordered_map<int64_t, size_t> lane_of;
  std::vector<int64_t> actors;
  uint64_t t0 = kPending;
  size_t n = 0;
  for (size_t i = 0; i < h.ops.size(); ++i) {
    if (!shown(h.ops[i])) continue;
    new_index[i] = static_cast<int64_t>(n++);
    t0 = std::min(t0, h.ops[i].inv_t);
    if (lane_of.emplace(h.ops[i].actor, actors.size()).second) actors.push_back(h.ops[i].actor);
  }
  if (t0 == kPending) t0 = 0;
  auto rel_t = [&](uint64_t t) { return t == kPending ? int64_t{-1} : static_cast<int64_t>(t - std::min(t, t0)); };

  std::string j;
  j.reserve(256 + h.ops.size() * 96);
  j += "{\"title\":";
  str(j, o.title);
  j += ",\"note\":";
  str(j, o.note);
  j += ",\"model\":";
  str(j, h.header.model);
  j += ",\"rule\":";
  str(j, h.header.lp_rule);
  j += ",\"verdict\":";
  str(j, to_string(tl.verdict));
  j += ",\"verdict_text\":";
  str(j, o.verdict_text);
  j += ",\"method\":";
  str(j, tl.method);
  j += ",\"message\":";
  str(j, tl.message);
  j += ",\"notes\":";
  str(j, tl.notes);
  j += fmt::format(",\"total_ops\":{},\"t0\":\"{}\",\"from\":{},\"to\":{}", h.ops.size(), t0, o.from ? rel_t(*o.from) : -1,
                   o.to ? rel_t(*o.to) : -1);
  j += ",\"actors\":[";
  for (size_t a = 0; a < actors.size(); ++a) j += fmt::format("{}{}", a ? "," : "", actors[a]);
  j += "],\"ops\":[";
  bool first = true;
  for (size_t i = 0; i < h.ops.size(); ++i) {
    if (new_index[i] < 0) continue;
    const Operation& op = h.ops[i];
    j += first ? "[" : ",[";
    first = false;
    j += fmt::format("{},{},", op.id, lane_of[op.actor]);
    str(j, op.f);
    j += ',';
    str(j, op.args.to_json());
    j += ',';
    if (op.res) str(j, op.res->to_json());
    else j += "null";
    j += fmt::format(",{},{}]", rel_t(op.inv_t), rel_t(op.ret_t));
  }
  // Holds: each acq paired with the same op's next rel of that node.
  j += "],\"holds\":[";
  first = true;
  std::unordered_map<int64_t, std::vector<size_t>> open;  // op id -> positions of its open acq in `holds`
  struct Hold { size_t op; int64_t node; uint64_t acq, rel; };
  std::vector<Hold> holds;
  const std::unordered_map<int64_t, size_t> index_of = op_indices(h);
  for (const Event& e : h.events) {
    if (e.kind != EventKind::Acq && e.kind != EventKind::Rel) continue;
    const auto it = index_of.find(e.op);
    if (it == index_of.end() || new_index[it->second] < 0) continue;
    const size_t i = it->second;
    if (e.kind == EventKind::Acq) {
      open[e.op].push_back(holds.size());
      holds.push_back(Hold{static_cast<size_t>(new_index[i]), e.node, e.t, kPending});
    } else {
      auto& v = open[e.op];
      for (size_t k = v.size(); k-- > 0;)
        if (holds[v[k]].node == e.node) {
          holds[v[k]].rel = e.t;
          v.erase(v.begin() + static_cast<ptrdiff_t>(k));
          break;
        }
    }
  }
  for (const Hold& x : holds) {
    j += fmt::format("{}[{},{},{},{}]", first ? "" : ",", x.op, x.node, rel_t(x.acq), rel_t(x.rel));
    first = false;
  }
  j += "],\"points\":[";
  first = true;
  for (const TimelinePoint& p : tl.points) {
    if (new_index[p.op] < 0) continue;
    j += fmt::format("{}[{},{},", first ? "" : ",", new_index[p.op], p.t - static_cast<double>(t0));
    str(j, p.state);
    j += ']';
    first = false;
  }
  auto list = [&](const char* name, const std::vector<size_t>& ops) {
    j += fmt::format(",\"{}\":[", name);
    bool f = true;
    for (size_t i : ops)
      if (new_index[i] >= 0) j += fmt::format("{}{}", f ? "" : ",", new_index[i]), f = false;
    j += ']';
  };
  j += ']';
  list("window", tl.window);
  list("prefix", tl.prefix);
  j += fmt::format(",\"failing\":{},\"fail_t\":{}", tl.failing >= 0 ? new_index[tl.failing] : -1,
                   tl.failing_t >= 0 ? tl.failing_t - static_cast<double>(t0) : -1.0);
  // The run's marks between drawn ops; a read of a value from before the run (no
  // op) is drawn from the timeline's start on the reader's lane.
  j += ",\"marks\":[";
  first = true;
  const auto drawn = [&](int64_t op) -> int64_t {
    const auto it = index_of.find(op);
    return it == index_of.end() ? -1 : new_index[it->second];
  };
  for (const RunMark& m : o.marks) {
    const int64_t b = drawn(m.to_op), a = m.from_op < 0 ? b : drawn(m.from_op);
    if (a < 0 || b < 0) continue;
    const double from_t = m.from_op < 0 ? 0.0 : m.from_t - static_cast<double>(t0);
    j += fmt::format("{}[{},{},{},{},{},", first ? "" : ",", m.race ? 1 : 0, a, from_t, b, m.to_t - static_cast<double>(t0));
    str(j, m.text);
    j += ']';
    first = false;
  }
  j += "],\"stepper\":";
  j += o.stepper ? stepper_json(*o.stepper) : "null";
  j += ",\"no_stepper\":";
  str(j, o.no_stepper);
  j += '}';
  return j;
}

}  // namespace gpulin::render
