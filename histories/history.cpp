#include "histories/history.h"

#include <algorithm>

namespace gpulin {

const char* to_string(EventKind k) {
  switch (k) {
    case EventKind::Inv: return "inv";
    case EventKind::Ret: return "ret";
    case EventKind::Acq: return "acq";
    case EventKind::Rel: return "rel";
    case EventKind::Lp: return "lp";
  }
  return "?";
}

int64_t History::index_of(int64_t op_id) const {
  // ops are few enough per lookup site; a linear scan keeps this type plain.
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i].id == op_id) return static_cast<int64_t>(i);
  return -1;
}

void History::normalize() {
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.t < b.t; });
  std::sort(ops.begin(), ops.end(), [](const Operation& a, const Operation& b) { return a.inv_t < b.inv_t; });
}

}  // namespace gpulin
