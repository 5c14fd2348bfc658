// Explicit instantiations of merge_keys (merge.h lists them).
#define GPULIN_MERGE_INSTANTIATING
#include "structures/merge_path/gpu/merge.cuh"

namespace gpulin::merge_path {
GPULIN_MERGE_FOR_EACH_KEY(GPULIN_MERGE_KEYS_BOTH, )
}  // namespace gpulin::merge_path
