// The execution primitives' GPU tests, compiled as one nvcc run. Each of these files
// alone is a few small kernels behind gtest's and CUDA's headers, which nvcc reads
// four times a file (two preprocessings, cudafe++, cicc) before any of its own code.
// Each file stays the one place its test is written; this file only batches them.
#include "tests/gpu/block_collectives_test.cu"
#include "tests/gpu/block_tile_merge_test.cu"
#include "tests/gpu/counted_word_test.cu"
#include "tests/gpu/lane_search_test.cu"
#include "tests/gpu/resolve_in_place_test.cu"
#include "tests/gpu/spin_bound_test.cu"
#include "tests/gpu/warp_scope_test.cu"
#include "tests/gpu/word_pairs_test.cu"
