#include "tools/explore/heap_at_rest.h"

#include <algorithm>
#include <vector>

#include "structures/gheap/bit_reversal.h"
#include "verify/gheap_invariant.h"

namespace gpulin::explore {

std::optional<std::string> check_heap_at_rest(const gheap::HeapImage& img, gheap::Mutant mutant) {
  const uint32_t k = img.k;
  // A leaked lock is a bug even before anyone waits on it.
  for (uint32_t x = 1; x <= img.capacity; ++x)
    if (img.state[x] != gheap::AVAIL)
      return "at rest the heap keeps node " + std::to_string(x) + " in state " + std::to_string(img.state[x]);
  std::vector<bool> present(img.capacity + 1, false);
  uint32_t max_node = 0;
  for (uint32_t i = 1; i <= img.lastelem; ++i) {
    const uint32_t x = gheap::node_of(i, mutant);
    if (x > img.capacity) return "node " + std::to_string(x) + " beyond capacity";
    present[x] = true;
    max_node = std::max(max_node, x);
  }
  // Absent nodes hold MAX_VALUE (they must: a delete merges with them), which
  // satisfies properties 1 and 2 wherever they sit, so the snapshot keeps the tree
  // shape of the bit-reversed fill.
  GHeapSnapshot snap;
  snap.k = static_cast<int>(k);
  snap.nodes.resize(max_node + 1);
  for (uint32_t x = 1; x <= img.capacity; ++x) {
    const auto b = img.keys.begin() + static_cast<long>(size_t(x) * k);
    if (!present[x]) {
      const auto bad = std::find_if(b, b + k, [](uint32_t v) { return v != gheap::KeyLimits<uint32_t>::max_value; });
      if (bad != b + k) return "node " + std::to_string(x) + " is outside the heap but holds key " + std::to_string(*bad);
    }
    if (x <= max_node) snap.nodes[x].assign(b, b + k);
  }
  snap.partial.assign(img.pbuffer.begin(), img.pbuffer.begin() + img.psize);
  return check_gheap_invariant(snap);
}

}  // namespace gpulin::explore
