#include "verify/pq_linear/lean_witness.h"

#include "verify/pq_linear/linear_check.h"
#include "verify/pq_op_fit.h"

namespace gpulin {

bool pq_witness_passes(const KeyHistory& h, unsigned threads) {
  const size_t k = h.header.model == "pq" ? 1 : static_cast<size_t>(h.header.param_int("k", 0));
  for (const KeyOp& op : h.ops)
    if (pq_misfit(h, op, k) != PqMisfit::None) return false;
  LinearCheckOptions o;
  o.threads = threads;
  const LinearCheckResult r = check_pq_batch_linear(h, o);
  return r.applicable && r.witness.verdict == Verdict::Linearizable;
}

}  // namespace gpulin
