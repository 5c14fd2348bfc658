// 0/1 knapsack by best-first branch and bound over the concurrent generalized heap
// (the heap paper's §5.7.2), written once over the execution context: every actor
// (a thread block on the GPU, a fiber in the simulator) deletes the k most
// promising nodes, expands each (item `level` taken, if it fits, or left), keeps the
// children whose Dantzig bound beats the best profit found, and inserts them. The
// heap holds 64-bit keys: (kKeyTop - bound) << 32 | node index, so the smallest key
// is the node of largest bound. The node itself (level, profit, weight) lives in a
// pool slot. Slots are recycled: an actor keeps the slots of the nodes it deleted in
// its own stash (up to stash_cap; past that they are not reused) and gives them to
// its next children before it takes fresh ones, so the pool needs room for the
// nodes alive at once, not for every node ever made (the first GPU runs, with
// fresh slots only, filled 2^24 slots on a 200-item instance). A slot is reused
// only by the actor that freed it, after it read the node: no other actor can
// still be reading it. So a key may come back later (same bound, same slot); the
// pq-batch model is a multiset and the checkers take that.
//
// Termination: `pending` counts the nodes that exist, in the heap or held by an
// actor between its delete and the end of its batch. Children are counted before
// they are inserted, the batch is discounted after, so pending reaches 0 exactly
// when no node is left anywhere, and never rises again. An actor whose delete found
// the heap empty waits for `epoch`, which every batch's end advances, having read it
// BEFORE the delete: an insert that lands after that read is followed by an advance
// the waiter sees; one that landed before it, the delete sees. (Waiting on pending
// itself would not do: +2 then -2 between two of the waiter's polls looks like no
// change, and on the GPU every actor could then wait with nodes in the heap.)
#pragma once

#include <cstdint>

#include "structures/exec/memory_order.h"
#include "structures/gheap/operation.h"

namespace gpulin::knapsack {

inline constexpr uint64_t kKeyTop = 0x7fffffffu;  // bounds are below 2^31: keys below 2^63

struct KnapsackView {
  uint32_t n = 0, capacity = 0;
  // The items sorted by ratio and their prefix sums [n + 1] (immutable inputs).
  const uint32_t* profit = nullptr;
  const uint32_t* weight = nullptr;
  const uint64_t* prefix_profit = nullptr;
  const uint64_t* prefix_weight = nullptr;
  // The node pool: node i decided items [0, level[i]) with profit[i], weight[i].
  uint32_t* node_level = nullptr;
  uint32_t* node_profit = nullptr;
  uint32_t* node_weight = nullptr;
  uint32_t pool = 0;
  uint32_t* stash = nullptr;      // [actors * stash_cap]: actor a's freed slots at a * stash_cap
  uint32_t stash_cap = 0;
  uint32_t* next_node = nullptr;  // pool allocation of fresh slots
  uint32_t* best = nullptr;       // the best profit of a feasible selection found
  uint32_t* pending = nullptr;    // nodes that exist (see above)
  uint32_t* epoch = nullptr;      // batches ended (see above)
  uint32_t* explored = nullptr;   // nodes expanded, summed at each actor's end
  uint32_t* created = nullptr;    // nodes made (the root is the host's), summed likewise
};

// Actor-private room for one batch's children (2k each).
struct KnapsackScratch {
  uint64_t* keys = nullptr;
  uint32_t* level = nullptr;
  uint32_t* profit = nullptr;
  uint32_t* weight = nullptr;
  uint32_t* bound = nullptr;
  uint32_t* slot = nullptr;
};
inline constexpr uint32_t kScratchWordsPerK = 10;  // five arrays of 2k words

// Dantzig's bound (apps/knapsack/instance.h's dantzig_bound, by binary search over
// the prefix sums): the items from `level` on greedily, the first that does not fit
// taken fractionally, rounded down.
GPULIN_HD inline uint64_t bound_of(const KnapsackView& v, uint32_t level, uint64_t profit, uint64_t weight) {
  if (weight > v.capacity) return 0;
  const uint64_t room = v.capacity - weight, base = v.prefix_weight[level];
  uint32_t lo = level, hi = v.n;  // the last t with prefix_weight[t] - base <= room
  while (lo < hi) {
    const uint32_t mid = (lo + hi + 1) / 2;
    if (v.prefix_weight[mid] - base <= room) lo = mid; else hi = mid - 1;
  }
  uint64_t b = profit + v.prefix_profit[lo] - v.prefix_profit[level];
  if (lo < v.n) b += (room - (v.prefix_weight[lo] - base)) * v.profit[lo] / v.weight[lo];
  return b;
}

GPULIN_HD inline uint64_t node_key(uint64_t bound, uint32_t index) { return (kKeyTop - bound) << 32 | index; }
GPULIN_HD inline uint64_t bound_of_key(uint64_t key) { return kKeyTop - (key >> 32); }

// The best profit, raised to at least p.
template <class X>
GPULIN_HD void raise_best(X& x, const KnapsackView& v, uint32_t p) {
  for (uint32_t b = x.load(v.best); p > b;) {
    const uint32_t old = x.cas(v.best, b, p);
    if (old == b) return;
    b = old;
  }
}

// One actor's share of the search. Actor 0 first inserts the root (node 0, which
// the host wrote, with pending = 1 and next_node = 1). `stop()` is asked before
// each delete (the GPU's watchdog; the simulator's never stops).
template <class X, class P, class Stop>
GPULIN_HD void branch_and_bound(X& x, const gheap::HeapView<uint64_t, P>& h, const gheap::Scratch<uint64_t>& s,
                                const KnapsackScratch& c, const KnapsackView& v, uint32_t actor, int64_t op_base,
                                Stop&& stop) {
  const uint32_t k = h.k;
  int64_t op = op_base;
  uint32_t expanded = 0;
  uint32_t* const stash = v.stash + static_cast<uint64_t>(actor) * v.stash_cap;
  uint32_t stashed = 0, made = 0;  // actor-uniform
  // A barrier of the actor's threads: what the first thread wrote to the actor's
  // scratch (or the delete left in s.items), every thread may read after it.
  const auto barrier = [&x] { x.parallel_for(0, [](uint32_t) {}); };
  if (actor == 0) {
    if (x.first_thread()) c.keys[0] = node_key(bound_of(v, 0, 0, 0), 0);
    barrier();
    x.begin_op(op++);
    gheap::run_operation(x, h, s, gheap::kFnIns, c.keys, 1);
    x.end_op();
  }
  for (;;) {
    if (stop()) return;
    const uint32_t epoch = x.load(v.epoch);
    const uint32_t pending = x.load(v.pending);
    x.begin_op(op++);
    const uint32_t m = gheap::run_operation(x, h, s, gheap::kFnDel, c.keys, 0);
    x.end_op();
    if (m == 0) {
      if (pending == 0) break;
      x.wait_while_equals(v.epoch, epoch);
      continue;
    }
    barrier();
    uint32_t children = 0;
    for (uint32_t j = 0; j < m; ++j) {
      const uint64_t key = s.items[j];
      const uint32_t node = static_cast<uint32_t>(key);
      if (bound_of_key(key) <= x.load(v.best)) continue;  // dominated since it was inserted
      ++expanded;
      const uint32_t level = x.load(v.node_level + node);
      const uint32_t profit = x.load(v.node_profit + node);
      const uint32_t weight = x.load(v.node_weight + node);
      // Item `level` taken (when it fits): a feasible selection, maybe the best.
      const bool fits = uint64_t{weight} + v.weight[level] <= v.capacity;
      const uint32_t tp = profit + (fits ? v.profit[level] : 0u), tw = weight + (fits ? v.weight[level] : 0u);
      if (fits) raise_best(x, v, tp);
      if (level + 1 == v.n) continue;  // a leaf: nothing below it
      const uint32_t best = x.load(v.best);
      const uint64_t taken = fits ? bound_of(v, level + 1, tp, tw) : 0;
      const uint64_t left = bound_of(v, level + 1, profit, weight);
      if (x.first_thread()) {
        if (fits && taken > best) {
          c.level[children] = level + 1, c.profit[children] = tp, c.weight[children] = tw;
          c.bound[children] = static_cast<uint32_t>(taken);
        }
        const uint32_t at = children + (fits && taken > best);
        if (left > best) {
          c.level[at] = level + 1, c.profit[at] = profit, c.weight[at] = weight;
          c.bound[at] = static_cast<uint32_t>(left);
        }
      }
      children += (fits && taken > best) + (left > best);
    }
    // The batch's nodes are read: their slots go to the stash (as many as fit).
    const uint32_t freed = m < v.stash_cap - stashed ? m : v.stash_cap - stashed;
    if (x.first_thread())
      for (uint32_t j = 0; j < freed; ++j) stash[stashed + j] = static_cast<uint32_t>(s.items[j]);
    stashed += freed;
    if (children) {
      // Counted before they can be taken (see the top), then given slots (the
      // stash's first), written and inserted.
      x.fetch_add(v.pending, children);
      made += children;
      const uint32_t reused = children < stashed ? children : stashed, fresh = children - reused;
      const uint32_t first = fresh ? x.fetch_add(v.next_node, fresh) : 0;
      if (fresh && uint64_t{first} + fresh > v.pool) x.fail("knapsack: the node pool is full");
      if (x.first_thread())
        for (uint32_t i = 0; i < children; ++i) c.slot[i] = i < reused ? stash[stashed - 1 - i] : first + (i - reused);
      stashed -= reused;
      barrier();
      for (uint32_t i = 0; i < children; ++i) {
        x.store(v.node_level + c.slot[i], c.level[i], exec::relaxed);
        x.store(v.node_profit + c.slot[i], c.profit[i], exec::relaxed);
        x.store(v.node_weight + c.slot[i], c.weight[i], exec::relaxed);
      }
      x.parallel_for(children, [&](uint32_t i) { c.keys[i] = node_key(c.bound[i], c.slot[i]); });
      for (uint32_t off = 0; off < children; off += k) {
        x.begin_op(op++);
        gheap::run_operation(x, h, s, gheap::kFnIns, c.keys + off, children - off < k ? children - off : k);
        x.end_op();
      }
    }
    x.fetch_add(v.pending, 0u - m);  // the batch is done
    x.fetch_add(v.epoch, 1);
  }
  x.fetch_add(v.explored, expanded);
  x.fetch_add(v.created, made);
}

}  // namespace gpulin::knapsack
