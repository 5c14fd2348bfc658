#include "verify/pq_op_fit.h"

#include <algorithm>

namespace gpulin {

PqMisfit pq_misfit(const KeyHistory& h, const KeyOp& op, size_t k) {
  const std::string& f = h.fn_name(op);
  const bool ins = f == "ins";
  if (!ins && f != "del") return PqMisfit::UnknownOp;
  if (ins && (op.args_len < 1 || op.args_len > k)) return PqMisfit::InsArgs;
  if (!ins && op.args_len != 0) return PqMisfit::DelArgs;
  if (op.pending()) return PqMisfit::None;  // no result to judge
  if (ins) return op.res_kind == KeyOp::kNullResult ? PqMisfit::None : PqMisfit::InsResult;
  const int64_t* b = h.begin_of(op.res());
  const bool fits = op.res_kind == KeyOp::kKeysResult && op.res_len <= k && std::is_sorted(b, b + op.res_len);
  return fits ? PqMisfit::None : PqMisfit::DelResult;
}

}  // namespace gpulin
