#include "verify/witness_checker.h"

#include "verify/model_registry.h"
#include "verify/witness/explain.h"
#include "verify/witness/points.h"
#include "verify/witness/replay.h"

namespace gpulin {

LpRule lp_rule_of(const History& h) { return lp_rule_of(h.header, h.source); }

LpRule lp_rule_of(const Header& header, const std::string& source) {
  const std::string& r = header.lp_rule;
  if (r == "root-release") return LpRule::RootRelease;
  if (r == "last-lock") return LpRule::LastLock;
  if (r == "explicit") return LpRule::Explicit;
  throw FormatError(source, 1,
                    r.empty() ? "a witness check needs the header's lp_rule (root-release, last-lock, explicit)"
                              : "unknown lp_rule '" + r + "' (root-release, last-lock, explicit)");
}

const char* to_string(WitnessViolation::Kind k) {
  switch (k) {
    case WitnessViolation::Kind::MissingPoint: return "missing point";
    case WitnessViolation::Kind::ExtraPoint: return "extra point";
    case WitnessViolation::Kind::PointOutside: return "point outside its op";
    case WitnessViolation::Kind::OverlappingHolds: return "overlapping holds";
    case WitnessViolation::Kind::WrongResult: return "wrong result";
  }
  return "?";
}

std::string wrong_result_message(const Operation& op, const WitnessViolation& v, size_t done, bool capped) {
  std::string m = "op " + std::to_string(op.id) + " (" + op.f + " " + brief_json(op.args) + ") at its point, t " +
                  std::to_string(v.t) + ", after " + std::to_string(done) +
                  " ops in the rule's order: the model answers " + v.expected + ", the op returned " + v.recorded;
  if (capped) m += " (possible states after ambiguous pending ops were capped)";
  return m;
}

WitnessResult check_witness(const History& h, const WitnessOptions& options) {
  const Model& model = model_for(h);
  model.validate_ops(h);
  const LpRule rule = lp_rule_of(h);
  const PointScan scan = scan_points(h, rule);

  WitnessResult r;
  if (!scan.violation) {
    const Replay rep = replay(h, model, scan.order, scan.order.size());
    r.ops_replayed = rep.done;
    if (!rep.failed) return r;
    const size_t i = scan.order[rep.done];
    const Operation& op = h.ops[i];
    WitnessViolation v;
    v.kind = WitnessViolation::Kind::WrongResult;
    v.op = op.id;
    v.node = scan.points[i].node;
    v.t = scan.points[i].end;
    v.expected = model.expected_result(rep.states[0], op);
    v.recorded = op.res->to_json();
    v.message = wrong_result_message(op, v, rep.done, rep.capped);
    r.violation = v;
  } else {
    r.violation = scan.violation;
  }
  r.verdict = Verdict::NotLinearizable;
  if (options.explain) r.explanation = explain_failure(h, model, scan, h.index_of(r.violation->op), options);
  return r;
}

}  // namespace gpulin
