// The P-Sync parallel heap's compile-time choices (He, Agarwal, Prasad; paper in
// ../shared/papers/parallel-heap-psync.txt): the key type and the planted bug the
// testbed's checks must catch. A policy is a template argument of every step, as
// cuCollections fixes its per-build choices, never a field tested in each step.
#pragma once

#include <cstdint>

namespace gpulin::psync {

enum class Mutant : uint32_t {
  None,
  // A delete-update process advanced two levels in one step (it works on its
  // node's children's level in the same step, racing the process there).
  TwoLevels,
  // The barrier between the even and the odd levels' steps removed (§III-B steps
  // 2 and 3 overlap).
  NoBarrier,
  // The r - k refill taken from the wrong end: the first keys of the last node or
  // of an insert-update process's buffer instead of its last ones (§IV-C).
  RefillWrongEnd,
};

template <class K, Mutant M = Mutant::None>
struct Policy {
  using Key = K;
  static constexpr Mutant mutant = M;
};

}  // namespace gpulin::psync
