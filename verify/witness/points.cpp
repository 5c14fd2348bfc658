#include "verify/witness/points.h"

#include <algorithm>
#include <unordered_map>

#include "histories/huge_pages.h"
#include "histories/id_index.h"
#include "histories/key_history.h"

namespace gpulin {
namespace {

constexpr uint64_t kNone = UINT64_MAX;  // not seen (kPending, one less, is "never released")
constexpr uint32_t kFree = UINT32_MAX;

// What one pass remembers of an op's holds (the lock rules): its first hold of
// node 1 ...
struct RootMarks {
  uint64_t acq = kNone, rel = kPending;
};
// ... and, for the last-lock rule only, its hold of the last node it acquired ...
struct LastMarks {
  uint64_t acq = kNone, rel = kPending;
  int64_t node = 0;
};
// ... or of its lp events (the explicit rule): only what the rule reads is kept,
// 16 bytes an op where a GPU history has tens of millions.
struct LpMarks {
  uint64_t lp = kNone, second_lp = kNone;
};

// Who holds each node, since when. Node ids are small in heaps (dense vector)
// but may be anything elsewhere (a hash map for those).
class Holders {
 public:
  struct Hold {
    uint32_t op = kFree;
    uint64_t since = 0;
  };
  Hold& at(int64_t node) {
    constexpr int64_t kDense = int64_t{1} << 22;
    if (node >= 0 && node < kDense) {
      if (static_cast<size_t>(node) >= dense_.size()) dense_.resize(std::max<size_t>(node + 1, dense_.size() * 2));
      return dense_[node];
    }
    return sparse_[node];
  }

 private:
  std::vector<Hold> dense_;
  std::unordered_map<int64_t, Hold> sparse_;
};

std::string span_text(uint64_t a, uint64_t b) {
  return "[t " + std::to_string(a) + ", " + (b == kPending ? std::string("never") : "t " + std::to_string(b)) + "]";
}

}  // namespace

// Written once for both forms of a history (History, KeyHistory).
template <class H>
PointScan scan_points_of(const H& h, LpRule rule) {
  const size_t n = h.ops.size();
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (const auto& op : h.ops) lo = std::min(lo, op.id), hi = std::max(hi, op.id);
  IdIndex index(lo, hi, n);
  for (size_t i = 0; i < n; ++i) index.set(h.ops[i].id, static_cast<uint32_t>(i));

  PointScan out;
  const bool explicit_rule = rule == LpRule::Explicit;
  // Every large array on huge pages: on a VM a 4 KiB page fault costs microseconds.
  const bool last_rule = rule == LpRule::LastLock;
  std::vector<RootMarks> roots;
  std::vector<LastMarks> lasts;
  std::vector<LpMarks> lps;
  resize_huge(roots, explicit_rule ? 0 : n);
  resize_huge(lasts, last_rule ? n : 0);
  resize_huge(lps, explicit_rule ? n : 0);
  Holders holders;
  // The explicit rule's order is the order of the ops' first lp events: events
  // come in t order, so it needs no sort (a GPU history has millions of points).
  std::vector<size_t> lp_order;
  if (explicit_rule) reserve_huge(lp_order, n);
  // So is the root-release rule's, but for holds never released: an op's point
  // ends at its first release of the root, and the releases come in t order.
  // Where their t does not strictly increase (a history no reader checked), the
  // sort below decides.
  const bool root_rule = rule == LpRule::RootRelease;
  std::vector<size_t> rel_order;
  if (root_rule) reserve_huge(rel_order, n);
  bool rel_increasing = true;
  for (const Event& e : h.events) {
    if (e.kind == EventKind::Inv || e.kind == EventKind::Ret) continue;
    const uint32_t o = index.find(e.op);
    if (o == IdIndex::kAbsent) throw FormatError(h.source, e.line, "event of op " + std::to_string(e.op) + ", which has no inv");
    if (e.kind == EventKind::Lp) {
      if (!explicit_rule) continue;  // the lock rules do not read lp events
      LpMarks& m = lps[o];
      if (m.lp == kNone) {
        m.lp = e.t;
        lp_order.push_back(o);
      } else if (m.second_lp == kNone) {
        m.second_lp = e.t;
      }
      continue;
    }
    // Holds are checked under every rule (overlaps are violations), marked for the lock rules.
    RootMarks unused_root;
    LastMarks unused_last;
    RootMarks& root = explicit_rule ? unused_root : roots[o];
    LastMarks& last = last_rule ? lasts[o] : unused_last;
    Holders::Hold& hold = holders.at(e.node);
    if (e.kind == EventKind::Acq) {
      if (hold.op == o)
        throw FormatError(h.source, e.line, "op " + std::to_string(e.op) + " acquires node " + std::to_string(e.node) + ", which it holds");
      if (hold.op != kFree) out.violating.push_back(o);
      if (hold.op != kFree && !out.violation) {
        WitnessViolation v;
        v.kind = WitnessViolation::Kind::OverlappingHolds;
        v.op = e.op;
        v.other_op = h.ops[hold.op].id;
        v.node = e.node;
        v.t = e.t;
        v.message = "ops " + std::to_string(v.other_op) + " and " + std::to_string(v.op) + " hold node " +
                    std::to_string(e.node) + " at the same time: op " + std::to_string(v.op) + " acquires it at t " +
                    std::to_string(e.t) + " while op " + std::to_string(v.other_op) + " holds it since t " +
                    std::to_string(hold.since);
        out.violation = v;
      }
      hold = {o, e.t};  // the newer holder takes over; only the first overlap is reported
      if (e.node == 1 && root.acq == kNone) root.acq = e.t;
      last.acq = e.t;  // events come in t order: the latest acq so far
      last.node = e.node;
      last.rel = kPending;
    } else {  // Rel
      if (hold.op == o) {
        hold.op = kFree;
      } else if (!out.violation) {  // after an overlap the node's holder is unreliable
        throw FormatError(h.source, e.line, "op " + std::to_string(e.op) + " releases node " + std::to_string(e.node) + ", which it does not hold");
      }
      if (e.node == 1 && root.acq != kNone && root.rel == kPending) {
        root.rel = e.t;
        if (root_rule) {
          rel_increasing &= e.t != kPending && (rel_order.empty() || e.t > roots[rel_order.back()].rel);
          rel_order.push_back(o);
        }
      }
      if (e.node == last.node && last.acq != kNone && last.rel == kPending) last.rel = e.t;
    }
  }

  // Points, and the structural violations of single ops; the earliest t wins.
  resize_huge(out.points, n);
  for (size_t i = 0; i < n; ++i) {
    const auto& op = h.ops[i];
    const std::string& f = op_name(h, i);
    const LpMarks lp = explicit_rule ? lps[i] : LpMarks{};
    OpPoint& p = out.points[i];
    const bool by_last = last_rule && f == "ins";
    if (explicit_rule) p = {lp.lp != kNone, lp.lp, lp.lp, 0};
    else if (by_last) p = {lasts[i].acq != kNone, lasts[i].acq, lasts[i].rel, lasts[i].node};
    else p = {roots[i].acq != kNone, roots[i].acq, roots[i].rel, 1};

    std::optional<WitnessViolation> v;
    auto who = [&] { return "op " + std::to_string(op.id) + " (" + f + ")"; };  // only for messages
    if (!p.has && !op.pending()) {
      v = WitnessViolation{WitnessViolation::Kind::MissingPoint, op.id, -1, 0, op.ret_t, "", "", ""};
      v->message = who() + " completed without a linearization point: " +
                   (explicit_rule ? std::string("no lp event")
                    : by_last       ? std::string("it acquired no node")
                                    : std::string("it never held node 1"));
    } else if (p.has && explicit_rule && lp.second_lp != kNone) {
      v = WitnessViolation{WitnessViolation::Kind::ExtraPoint, op.id, -1, 0, lp.second_lp, "", "", ""};
      v->message = who() + " has more than one lp event (t " + std::to_string(lp.lp) + " and t " +
                   std::to_string(lp.second_lp) + "); the explicit rule takes exactly one";
    } else if (p.has && (p.begin <= op.inv_t || (!op.pending() && p.end >= op.ret_t))) {
      v = WitnessViolation{WitnessViolation::Kind::PointOutside, op.id, -1, p.node,
                           p.begin <= op.inv_t ? p.begin : p.end, "", "", ""};
      const std::string what = explicit_rule ? "its lp event at t " + std::to_string(p.begin)
                                             : "its hold of node " + std::to_string(p.node) + " " + span_text(p.begin, p.end);
      v->message = who() + ": the linearization point, " + what + ", is not strictly inside the op " +
                   span_text(op.inv_t, op.ret_t);
    }
    if (v) out.violating.push_back(i);
    if (v && (!out.violation || v->t < out.violation->t)) out.violation = v;
  }
  if (explicit_rule) {
    out.order = std::move(lp_order);
    return out;
  }

  // A lock rule's order: by the point's end (the rel); never-released holds last,
  // by their acq; ties (the format makes t unique, so only those) by invocation.
  if (root_rule && rel_increasing) {
    std::vector<std::pair<uint64_t, size_t>> open;  // never released: (acq, op)
    for (size_t i = 0; i < n; ++i)
      if (out.points[i].has && out.points[i].end == kPending) open.emplace_back(out.points[i].begin, i);
    std::sort(open.begin(), open.end());
    out.order = std::move(rel_order);
    for (const auto& [acq, i] : open) out.order.push_back(i);
    return out;
  }
  struct Key {
    uint64_t end, begin;
    size_t op;
    bool operator<(const Key& o) const {
      return end != o.end ? end < o.end : begin != o.begin ? begin < o.begin : op < o.op;
    }
  };
  std::vector<Key> keys;  // sorted contiguously: a million ops sort in a blink
  reserve_huge(keys, n);
  for (size_t i = 0; i < n; ++i)
    if (out.points[i].has) keys.push_back({out.points[i].end, out.points[i].begin, i});
  std::sort(keys.begin(), keys.end());
  reserve_huge(out.order, keys.size());
  for (const Key& k : keys) out.order.push_back(k.op);
  return out;
}

PointScan scan_points(const History& h, LpRule rule) { return scan_points_of(h, rule); }
PointScan scan_points(const KeyHistory& h, LpRule rule) { return scan_points_of(h, rule); }

}  // namespace gpulin
