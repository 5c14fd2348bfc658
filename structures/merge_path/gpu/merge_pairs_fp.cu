// Explicit instantiations of merge_pairs for keys: float double (merge.h lists them all;
// split over files so that the library builds in parallel).
#define GPULIN_MERGE_INSTANTIATING
#include "structures/merge_path/gpu/merge.cuh"

namespace gpulin::merge_path {
GPULIN_MERGE_PAIRS_ALL(, float)
GPULIN_MERGE_PAIRS_ALL(, double)
}  // namespace gpulin::merge_path
