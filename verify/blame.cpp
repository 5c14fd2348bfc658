#include "verify/blame.h"

#include <algorithm>

#include "verify/model_registry.h"

namespace gpulin {

std::optional<Blame> blame(const History& h, CheckMethod method, const SearchOptions& options) {
  Blame b;
  if (method == CheckMethod::Witness) {
    const WitnessResult w = check_witness(h);
    if (w.verdict != Verdict::NotLinearizable || !w.violation) return std::nullopt;
    b.op = w.violation->op;
    b.kind = w.violation->kind;
    if (w.violation->other_op >= 0) b.with.push_back(w.violation->other_op);
    return b;
  }
  const SearchResult s = check_search(h, options);
  if (s.verdict != Verdict::NotLinearizable || s.stuck_ops.empty()) return std::nullopt;
  b.op = s.stuck_ops.front();
  return b;
}

std::vector<size_t> failure_core(const History& h, const Blame& b) {
  const Model& model = model_for(h);
  std::vector<size_t> core;
  std::vector<bool> in(h.ops.size(), false);
  auto add = [&](int64_t id) {
    const int64_t i = h.index_of(id);
    if (i >= 0 && !in[static_cast<size_t>(i)]) {
      in[static_cast<size_t>(i)] = true;
      core.push_back(static_cast<size_t>(i));
    }
  };
  add(b.op);
  for (int64_t id : b.with) add(id);
  // Breadth first over the sources: a write whose own read was dropped could not
  // have happened, and the blamed read would fail through it.
  for (size_t k = 0; k < core.size(); ++k)
    for (size_t j : model.sources(h, core[k])) add(h.ops[j].id);
  return core;
}

}  // namespace gpulin
