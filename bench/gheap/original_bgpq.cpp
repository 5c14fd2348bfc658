// Which of the authors' two heaps a run asks for (original_bgpq.h); each is built in
// its own translation unit (original_bgpq_td.cu, original_bgpq_bu.cu).
#include "bench/gheap/original_bgpq.h"

namespace gpulin::gheap_bench {

#ifdef GPULIN_HAVE_BGPQ
BgpqRun run_bgpq_td(const uint32_t* keys, uint64_t n, uint32_t blocks, uint32_t threads);
BgpqRun run_bgpq_bu(const uint32_t* keys, uint64_t n, uint32_t blocks, uint32_t threads);

bool bgpq_built() { return true; }
BgpqRun run_bgpq(bool bottom_up, const uint32_t* keys, uint64_t n, uint32_t blocks, uint32_t threads) {
  return bottom_up ? run_bgpq_bu(keys, n, blocks, threads) : run_bgpq_td(keys, n, blocks, threads);
}
#else
bool bgpq_built() { return false; }
BgpqRun run_bgpq(bool, const uint32_t*, uint64_t, uint32_t, uint32_t) {
  BgpqRun r;
  r.fail = "the authors' heap is not in this build (scripts/fetch-originals.sh, then cmake)";
  return r;
}
#endif

}  // namespace gpulin::gheap_bench
