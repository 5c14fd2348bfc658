// The generalized heap property (concurrent-generalized-heap.txt, section 3.1)
// checked on a snapshot of a heap at rest: the structure's own invariant, beside
// the history checks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpulin {

struct GHeapSnapshot {
  int k = 1;
  // nodes[0] unused; nodes[1..n] are the full nodes 1..lastelem (node i's
  // children are 2i and 2i+1), each exactly k keys.
  std::vector<std::vector<int64_t>> nodes;
  std::vector<int64_t> partial;  // the partial buffer
};

// nullopt when the snapshot has properties 1-3; otherwise a message naming the
// property, the node and the keys that break it.
std::optional<std::string> check_gheap_invariant(const GHeapSnapshot& heap);

}  // namespace gpulin
