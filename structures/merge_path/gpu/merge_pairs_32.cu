// Explicit instantiations of merge_pairs for keys: int32_t uint32_t (merge.h lists them all;
// split over files so that the library builds in parallel).
#define GPULIN_MERGE_INSTANTIATING
#include "structures/merge_path/gpu/merge.cuh"

namespace gpulin::merge_path {
GPULIN_MERGE_PAIRS_ALL(, int32_t)
GPULIN_MERGE_PAIRS_ALL(, uint32_t)
}  // namespace gpulin::merge_path
