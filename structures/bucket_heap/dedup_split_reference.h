// §2.1's DELETEDUPLICATES and the split at a threshold, one element after another on
// the host: what the GPU's passes over a level (level_ops.h, resolve_in_place.h)
// are checked against, in their GPU tests and in gpulin_bench_level_ops. Of each
// value's copies in the sorted `level` the DELETE stays where there is one (it
// sorts last), else the copy of least priority; the survivors go down (DELETEs and
// rank keys past th) or stay, in order. Above the last level (a DELETE is kept).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "structures/bucket_heap/level_ops.h"

namespace gpulin::bucket_heap {

inline void dedup_split_reference(const std::vector<Element>& level, uint64_t th, std::vector<Element>& stay,
                                  std::vector<Element>& down) {
  for (size_t i = 0; i < level.size();) {
    size_t end = i;
    while (end + 1 < level.size() && value_of(level[end + 1]) == value_of(level[i])) ++end;
    const Element kept = is_del(level[end]) ? level[end] : level[i];
    (goes_down(kept, th) ? down : stay).push_back(kept);
    i = end + 1;
  }
}

}  // namespace gpulin::bucket_heap
