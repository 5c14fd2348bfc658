#include "verify/sub_history.h"

#include <algorithm>
#include <unordered_set>

namespace gpulin {

History sub_history(const History& h, std::vector<size_t> op_indices) {
  std::sort(op_indices.begin(), op_indices.end());
  History out;
  out.source = h.source;
  out.header = h.header;
  out.ops.reserve(op_indices.size());
  std::unordered_set<int64_t> kept;
  kept.reserve(op_indices.size());
  for (size_t i : op_indices) {
    out.ops.push_back(h.ops[i]);  // ops stay sorted by inv_t: indices are ascending
    kept.insert(h.ops[i].id);
  }
  for (const Event& e : h.events)
    if (kept.count(e.op)) out.events.push_back(e);  // events stay sorted by t
  return out;
}

}  // namespace gpulin
