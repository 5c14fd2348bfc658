#include "verify/pq_batch_witness.h"

#include <algorithm>
#include <queue>

#include "verify/keys_text.h"
#include "verify/witness/points.h"

namespace gpulin {

namespace {

// The model's multiset as sorted runs (each insert's keys, sorted once), merged
// lazily by a heap on the runs' heads: a delete pops its k smallest keys.
class RunHeap {
 public:
  // The keys [first, last) as one run, copied straight into place (no temporary
  // vector to destroy after a move: GCC 13 warned -Wfree-nonheap-object on one).
  template <class It>
  void insert(It first, It last) {
    if (first == last) return;
    std::vector<int64_t>& run = runs_.emplace_back(first, last);
    std::sort(run.begin(), run.end());
    heads_.push({run[0], runs_.size() - 1, 0});
    size_ += run.size();
  }
  int64_t pop() {
    Head h = heads_.top();
    heads_.pop();
    const auto& r = runs_[h.run];
    if (h.pos + 1 < r.size()) {
      heads_.push({r[h.pos + 1], h.run, h.pos + 1});
    } else {
      std::vector<int64_t>().swap(runs_[h.run]);  // give the memory back
    }
    --size_;
    return h.key;
  }
  uint64_t size() const { return size_; }

 private:
  struct Head {
    int64_t key;
    size_t run;
    size_t pos;
    bool operator>(const Head& o) const { return key > o.key; }
  };
  std::vector<std::vector<int64_t>> runs_;
  std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heads_;
  uint64_t size_ = 0;
};

}  // namespace

WitnessResult check_witness_pq_batch(const KeyHistory& h) {
  if (h.header.model != "pq-batch")
    throw FormatError(h.source, 1, "the compact witness check is for pq-batch histories, not " + h.header.model);
  const int64_t k = h.header.param_int("k", 0);
  if (k < 1) throw FormatError(h.source, 1, "pq-batch needs params.k >= 1");
  const PointScan scan = scan_points(h, lp_rule_of(h.header, h.source));
  WitnessResult r;
  if (scan.violation) {
    r.verdict = Verdict::NotLinearizable;
    r.violation = scan.violation;
    return r;
  }
  RunHeap state;
  std::vector<int64_t> taken;
  for (size_t i : scan.order) {
    const KeyOp& op = h.ops[i];
    if (h.fn_name(op) == "ins") {
      state.insert(h.begin_of(op.args()), h.end_of(op.args()));
    } else {
      const uint64_t n = std::min<uint64_t>(k, state.size());
      taken.clear();
      for (uint64_t j = 0; j < n; ++j) taken.push_back(state.pop());
      if (!op.pending()) {
        const KeySpan s = op.res();
        const bool same = s.len == taken.size() && std::equal(taken.begin(), taken.end(), h.begin_of(s));
        if (!same) {
          WitnessViolation v;
          v.kind = WitnessViolation::Kind::WrongResult;
          v.op = op.id;
          v.node = scan.points[i].node;
          v.t = scan.points[i].end;
          v.expected = keys_text(taken);
          v.recorded = keys_text(h.begin_of(s), s.len);
          v.message = "op " + std::to_string(op.id) + " (del) at its point, t " + std::to_string(v.t) + ", after " +
                      std::to_string(r.ops_replayed) + " ops in the rule's order: the model answers " + v.expected +
                      ", the op returned " + v.recorded;
          r.verdict = Verdict::NotLinearizable;
          r.violation = v;
          return r;
        }
      }
    }
    ++r.ops_replayed;
  }
  return r;
}

}  // namespace gpulin
