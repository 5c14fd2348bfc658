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

// A key as the snapshot holds it (to_snapshot), or nullopt where it has none.
template <class Key>
std::optional<int64_t> snapshot_key(Key v) {
  if (fits_history_integer(v)) return static_cast<int64_t>(v);
  if (v == gheap::KeyLimits<Key>::max_value) return INT64_MAX;
  return std::nullopt;
}

// The nodes in fill order (node_of(1), node_of(2), ...) for the heap's capacity and
// mutant, kept per thread: every check of one exploration asks for the same.
const std::vector<uint32_t>& fill_order(uint32_t capacity, gheap::Mutant mutant) {
  thread_local std::vector<uint32_t> nodes;
  thread_local gheap::Mutant made_for = gheap::Mutant::None;
  if (nodes.size() != capacity + size_t{1} || made_for != mutant) {
    nodes.assign(capacity + size_t{1}, 0);
    for (uint32_t i = 1; i <= capacity; ++i) nodes[i] = gheap::node_of(i, mutant);
    made_for = mutant;
  }
  return nodes;
}

// Whether the heap passes every check below (true), in one pass over the image with
// nothing allocated: the explorer asks at every quiescent point of every schedule,
// and a heap at rest nearly always passes. It tests what the checks below test, on
// the keys as the snapshot holds them; where it finds a failure, or a key the
// snapshot has none for, the checks below run and name it.
template <class Key>
bool passes_at_rest(const gheap::HeapImage<Key>& img, gheap::Mutant mutant) {
  const uint32_t k = img.k;
  if (k < 1 || img.psize >= k || img.lastelem > img.capacity || img.capacity < 1) return false;
  // Every lock AVAIL: only the root's word counts its holds (gheap/config.h), and
  // the others are ORed together in one loop the compiler vectorizes.
  static_assert(gheap::AVAIL == 0 && gheap::counted_lock(1) && !gheap::counted_lock(2));
  uint32_t held = gheap::lock_state(img.state[1]);
  for (uint32_t x = 2; x <= img.capacity; ++x) held |= img.state[x];
  if (held != gheap::AVAIL) return false;
  thread_local std::vector<uint8_t> present;
  present.assign(img.capacity + size_t{1}, 0);
  const std::vector<uint32_t>& order = fill_order(img.capacity, mutant);
  uint32_t max_node = 0;
  for (uint32_t i = 1; i <= img.lastelem; ++i) {
    if (order[i] > img.capacity) return false;
    present[order[i]] = 1;
    max_node = std::max(max_node, order[i]);
  }
  // The nodes past the last one filled are outside the heap: all MAX_VALUE, tested
  // in one loop the compiler vectorizes (most of the heap at a quiescent point).
  static_assert(gheap::KeyLimits<Key>::max_value == static_cast<Key>(~Key{0}), "MAX_VALUE is all ones: ANDed");
  Key all = gheap::KeyLimits<Key>::max_value;
  for (size_t i = size_t(max_node + 1) * k; i < size_t(img.capacity + 1) * k; ++i) all &= img.keys[i];
  if (all != gheap::KeyLimits<Key>::max_value) return false;
  // Up to it: each node's keys sorted (property 2) and its smallest no smaller than
  // its parent's largest (property 1); a node outside the heap all MAX_VALUE.
  for (uint32_t x = 1; x <= max_node; ++x) {
    const Key* node = img.keys.data() + size_t(x) * k;
    if (!present[x] && std::any_of(node, node + k, [](Key v) { return v != gheap::KeyLimits<Key>::max_value; }))
      return false;
    std::optional<int64_t> prev = snapshot_key(node[0]);
    if (!prev) return false;
    if (x >= 2 && *prev < *snapshot_key(img.keys[size_t(x / 2) * k + k - 1])) return false;
    for (uint32_t i = 1; i < k; ++i) {
      const std::optional<int64_t> v = snapshot_key(node[i]);
      if (!v || *v < *prev) return false;
      prev = v;
    }
  }
  // The partial buffer sorted, shorter than k (above), and above the root (property 3).
  for (uint32_t i = 0; i < img.psize; ++i) {
    const std::optional<int64_t> v = snapshot_key(img.pbuffer[i]);
    if (!v) return false;
    if (i == 0 && max_node >= 1 && *v < *snapshot_key(img.keys[size_t(k) + k - 1])) return false;
    if (i > 0 && *v < *snapshot_key(img.pbuffer[i - 1])) return false;
  }
  return true;
}

}  // namespace

template <class Key>
std::optional<std::string> check_heap_at_rest(const gheap::HeapImage<Key>& img, gheap::Mutant mutant) {
  if (passes_at_rest(img, mutant)) return std::nullopt;
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
