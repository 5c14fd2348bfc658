#include "structures/gheap/sim/gheap_invariant.h"

#include "verify/keys_text.h"

namespace gpulin {
namespace {

// Index of the first key smaller than its predecessor, or 0 when sorted.
size_t first_descent(const std::vector<int64_t>& keys) {
  for (size_t i = 1; i < keys.size(); ++i)
    if (keys[i] < keys[i - 1]) return i;
  return 0;
}

}  // namespace

std::optional<std::string> check_gheap_invariant(const GHeapSnapshot& heap) {
  const size_t k = static_cast<size_t>(heap.k);
  if (heap.k < 1) return "bad snapshot: k = " + std::to_string(heap.k);
  const size_t n = heap.nodes.empty() ? 0 : heap.nodes.size() - 1;

  // Every node is a full batch; the properties below assume it.
  for (size_t c = 1; c <= n; ++c)
    if (heap.nodes[c].size() != k)
      return "node " + std::to_string(c) + " holds " + std::to_string(heap.nodes[c].size()) + " keys, not k = " +
             std::to_string(k) + ": " + keys_text(heap.nodes[c]);

  // Property 2: the keys of a node are sorted ascending.
  for (size_t c = 1; c <= n; ++c)
    if (size_t i = first_descent(heap.nodes[c]))
      return "property 2 (node sorted): node " + std::to_string(c) + " " + keys_text(heap.nodes[c]) + " has key " +
             std::to_string(heap.nodes[c][i]) + " after " + std::to_string(heap.nodes[c][i - 1]);

  // Property 1: a child's smallest key is >= its parent's largest (both sorted).
  for (size_t c = 2; c <= n; ++c) {
    const auto& child = heap.nodes[c];
    const auto& parent = heap.nodes[c / 2];
    if (child.front() < parent.back())
      return "property 1 (child min >= parent max): node " + std::to_string(c) + " " + keys_text(child) +
             " has key " + std::to_string(child.front()) + " below its parent node " + std::to_string(c / 2) + " " +
             keys_text(parent) + " largest key " + std::to_string(parent.back());
  }

  // Property 3: the partial buffer is sorted, shorter than k, and its keys are
  // >= the root's. The paper writes node[r][k-1] for the root's largest key in
  // 1-based indexing, which would be the second largest; "larger than or equal to
  // those in the root node" in its text settles it: the largest, node[r][k].
  const auto& b = heap.partial;
  if (b.size() >= k)
    return "property 3 (partial buffer): it holds " + std::to_string(b.size()) + " keys, k = " + std::to_string(k) +
           " allows at most " + std::to_string(k - 1) + ": " + keys_text(b);
  if (size_t i = first_descent(b))
    return "property 3 (partial buffer sorted): " + keys_text(b) + " has key " + std::to_string(b[i]) + " after " +
           std::to_string(b[i - 1]);
  if (n >= 1 && !b.empty() && b.front() < heap.nodes[1].back())
    return "property 3 (partial buffer >= root): its first key " + std::to_string(b.front()) +
           " is below the root node 1 " + keys_text(heap.nodes[1]) + " largest key " +
           std::to_string(heap.nodes[1].back());
  return std::nullopt;
}

}  // namespace gpulin
