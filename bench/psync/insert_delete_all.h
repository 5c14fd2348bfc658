// The generalized heap paper's Table 1 workload on the P-Sync heap, its GPU
// baseline there: N keys inserted into an empty heap, then all deleted. Inserting
// is cycles that take r new keys and hand out none; deleting is the paper's cycles
// with no new keys (each refills the root from the end of the heap). The keys of
// each insert cycle are sorted on the GPU (a segmented radix sort, timed with the
// inserts, as the heap's own batch sorts are). Checked: the keys come out sorted
// and are exactly the ones inserted. Both phases are timed by CUDA events on the
// heap's stream, as gpulin_bench_gheap times its heap's phases.
#pragma once

#include <cstdint>
#include <string>

namespace gpulin::psync_bench {

struct InsertDeleteAllRun {
  double insert_seconds = 0, delete_seconds = 0;
  std::string failure;  // empty: the check passed
};

// `workload`: random, ascend or descend (as gpulin_bench_gheap's table1): keys
// drawn from [0, 2^31), 0 .. n-1 or n-1 .. 0.
InsertDeleteAllRun insert_delete_all(uint64_t n, uint32_t r, const std::string& workload, uint64_t seed);

// The same on given keys: `keys` (device memory, n of them) inserted in this order,
// cycle c taking keys [c*r, (c+1)*r); left unchanged.
InsertDeleteAllRun insert_delete_all(const uint32_t* keys, uint64_t n, uint32_t r);

}  // namespace gpulin::psync_bench
