// Host API of the GPU global merge (GPU Merge Path, §2; algorithm in global_merge.h,
// kernels in gpu/merge.cuh). Plain C++: include this from .cpp files and link
// gpulin_merge_path_gpu, which instantiates
//   keys:  int32_t, int64_t, uint32_t, uint64_t, float, double
//   pairs: those keys with uint32_t, int32_t or float values
//   order: Less (ascending) and Greater (descending).
// For another comparator or type include gpu/merge.cuh from a .cu file instead.
//
// The merge is stable: on equal keys the element of A comes first. Inputs must be
// sorted under `comp`, device-accessible and naturally aligned for their type; the
// output must not overlap the inputs. Any sizes, including empty and very unequal
// ones. Floats: NaN-free (NaN is not a strict weak order under <).
//
// Two ways to call, CUB's and a convenient one:
//   1. temp storage: call with d_temp == nullptr to get temp_bytes, allocate, call
//      again. No allocation, no synchronisation: a clearing of the temp storage's
//      first bytes and one kernel on `stream`. The temp storage is the scratch the
//      kernel's blocks share the windows through (global_merge.h, MergeScratch):
//      12 bytes a window (10752 outputs with the 4-byte default), 16-byte aligned
//      (cudaMalloc's are); a smaller or misaligned one is cudaErrorInvalidValue. Its
//      contents need no preparing.
//   2. no temp-storage arguments: the call allocates its temp storage itself,
//      stream-ordered (cudaMallocAsync / cudaFreeAsync on `stream`).
// Returns the first CUDA error (launch errors included); cudaErrorMisalignedAddress
// for pointers that are not naturally aligned.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "structures/merge_path/global_merge.h"

namespace gpulin::merge_path {

// A strict weak order on keys (keeps the overloads apart: a nullptr or a stream is
// never taken for a comparator).
template <class Comp, class Key>
concept MergeComparator = std::is_invocable_r_v<bool, const Comp&, const Key&, const Key&>;

template <class Key, class Comp = Less>
  requires MergeComparator<Comp, Key>
cudaError_t merge_keys(void* d_temp, size_t& temp_bytes, const Key* a, size_t na, const Key* b, size_t nb, Key* out,
                       cudaStream_t stream = 0, Comp comp = Comp());

template <class Key, class Comp = Less>
  requires MergeComparator<Comp, Key>
cudaError_t merge_keys(const Key* a, size_t na, const Key* b, size_t nb, Key* out, cudaStream_t stream = 0,
                       Comp comp = Comp());

template <class Key, class Value, class Comp = Less>
  requires MergeComparator<Comp, Key>
cudaError_t merge_pairs(void* d_temp, size_t& temp_bytes, const Key* a_keys, const Value* a_vals, size_t na,
                        const Key* b_keys, const Value* b_vals, size_t nb, Key* out_keys, Value* out_vals,
                        cudaStream_t stream = 0, Comp comp = Comp());

template <class Key, class Value, class Comp = Less>
  requires MergeComparator<Comp, Key>
cudaError_t merge_pairs(const Key* a_keys, const Value* a_vals, size_t na, const Key* b_keys, const Value* b_vals,
                        size_t nb, Key* out_keys, Value* out_vals, cudaStream_t stream = 0, Comp comp = Comp());

// The instantiations in the library (gpu/merge_keys.cu, gpu/merge_pairs_*.cu).
#define GPULIN_MERGE_KEYS_DECL(EXTERN, K, C)                                                                     \
  EXTERN template cudaError_t merge_keys<K, C>(void*, size_t&, const K*, size_t, const K*, size_t, K*,       \
                                               cudaStream_t, C);                                             \
  EXTERN template cudaError_t merge_keys<K, C>(const K*, size_t, const K*, size_t, K*, cudaStream_t, C);
#define GPULIN_MERGE_PAIRS_DECL(EXTERN, K, V, C)                                                                 \
  EXTERN template cudaError_t merge_pairs<K, V, C>(void*, size_t&, const K*, const V*, size_t, const K*,      \
                                                   const V*, size_t, K*, V*, cudaStream_t, C);               \
  EXTERN template cudaError_t merge_pairs<K, V, C>(const K*, const V*, size_t, const K*, const V*, size_t, K*, \
                                                   V*, cudaStream_t, C);
#define GPULIN_MERGE_FOR_EACH_KEY(X, ...) \
  X(__VA_ARGS__, int32_t)                  \
  X(__VA_ARGS__, int64_t)                  \
  X(__VA_ARGS__, uint32_t)                 \
  X(__VA_ARGS__, uint64_t)                 \
  X(__VA_ARGS__, float)                    \
  X(__VA_ARGS__, double)

#define GPULIN_MERGE_KEYS_BOTH(EXTERN, K) \
  GPULIN_MERGE_KEYS_DECL(EXTERN, K, Less) \
  GPULIN_MERGE_KEYS_DECL(EXTERN, K, Greater)
#define GPULIN_MERGE_PAIRS_ALL(EXTERN, K)                \
  GPULIN_MERGE_PAIRS_DECL(EXTERN, K, uint32_t, Less)     \
  GPULIN_MERGE_PAIRS_DECL(EXTERN, K, uint32_t, Greater)  \
  GPULIN_MERGE_PAIRS_DECL(EXTERN, K, int32_t, Less)      \
  GPULIN_MERGE_PAIRS_DECL(EXTERN, K, int32_t, Greater)   \
  GPULIN_MERGE_PAIRS_DECL(EXTERN, K, float, Less)        \
  GPULIN_MERGE_PAIRS_DECL(EXTERN, K, float, Greater)

#ifndef GPULIN_MERGE_INSTANTIATING
GPULIN_MERGE_FOR_EACH_KEY(GPULIN_MERGE_KEYS_BOTH, extern)
GPULIN_MERGE_FOR_EACH_KEY(GPULIN_MERGE_PAIRS_ALL, extern)
#endif

}  // namespace gpulin::merge_path
