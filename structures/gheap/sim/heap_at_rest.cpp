#include "structures/gheap/sim/heap_at_rest.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "histories/key_history.h"
#include "structures/gheap/bit_reversal.h"
#include "structures/gheap/sim/gheap_invariant.h"

namespace gpulin::explore {

namespace {

// The snapshot's keys are history integers (signed 64-bit). A 64-bit heap's
// MAX_VALUE (an absent node) becomes the largest of them, which keeps it above
// every key as properties 1 and 2 need; any other key above 2^63 - 1 is one no
// workload inserts, reported rather than wrapped.
template <class It>
std::optional<std::string> to_snapshot(It begin, It end, std::vector<int64_t>& out) {
  using Key = std::remove_cv_t<std::remove_reference_t<decltype(*begin)>>;
  out.clear();
  out.reserve(static_cast<size_t>(end - begin));
  for (It it = begin; it != end; ++it) {
    if (fits_history_integer(*it)) {
      out.push_back(static_cast<int64_t>(*it));
    } else {
      if (*it != gheap::KeyLimits<Key>::max_value) return key_out_of_history_range(*it);
      out.push_back(INT64_MAX);
    }
  }
  return std::nullopt;
}

}  // namespace

template <class Key>
std::optional<std::string> check_heap_at_rest(const gheap::HeapImage<Key>& img, gheap::Mutant mutant) {
  const uint32_t k = img.k;
  // A leaked lock is a bug even before anyone waits on it. The root's word counts
  // its holds above its state (gheap/config.h); any other word is its state alone.
  for (uint32_t x = 1; x <= img.capacity; ++x) {
    const uint32_t state = gheap::counted_lock(x) ? gheap::lock_state(img.state[x]) : img.state[x];
    if (state != gheap::AVAIL)
      return "at rest the heap keeps node " + std::to_string(x) + " in state " + std::to_string(state);
  }
  // The explorer checks the heap at every quiescent point of every schedule: the
  // snapshot's buffers are kept between checks (per thread) rather than allocated
  // node by node each time.
  thread_local std::vector<bool> present;
  thread_local GHeapSnapshot snap;
  present.assign(img.capacity + 1, false);
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
  snap.k = static_cast<int>(k);
  snap.nodes.resize(max_node + 1);
  for (uint32_t x = 1; x <= img.capacity; ++x) {
    const auto b = img.keys.begin() + static_cast<long>(size_t(x) * k);
    if (!present[x]) {
      const auto bad = std::find_if(b, b + k, [](Key v) { return v != gheap::KeyLimits<Key>::max_value; });
      if (bad != b + k) return "node " + std::to_string(x) + " is outside the heap but holds key " + std::to_string(*bad);
    }
    if (x <= max_node)
      if (auto bad = to_snapshot(b, b + k, snap.nodes[x])) return "node " + std::to_string(x) + " holds " + *bad;
  }
  if (auto bad = to_snapshot(img.pbuffer.begin(), img.pbuffer.begin() + img.psize, snap.partial))
    return "the partial buffer holds " + *bad;
  return check_gheap_invariant(snap);
}
template std::optional<std::string> check_heap_at_rest(const gheap::HeapImage<uint32_t>&, gheap::Mutant);
template std::optional<std::string> check_heap_at_rest(const gheap::HeapImage<uint64_t>&, gheap::Mutant);

}  // namespace gpulin::explore
