#include "verify/pq_linear/lean_witness.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "verify/key_buckets.h"
#include "verify/pq_linear/linear_check.h"
#include "verify/pq_op_fit.h"

namespace gpulin {

bool pq_witness_passes(const KeyHistory& h, unsigned threads) {
  const size_t k = h.header.model == "pq" ? 1 : static_cast<size_t>(h.header.param_int("k", 0));
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  std::atomic<bool> fits{true};
  key_buckets::parallel_chunks(h.ops.size(), threads, [&](uint64_t a, uint64_t b, unsigned) {
    for (uint64_t i = a; i < b && fits.load(std::memory_order_relaxed); ++i)
      if (pq_misfit(h, h.ops[i], k) != PqMisfit::None) fits = false;
  });
  if (!fits) return false;
  LinearCheckOptions o;
  o.threads = threads;
  const LinearCheckResult r = check_pq_batch_linear(h, o);
  return r.applicable && r.witness.verdict == Verdict::Linearizable;
}

}  // namespace gpulin
