// The generalized heap's shared state, lock states, variants and mutants.
// Paper: ../shared/papers/concurrent-generalized-heap.txt (§3.1 layout, Fig. 9 states).
#pragma once

#include <cstdint>
#include <type_traits>

#include "structures/exec/context.h"
#include "structures/exec/private_memory.h"

namespace gpulin::gheap {

// Multi-state lock values (Fig. 9). TD heap: AVAIL, INUSE, TARGET, MARKED.
// BU heap: AVAIL, INUSE, INSHOLD, DELMOD (`paper` variant; the `fixed` BU heap uses
// the TD heap's states, see bu_insert.h).
enum : uint32_t {
  AVAIL = 0,
  INUSE = 1,
  TARGET = 2,
  MARKED = 3,
  INSHOLD = 4,
  DELMOD = 5,
};

enum class Variant : uint32_t {
  Paper = 0,  // the figures read as literally as they are well-defined
  Fixed = 1,  // the version this project believes correct (docs/findings.md)
};

// The root's lock word counts its holds (structures/exec/counted_word.h) where
// the executor counts them (X::kCountsHolds: the simulator always, the GPU in its
// recording kernels): its low bits are the state above, the rest the number of the
// root's holds ended since the heap's reset. Every access to it compares and
// changes the state only (ms_lock.h), so the heap behaves as with a plain state
// word, and a holder of the root knows its hold's number from the CAS that won it:
// the GPU's recording numbers the root's holds with no counter of its own
// (device_events.h, hold versions). The other nodes' words are their states: a
// holder of the root or of a parent takes them blind, with one CAS, which a count
// would have to be known for.
static_assert(INUSE == exec::kCountedHeld, "a counted word's held state is INUSE");
static_assert(DELMOD <= exec::kCountedStateMask, "every state fits a counted word's state bits");
GPULIN_HD constexpr bool counted_lock(uint32_t node) { return node == 1; }
// The state of any node's word (the root's may have its count above it).
GPULIN_HD constexpr uint32_t lock_state(uint32_t word) { return exec::counted_state(word); }

// Named bug injections (gpulin explore --mutant NAME). Each changes one line of
// the fixed heaps; the testbed must catch every one.
enum class Mutant : uint32_t {
  None = 0,
  EarlyRootRelease,    // TD delete releases the root before refilling it
  StartAtParent,       // fixed BU insert starts at its target's parent without comparing keys
  SkipPartialMerge,    // delete skips the merge of the refilled root with the partial buffer
  UnlockBeforeLock,    // TD insert releases the parent before locking the child
  BitReversalOffByOne, // target selection reverses one bit too few
  FixedBigChild,       // delete always sends the larger half right (Fig. 10's comment read literally)
  LostRootRelease,     // MS_UNLOCK of the root is lost: the first operation keeps it (a deadlock);
                       // the one mutant also built into GPU kernels, for the watchdog's test
  // The heap authors' ordering (ruadapt/gpuheap, artifacts/heap): locks taken and
  // released by plain atomicCAS (relaxed, no fence), batches read and written by
  // plain loads and stores (weak). The heap's code is unchanged: the simulator's
  // accesses are weakened (sim/sim_context.h, SimContext::Orders), so only the
  // ptx memory mode can tell; with_policy runs them as Mutant::None.
  RelaxedLocks,        // every ordering dropped
  RelaxedLocksFenced,  // ... and a __threadfence() (fence.sc.gpu) on either side of every atomic
  MaximaInMerged,      // fixed BU insert gathers its ancestors' maxima into s.merged, as before
                       // the fix of docs/findings.md M3: a race between the block's threads
};

// Operation codes recorded in histories (model pq-batch: "ins", "del").
enum : uint32_t { kFnIns = 0, kFnDel = 1 };

// A GPU recording by hold versions for the root-release rule (histories/
// device_events.h) numbers the holds of nodes [0, kRootHoldNodes): the root
// (node 1) alone, the only node whose holds the rule compares. Nothing is
// recorded inside a root hold (an operation's inv and ret lie outside it), so
// each may be one record after its release, its acq implied.
inline constexpr uint64_t kRootHoldNodes = 2;

// Node values beyond the heap are MAX_VALUE (Fig. 4(c) line 4 fills an emptied node
// with it): merging with an empty node changes nothing. So MAX_VALUE itself cannot
// be a key.
template <class Key>
struct KeyLimits;
template <>
struct KeyLimits<uint32_t> {
  static constexpr uint32_t max_value = 0xffffffffu;
};
template <>
struct KeyLimits<uint64_t> {
  static constexpr uint64_t max_value = ~uint64_t{0};
};

// Which heap runs, fixed per build of a kernel or a simulator run: template
// parameters (as cuCollections' policies), so that a branch on them is resolved by
// the compiler and a mutant is code only in its own instantiation. The GPU kernels
// instantiate Mutant::None only (structures/gheap/gpu/gheap_kernels.cu).
enum class Flavor : uint32_t { TopDown = 0, BottomUp = 1 };

template <Flavor F, Variant V, Mutant M = Mutant::None>
struct HeapPolicy {
  static constexpr Flavor flavor = F;
  static constexpr Variant variant = V;
  static constexpr Mutant mutant = M;
};

// One heap's memory (global memory on the GPU, host memory in the simulator).
// Nodes are 1-indexed; node x's batch is keys[x*k, (x+1)*k).
template <class Key>
struct HeapMemory {
  uint32_t k = 0;
  uint32_t capacity = 0;    // nodes 1..capacity exist in memory
  uint32_t* state = nullptr;      // [capacity + 1]
  Key* keys = nullptr;            // [(capacity + 1) * k]
  uint32_t* lastelem = nullptr;   // number of full nodes (guarded by the root lock)
  uint32_t* psize = nullptr;      // partial buffer size  (guarded by the root lock)
  Key* pbuffer = nullptr;         // [k]                  (guarded by the root lock)

  GPULIN_HD Key* node(uint32_t x) const { return keys + static_cast<uint64_t>(x) * k; }
  GPULIN_HD uint32_t* lock(uint32_t x) const { return state + x; }
};

// What an empty heap holds (both executors reset through this): every lock AVAIL,
// every key of the nodes and the buffer MAX_VALUE, lastelem = psize = 0.
// fill(ptr, n, value) writes n words in the executor's memory.
template <class Key, class Fill>
void reset_heap(const HeapMemory<Key>& m, Fill&& fill) {
  fill(m.state, m.capacity + uint64_t{1}, uint32_t{AVAIL});
  fill(m.keys, (m.capacity + uint64_t{1}) * m.k, KeyLimits<Key>::max_value);
  fill(m.pbuffer, uint64_t{m.k}, KeyLimits<Key>::max_value);
  fill(m.lastelem, uint64_t{1}, uint32_t{0});
  fill(m.psize, uint64_t{1}, uint32_t{0});
}

// The memory as one policy's algorithms see it.
template <class Key, class P>
struct HeapView : HeapMemory<Key> {
  using Policy = P;
  static constexpr Mutant mutant = P::mutant;
  GPULIN_HD static constexpr bool fixed() { return P::variant == Variant::Fixed; }
};

template <class P, class Key>
GPULIN_HD HeapView<Key, P> view_as(const HeapMemory<Key>& m) {
  HeapView<Key, P> v;
  static_cast<HeapMemory<Key>&>(v) = m;
  return v;
}

// Calls f(HeapPolicy<...>{}) for a choice made at run time: every flavor, variant
// and mutant is instantiated, so only the simulator's driver (tools/explore) and
// tests call this; the GPU launcher instantiates the two variants without mutants.
template <class F>
decltype(auto) with_policy(Flavor flavor, Variant variant, Mutant mutant, F&& f) {
  auto by_mutant = [&](auto fl, auto va) -> decltype(auto) {
    constexpr Flavor FL = decltype(fl)::value;
    constexpr Variant VA = decltype(va)::value;
    switch (mutant) {
      case Mutant::EarlyRootRelease: return f(HeapPolicy<FL, VA, Mutant::EarlyRootRelease>{});
      case Mutant::StartAtParent: return f(HeapPolicy<FL, VA, Mutant::StartAtParent>{});
      case Mutant::SkipPartialMerge: return f(HeapPolicy<FL, VA, Mutant::SkipPartialMerge>{});
      case Mutant::UnlockBeforeLock: return f(HeapPolicy<FL, VA, Mutant::UnlockBeforeLock>{});
      case Mutant::BitReversalOffByOne: return f(HeapPolicy<FL, VA, Mutant::BitReversalOffByOne>{});
      case Mutant::FixedBigChild: return f(HeapPolicy<FL, VA, Mutant::FixedBigChild>{});
      case Mutant::LostRootRelease: return f(HeapPolicy<FL, VA, Mutant::LostRootRelease>{});
      case Mutant::MaximaInMerged: return f(HeapPolicy<FL, VA, Mutant::MaximaInMerged>{});
      case Mutant::RelaxedLocks:        // an ordering mutant: the same code
      case Mutant::RelaxedLocksFenced:  // (the simulator weakens its accesses)
      case Mutant::None: break;
    }
    return f(HeapPolicy<FL, VA, Mutant::None>{});
  };
  using TD = std::integral_constant<Flavor, Flavor::TopDown>;
  using BU = std::integral_constant<Flavor, Flavor::BottomUp>;
  using Paper = std::integral_constant<Variant, Variant::Paper>;
  using Fixed = std::integral_constant<Variant, Variant::Fixed>;
  if (flavor == Flavor::TopDown) return variant == Variant::Fixed ? by_mutant(TD{}, Fixed{}) : by_mutant(TD{}, Paper{});
  return variant == Variant::Fixed ? by_mutant(BU{}, Fixed{}) : by_mutant(BU{}, Paper{});
}

// Block-private scratch for one operation (shared memory on the GPU): 6k keys,
// laid out by make_scratch. `a` and `b` are adjacent, so that a[0, 2k) is a second
// 2k merge output once both are free; so are `c` and `items`, so that a delete reads
// the last node and the root in one step. Ptr is the execution context's pointer
// to private memory (structures/exec/private_memory.h): Key* on the GPU, checked
// for races between the block's threads in the simulator.
template <class Key, class Ptr = Key*>
struct Scratch {
  Ptr items;   // the operation's own batch (insert items, delete result)
  Ptr a;       // a node loaded for a merge
  Ptr b;       // a second node (== a + k)
  Ptr merged;  // 2k: merge output
  Ptr c;       // the batch of the node a delete is sifting at
};
constexpr uint32_t kScratchKeysPerK = 6;
template <class Ptr>
GPULIN_HD inline Scratch<exec::private_element_t<Ptr>, Ptr> make_scratch(Ptr base, uint32_t k) {
  return {base + k, base + 2 * k, base + 3 * k, base + 4 * k, base};
}

}  // namespace gpulin::gheap
