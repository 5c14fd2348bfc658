// The authors' TD-INS/TD-DEL heap (ruadapt/BGPQ heap/tditdd_np) in a namespace of its own, so
// that its Heap and the other flavor's meet in no program-wide name, run by
// bgpq_runner.cuh (original_bgpq.h).
#include <cuda_runtime.h>

#include <cstdio>
#include <iostream>

#include "bench/gheap/original_bgpq.h"

#ifdef GPULIN_HAVE_BGPQ
namespace bgpq_td {
#include "tditdd_np/heap.cuh"  // .originals/BGPQ/heap (its headers include no system header)
}  // namespace bgpq_td
#include "bench/gheap/bgpq_runner.cuh"
#endif

namespace gpulin::gheap_bench {

#ifdef GPULIN_HAVE_BGPQ
BgpqRun run_bgpq_td(const uint32_t* keys, uint64_t n, uint32_t blocks, uint32_t threads) {
  return bgpq::run<bgpq_td::Heap<uint32_t>>(keys, n, blocks, threads);
}
#endif

}  // namespace gpulin::gheap_bench
