#include "tools/check_keyed.h"

#include <chrono>

#include "histories/key_history_reader.h"
#include "tools/check_report.h"
#include "verify/distinct_pq_checker.h"
#include "verify/keyed_linear/keyed_check.h"
#include "verify/minimise.h"
#include "verify/pq_linear/lean_witness.h"

namespace gpulin::cli {

namespace {

std::string count_text(size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// The key (first argument) of the op with this id.
int64_t key_of_op(const KeyHistory& h, int64_t id) {
  // Recorded ids are 0, 1, 2, ... in inv order: look there first.
  const KeyOp* op = id >= 0 && static_cast<uint64_t>(id) < h.ops.size() && h.ops[id].id == id ? &h.ops[id] : nullptr;
  for (size_t i = 0; !op && i < h.ops.size(); ++i)
    if (h.ops[i].id == id) op = &h.ops[i];
  return h.keys[op->args_off];
}

// The keyed check's report: the rule's order per key and, where it fails, the
// search's verdict on the failing keys' operations (auto) or the rule's failure
// with the window search on its key (witness); a minimal failing sub-history of
// one failing key. False when the keyed check cannot judge the history.
bool keyed_report(const KeyHistory& h, const KeyedCheckArgs& a, CheckReport& out) {
  KeyedCheckOptions ko;
  ko.decide = a.method == "auto";
  ko.search = a.search;
  const KeyedCheckResult r = check_keyed_linear(h, ko);
  if (!r.applicable) return false;
  const bool by_ret = h.header.lp_rule.empty();  // no lp events: the rets' order, a candidate only
  out.method = by_ret ? "ret order (per key)" : "witness " + h.header.lp_rule + " (per key)";
  out.verdict = r.verdict;
  if (r.witness.verdict == Verdict::Linearizable) return true;
  const WitnessViolation& v = *r.witness.violation;
  int64_t shown = 0;  // the key whose operations are minimised
  CheckMethod by = CheckMethod::Witness;
  if (r.search) {
    const SearchResult& s = *r.search;
    const std::string where = (by_ret ? "the rets' order fails on " : "the proof's points fail on ") +
                              count_text(r.failing_keys.size(), "key") + " (" + count_text(r.failing_ops, "operation") +
                              "), first: " + v.message;
    out.method += ", then search on " + count_text(r.failing_keys.size(), "key");
    out.states = s.states_explored;
    out.steps = s.steps;
    out.budget = s.budget;
    if (s.verdict == Verdict::Linearizable) {
      out.note = !by_ret;  // not a violation, but a finding about the proof (the rets' order is no proof's)
      out.detail = where + "\n  the search linearizes them: linearizable, but not by the proof's points";
      return true;
    }
    out.detail = where + "\n  " + s.message;
    if (s.verdict != Verdict::NotLinearizable) return true;
    shown = key_of_op(h, s.stuck_ops.front());
    by = CheckMethod::Search;
  } else {
    shown = key_of_op(h, v.op);
    WitnessOptions wo;
    wo.explain = true;
    wo.search = a.search;
    const WitnessResult w = check_witness(keys_sub_history(h, {shown}), wo);
    out.detail = v.message;
    if (w.explanation)
      out.detail += "\n  window search (on key " + std::to_string(shown) + "'s operations): " + w.explanation->message;
  }
  const History ops = keys_sub_history(h, {shown});
  if (ops.ops.size() <= a.minimise_max_ops) set_minimal(out, minimise(ops, by, a.search));
  return true;
}

}  // namespace

std::optional<int> check_keyed(const KeyedCheckArgs& a) {
  if (a.method == "search") return std::nullopt;
  const auto t0 = std::chrono::steady_clock::now();
  KeyHistory h;
  try {
    h = read_key_history_any(a.file);
  } catch (const FormatError& e) {
    // Not held by a KeyHistory (or malformed): the generic reader gives the verdict or the same error.
    return std::nullopt;
  }
  CheckReport out;
  out.file = a.file;
  out.ops = h.ops.size();
  auto done = [&] {
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return print_report(out, a.json);
  };
  try {
    const bool pq_model = h.header.model == "pq-batch" || h.header.model == "pq";
    if (pq_model && !h.header.lp_rule.empty()) {
      // Only a pass is decided here (lean_witness.h). An op that does not fit the
      // model, and a failing rule order (the proof's failure, not yet a
      // violation: auto asks the search whether anything explains it), are the
      // generic path's to report, in check_witness's words, with its window
      // search and minimal counterexample.
      if (!pq_witness_passes(h)) return std::nullopt;
      out.verdict = Verdict::Linearizable;
      out.method = "witness " + h.header.lp_rule + " (per key)";
      return done();
    }
    if (pq_model && a.method == "auto") {
      const DistinctPqResult d = check_distinct_pq(h);
      if (d.applicable != DistinctPqResult::Applicable::Yes) return std::nullopt;
      out.verdict = d.verdict;
      out.method = "distinct-key pq";
      out.detail = d.message;
      return done();
    }
    // Without lp events only the search decides (auto): by ret order, then the search.
    if (keyed_model(h.header.model) && (!h.header.lp_rule.empty() || a.method == "auto")) {
      if (!keyed_report(h, a, out)) return std::nullopt;
      return done();
    }
  } catch (const FormatError&) {
    // An op the model does not take (or the like): the generic path names it,
    // in the words it gives for every other file.
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace gpulin::cli
