// The authors' generalized heap (Chen et al., "Accelerating Concurrent Heap on GPUs":
// ruadapt/BGPQ at 1589a87, heap/tditdd_np = TD-INS/TD-DEL and heap/buitdd_np =
// BU-INS/TD-DEL, as its synthetic benchmark builds them: -DHEAP_SORT, k = 1024), run
// on gpulin_bench_gheap's keys in the same program, timed the same way (CUDA events
// around each phase's one launch). Its headers stay in original_bgpq_{td,bu}.cu,
// built only when scripts/fetch-originals.sh has put its sources in .originals/.
//
// Built with -Xptxas -dlcm=cg (global loads cached in L2 only), as on sm_90 it is
// correct only so: it reads the heap's shared words with plain loads.
//
// How its runs differ from ours: its insert and delete kernels loop over the batches
// (block b takes batches b, b + grid, ...), so one launch a phase as ours; it has no
// partial batches in these runs (N is a multiple of 1024); HEAP_SORT appends each
// deleted batch to one output array, which the check reads.
#pragma once

#include <cstdint>
#include <string>

namespace gpulin::gheap_bench {

// Whether this build holds the authors' heap (GPULIN_HAVE_BGPQ).
bool bgpq_built();

struct BgpqRun {
  double insert_s = 0, delete_s = 0;
  std::string fail;  // empty: every check passed
};

// Inserts the n keys at `keys` (device memory, left unchanged; n a multiple of
// 1024, no key 0xFFFFFFFF) into a fresh heap of the authors' TD (bottom_up false) or
// BU heap, then deletes until it is empty, `blocks` x `threads`; then checks (untimed)
// that n keys came out, each deleted batch ascending, the deleted multiset the
// inserted one, and the heap empty. Never throws for a failed check or a CUDA
// error: `fail` says what.
BgpqRun run_bgpq(bool bottom_up, const uint32_t* keys, uint64_t n, uint32_t blocks, uint32_t threads);

}  // namespace gpulin::gheap_bench
