#include "render/timeline.h"

#include <algorithm>
#include <unordered_map>

#include "verify/minimise.h"
#include "verify/model_registry.h"
#include "verify/search_checker.h"
#include "verify/witness/points.h"
#include "verify/witness_checker.h"

namespace gpulin::render {

namespace {

std::string shorten(std::string s) {
  if (s.size() > kStateChars) s = s.substr(0, kStateChars - 3) + "...";
  return s;
}

// Replays ops (indices, in order) on the model from its initial state, one point
// each at its time; stops at the first completed op whose result the state does not
// give. A pending op takes the first of its possible effects.
size_t replay_points(const History& h, const Model& model, const std::vector<size_t>& order,
                     const std::vector<double>& t, Timeline& out) {
  State s = model.initial_state();
  for (size_t k = 0; k < order.size(); ++k) {
    const Operation& op = h.ops[order[k]];
    if (op.pending()) {
      std::vector<State> next;
      model.apply_pending(s, op, next);
      if (!next.empty()) s = std::move(next.front());
    } else if (!model.apply(s, op)) {
      return k;
    }
    out.points.push_back(TimelinePoint{order[k], t[k], shorten(s.describe())});
  }
  return order.size();
}

std::vector<size_t> indices(const History& h, const std::vector<int64_t>& ids) {
  const std::unordered_map<int64_t, size_t> at = op_indices(h);
  std::vector<size_t> out;
  for (int64_t id : ids)
    if (auto it = at.find(id); it != at.end()) out.push_back(it->second);
  return out;
}

void by_rule(const History& h, const Model& model, const TimelineOptions& o, Timeline& tl) {
  const LpRule rule = lp_rule_of(h);
  tl.method = "witness (rule " + h.header.lp_rule + ")";
  const PointScan scan = scan_points(h, rule);
  std::vector<double> t;
  for (size_t i : scan.order) {
    const OpPoint& p = scan.points[i];
    t.push_back(static_cast<double>(p.end == kPending ? (h.events.empty() ? 0 : h.events.back().t) : p.end));
  }
  const size_t done = replay_points(h, model, scan.order, t, tl);
  // The replay above is the witness check's own when the holds are sound and every
  // result fits (a pending op's first effect fitting means some effect fits): no
  // second pass then. Otherwise the checker decides and explains.
  if (!scan.violation && done == scan.order.size()) {
    tl.verdict = Verdict::Linearizable;
    tl.message = "linearizable by the rule's points";
    return;
  }
  WitnessOptions wo;
  wo.explain = true;
  wo.window_seconds = o.search_seconds;
  const WitnessResult w = check_witness(h, wo);
  tl.verdict = w.verdict;
  if (!w.violation) {
    tl.message = "linearizable by the rule's points";
    return;
  }
  tl.message = w.violation->message;
  tl.failing = h.index_of(w.violation->op);
  if (tl.failing >= 0 && scan.points[tl.failing].has && scan.points[tl.failing].end != kPending)
    tl.failing_t = static_cast<double>(scan.points[tl.failing].end);
  tl.prefix.assign(scan.order.begin(), scan.order.begin() + static_cast<ptrdiff_t>(std::min(done, scan.order.size())));
  if (w.explanation) {
    tl.window = indices(h, w.explanation->ops);
    tl.message += "; the window: " + w.explanation->message;
  }
}

// The search's order placed in time: each point at the earliest moment inside its
// op's interval after the one before (a linearization always allows it).
std::vector<double> place(const History& h, const std::vector<size_t>& order) {
  std::vector<double> t;
  double last = -1;
  for (size_t i : order) {
    const Operation& op = h.ops[i];
    double at = std::max(last + 0.01, static_cast<double>(op.inv_t) + 0.5);
    if (!op.pending()) at = std::min(at, static_cast<double>(op.ret_t) - 0.01);
    t.push_back(at);
    last = at;
  }
  return t;
}

void by_search(const History& h, const Model& model, const TimelineOptions& o, Timeline& tl) {
  tl.method = "search";
  SearchOptions so;
  so.max_seconds = o.search_seconds;
  so.keep_linearizations = true;
  const SearchResult r = check_search(h, so);
  tl.verdict = r.verdict;
  tl.message = r.message;
  if (r.verdict == Verdict::Undecided) {
    tl.notes = "the search ran out of budget: no linearization to show";
    return;
  }
  if (r.verdict == Verdict::Linearizable) {
    // One partition: one order from the initial state. Several (a keyed model):
    // each key's order from its own initial state, marks joined within a key.
    for (const std::vector<int64_t>& lin : r.linearizations) {
      const std::vector<size_t> order = indices(h, lin);
      replay_points(h, model, order, place(h, order), tl);
    }
    if (r.linearizations.size() > 1) tl.notes = "the model is keyed: points are ordered within each key";
    return;
  }
  tl.prefix = indices(h, r.longest_prefix);
  replay_points(h, model, tl.prefix, place(h, tl.prefix), tl);
  if (!r.stuck_ops.empty()) tl.failing = h.index_of(r.stuck_ops.front());
  if (h.ops.size() <= o.minimise_max_ops) {
    SearchOptions mo;
    mo.max_seconds = o.search_seconds;
    // What `gpulin check` prints as minimal: it fails at tl.failing, with the writes read.
    const History small = minimise(h, CheckMethod::Search, mo).history;
    for (const Operation& op : small.ops) tl.window.push_back(static_cast<size_t>(h.index_of(op.id)));
  } else {
    tl.window = indices(h, r.stuck_ops);
    tl.notes = "over " + std::to_string(o.minimise_max_ops) + " ops: the window is the ops the search was stuck on, not minimised";
  }
}

}  // namespace

std::unordered_map<int64_t, size_t> op_indices(const History& h) {
  std::unordered_map<int64_t, size_t> at;
  at.reserve(h.ops.size());
  for (size_t i = 0; i < h.ops.size(); ++i) at.emplace(h.ops[i].id, i);
  return at;
}

Timeline build_timeline(const History& h, const TimelineOptions& o) {
  const Model& model = model_for(h);
  model.validate_ops(h);
  Timeline tl;
  if (h.header.lp_rule.empty()) {
    by_search(h, model, o, tl);
    return tl;
  }
  try {
    by_rule(h, model, o, tl);
  } catch (const FormatError& e) {
    // Holds the rule cannot read (a release without its acquire: a structure that
    // unlocks what it never locked) are the run's failure to show, not a reason to
    // show nothing: the search decides, and the page says why.
    tl = Timeline{};
    by_search(h, model, o, tl);
    tl.notes = std::string("the lp_rule's points cannot be read (") + e.what() + "); the search decided instead" +
               (tl.notes.empty() ? "" : "; " + tl.notes);
  }
  return tl;
}

}  // namespace gpulin::render
