#include "verify/witness/explain.h"

#include <algorithm>

#include "verify/sub_history.h"
#include "verify/witness/replay.h"

namespace gpulin {
namespace {

// The window search's wall-clock limit: the tighter of the window's own and the
// one its search options already carry (0 is none).
double window_time_limit(const WitnessOptions& options) {
  const double own = options.window_seconds, given = options.search.max_seconds;
  if (own <= 0) return given;
  return given > 0 ? std::min(own, given) : own;
}

}  // namespace

WindowExplanation explain_failure(const History& h, const Model& model, const PointScan& scan, size_t failing,
                                  const WitnessOptions& options) {
  const Operation& f = h.ops[failing];
  std::vector<size_t> pos_of(h.ops.size(), SIZE_MAX);
  for (size_t p = 0; p < scan.order.size(); ++p) pos_of[scan.order[p]] = p;

  // The window starts at the earliest (in the rule's order) of the ops that
  // overlap f in time, and at the first point after f's invocation, less
  // window_before ops.
  std::vector<size_t> window;
  std::vector<char> in_window(h.ops.size(), 0);
  size_t q = scan.order.size();
  for (size_t i = 0; i < h.ops.size(); ++i) {
    const Operation& o = h.ops[i];
    if (o.inv_t < f.ret_t && f.inv_t < o.ret_t) {  // pending ops' ret_t is the largest t
      window.push_back(i);
      in_window[i] = 1;
      q = std::min(q, pos_of[i]);
    }
  }
  for (size_t p = 0; p < scan.order.size(); ++p)
    if (scan.points[scan.order[p]].end > f.inv_t) {
      q = std::min(q, p);
      break;
    }
  q -= std::min(q, options.window_before);
  // Then every op the rule orders from there on, unless invoked after f responded.
  for (size_t p = q; p < scan.order.size(); ++p) {
    const size_t i = scan.order[p];
    if (h.ops[i].inv_t < f.ret_t && !in_window[i]) window.push_back(i);
  }

  WindowExplanation x;
  for (size_t i : window) x.ops.push_back(h.ops[i].id);
  std::sort(x.ops.begin(), x.ops.end());
  const Replay before = replay(h, model, scan.order, q);
  if (before.failed) {
    const Operation& early = h.ops[scan.order[before.done]];
    x.verdict = Verdict::Undecided;
    x.message = "the rule's order already fails before the window, at op " + std::to_string(early.id) + " (" +
                early.f + "): the model answers " + model.expected_result(before.states[0], early) +
                ", the op returned " + early.res->to_json();
    return x;
  }
  x.initial_state = before.states[0].describe();

  SearchOptions so = options.search;
  so.initial_state = before.states[0];
  so.max_seconds = window_time_limit(options);
  const SearchResult r = check_search(sub_history(h, window), so);
  x.verdict = r.verdict;
  const std::string around = "the " + std::to_string(window.size()) + " ops around op " + std::to_string(f.id);
  switch (r.verdict) {
    case Verdict::NotLinearizable:
      x.message = around + " have no linearization from the state the rule's order reaches before them (" +
                  x.initial_state + "): not linearizable there, by any points (" + r.message + ")";
      break;
    case Verdict::Linearizable:
      x.message = around + " are linearizable from the state the rule's order reaches before them (" +
                  x.initial_state + "): the history may be linearizable, but not by the proof's points";
      break;
    case Verdict::Undecided:
      x.message = "the search on " + around + " gave up: " + r.message;
      if (r.budget == BudgetExhausted::Time && so.max_seconds == options.window_seconds)
        x.message += " (the window's limit, WitnessOptions::window_seconds)";
      break;
  }
  if (before.capped) x.message += " (possible states after ambiguous pending ops were capped)";
  return x;
}

}  // namespace gpulin
