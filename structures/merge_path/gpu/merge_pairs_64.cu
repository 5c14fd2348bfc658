// Explicit instantiations of merge_pairs for keys: int64_t uint64_t (merge.h lists them all;
// split over files so that the library builds in parallel).
#define GPULIN_MERGE_INSTANTIATING
#include "structures/merge_path/gpu/merge.cuh"

namespace gpulin::merge_path {
GPULIN_MERGE_PAIRS_ALL(, int64_t)
GPULIN_MERGE_PAIRS_ALL(, uint64_t)
}  // namespace gpulin::merge_path
