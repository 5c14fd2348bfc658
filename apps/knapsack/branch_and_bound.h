// 0/1 knapsack by best-first branch and bound over the concurrent generalized heap
// (the heap paper's §5.7.2), written once over the execution context: every actor
// (a thread block on the GPU, a fiber in the simulator) deletes the k most
// promising nodes, expands each (item `level` taken, if it fits, or left), keeps the
// children whose Dantzig bound beats the best profit found, and inserts them. The
// heap holds 64-bit keys: (kKeyTop - bound) << 32 | node index, so the smallest key
// is the node of largest bound (Order::Bound, the default), or (kKeyTop - profit) <<
// 32 | node index, the paper's key (Order::Profit; the bound then kept in the pool).
// The node itself (level, profit, weight) lives in a pool slot. Slots are recycled: an actor keeps the slots of the nodes it deleted in
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
//
// A batch is expanded by the actor's threads at once, a node a thread (the bounds'
// binary searches, the best profit raised by atomic max, the children appended to
// the actor's scratch by an atomic count; structures/exec/lane_atomics.h).
//
// Garbage collection (the paper's "knapsack with GC", §5.7.2: dominated nodes
// filtered out when the heap grows past a threshold): with gc_threshold set, the
// actor that sees more nodes pending than the trigger (the threshold at first) and
// wins the gc flag sweeps the heap while the others wait (they finish the batch in
// hand first, and its children may be swept too): it deletes the batches
// the heap held, drops the nodes whose bound no longer beats the best (their slots
// to its stash), and inserts the others back. The trigger then becomes twice the
// live nodes (never below the threshold): with more live nodes than the threshold
// every actor would otherwise sweep again at once, and the search stall (the
// simulator found that livelock). The sweep's nodes stay counted in `pending` until
// dropped or re-inserted, so termination is as above. With keys by bound the
// dominated nodes sink to the bottom and would each come out once anyway: what the
// sweep buys is room (a smaller heap, a smaller pool), at the price of re-inserting
// the live nodes; the benchmark measures both.
#pragma once

#include <array>
#include <cstdint>

#include "apps/knapsack/order.h"
#include "structures/exec/lane_atomics.h"
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
  uint32_t* node_bound = nullptr;  // Order::Profit: the bound, which the key no longer holds
  uint32_t pool = 0;
  uint32_t* stash = nullptr;      // [actors * stash_cap]: actor a's freed slots at a * stash_cap
  uint32_t stash_cap = 0;
  uint32_t* next_node = nullptr;  // pool allocation of fresh slots
  uint32_t* best = nullptr;       // the best profit of a feasible selection found
  uint32_t* pending = nullptr;    // nodes that exist (see above)
  uint32_t* epoch = nullptr;      // batches ended (see above)
  uint32_t* explored = nullptr;   // nodes expanded, summed at each actor's end
  uint32_t* created = nullptr;    // nodes made (the root is the host's), summed likewise
  // Garbage collection (see above); gc_threshold 0: none.
  uint32_t gc_threshold = 0;
  uint32_t* gc_flag = nullptr;    // 1 while an actor sweeps
  uint32_t* collected = nullptr;  // dominated nodes the sweeps dropped
  uint32_t* sweeps = nullptr;     // sweeps made
  uint32_t* gc_trigger = nullptr; // pending nodes that start a sweep (see above)
  uint64_t* gc_keys = nullptr;    // [pool]: the sweeping actor's live keys
};

// The words above in one array of kKnapsackWords: next_node, best, pending,
// explored, created, epoch, gc_flag, collected, sweeps, gc_trigger: their values
// at the start (node 0, the root, made and pending).
inline constexpr uint32_t kKnapsackWords = 10;
inline std::array<uint32_t, kKnapsackWords> start_words(uint32_t gc_threshold) {
  return {1, 0, 1, 0, 1, 0, 0, 0, 0, gc_threshold};
}
inline void lay_out_words(KnapsackView& v, uint32_t* words) {
  v.next_node = words, v.best = words + 1, v.pending = words + 2, v.explored = words + 3, v.created = words + 4;
  v.epoch = words + 5, v.gc_flag = words + 6, v.collected = words + 7, v.sweeps = words + 8, v.gc_trigger = words + 9;
}

// Actor-private room for one batch's children (2k each).
struct KnapsackScratch {
  uint64_t* keys = nullptr;
  uint32_t* level = nullptr;
  uint32_t* profit = nullptr;
  uint32_t* weight = nullptr;
  uint32_t* bound = nullptr;
  uint32_t* counts = nullptr;  // [2]: the batch's nodes expanded, children made
};
// Four arrays of 2k words and the two counts, after 2k keys.
inline constexpr uint32_t scratch_words(uint32_t k) { return 8 * k + 2; }
GPULIN_HD inline KnapsackScratch make_knapsack_scratch(uint64_t* keys, uint32_t* words, uint32_t k) {
  return KnapsackScratch{keys, words, words + 2 * k, words + 4 * k, words + 6 * k, words + 8 * k};
}

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

// The key of a node under the order: its bound's or its profit's complement above its
// slot (both below 2^31: the smallest key is the largest value).
template <Order O>
GPULIN_HD uint64_t key_of(uint32_t bound, uint32_t profit, uint32_t slot) {
  return node_key(O == Order::Bound ? bound : profit, slot);
}
// The bound of a deleted key's node: in the key, or in the pool (Order::Profit).
template <Order O>
GPULIN_HD uint64_t bound_at(const KnapsackView& v, uint64_t key) {
  if constexpr (O == Order::Bound) return bound_of_key(key);
  return exec::lane_load(v.node_bound + static_cast<uint32_t>(key));
}

// n keys inserted, k an operation.
template <class X, class P, class S>
GPULIN_HD void insert_keys(X& x, const gheap::HeapView<uint64_t, P>& h, const gheap::Scratch<uint64_t, S>& s,
                           uint64_t* keys, uint32_t n, int64_t& op) {
  for (uint32_t off = 0; off < n; off += h.k) {
    x.begin_op(op++);
    gheap::run_operation(x, h, s, gheap::kFnIns, keys + off, n - off < h.k ? n - off : h.k);
    x.end_op();
  }
}

// The slots of n deleted keys to the actor's stash, as many as fit.
template <class X, class Keys>
GPULIN_HD void stash_slots(X& x, Keys keys, uint32_t n, uint32_t* stash, uint32_t& stashed, uint32_t cap) {
  const uint32_t freed = n < cap - stashed ? n : cap - stashed;
  x.parallel_for(freed, [&](uint32_t j) { stash[stashed + j] = static_cast<uint32_t>(keys[j]); });
  stashed += freed;
}

// The children in the actor's scratch, counted pending before they can be taken
// (see the top), given slots (the stash's first), written and inserted, k an
// operation.
template <Order O, class X, class P, class S>
GPULIN_HD void insert_children(X& x, const gheap::HeapView<uint64_t, P>& h, const gheap::Scratch<uint64_t, S>& s,
                               const KnapsackScratch& c, const KnapsackView& v, uint32_t* stash, uint32_t& stashed,
                               uint32_t children, int64_t& op) {
  x.fetch_add(v.pending, children);
  const uint32_t reused = children < stashed ? children : stashed, fresh = children - reused;
  const uint32_t first = fresh ? x.fetch_add(v.next_node, fresh) : 0;
  if (fresh && uint64_t{first} + fresh > v.pool) x.fail("knapsack: the node pool is full");
  x.parallel_for(children, [&](uint32_t i) {
    const uint32_t slot = i < reused ? stash[stashed - 1 - i] : first + (i - reused);
    v.node_level[slot] = c.level[i], v.node_profit[slot] = c.profit[i], v.node_weight[slot] = c.weight[i];
    if constexpr (O == Order::Profit) v.node_bound[slot] = c.bound[i];
    c.keys[i] = key_of<O>(c.bound[i], c.profit[i], slot);
  });
  stashed -= reused;
  insert_keys(x, h, s, c.keys, children, op);
}

// The garbage collector's sweep (see the top): the batches the heap held when
// `pending` was read, the live keys kept in v.gc_keys and inserted back.
template <Order O, class X, class P, class S>
GPULIN_HD void sweep(X& x, const gheap::HeapView<uint64_t, P>& h, const gheap::Scratch<uint64_t, S>& s,
                     const KnapsackScratch& c, const KnapsackView& v, uint32_t* stash, uint32_t& stashed,
                     uint32_t pending, int64_t& op) {
  uint32_t live = 0, dropped = 0;
  for (uint32_t taken = 0; taken < pending;) {
    x.begin_op(op++);
    const uint32_t m = gheap::run_operation(x, h, s, gheap::kFnDel, c.keys, 0);
    x.end_op();
    if (m == 0) break;
    taken += m;
    const uint32_t best = x.load(v.best);
    // Live keys first (a bound beating the best), in delete order.
    x.parallel_for(m, [&](uint32_t j) { c.level[j] = bound_at<O>(v, s.items[j]) > best; });
    const uint32_t alive = x.exclusive_sum(c.level, m, c.profit);
    x.parallel_for(m, [&](uint32_t j) {
      if (c.level[j]) v.gc_keys[live + c.profit[j]] = s.items[j];
      else c.keys[j - c.profit[j]] = s.items[j];  // the dominated, packed for the stash
    });
    stash_slots(x, c.keys, m - alive, stash, stashed, v.stash_cap);
    live += alive, dropped += m - alive;
  }
  // Back into the heap through the actor's scratch, k at a time.
  for (uint32_t off = 0; off < live; off += h.k) {
    const uint32_t n = live - off < h.k ? live - off : h.k;
    x.parallel_for(n, [&](uint32_t i) { c.keys[i] = v.gc_keys[off + i]; });
    insert_keys(x, h, s, c.keys, n, op);
  }
  x.store(v.gc_trigger, 2 * live > v.gc_threshold ? 2 * live : v.gc_threshold);
  x.fetch_add(v.pending, 0u - dropped);
  x.fetch_add(v.collected, dropped);
  x.fetch_add(v.sweeps, 1u);
}

// One actor's share of the search. Actor 0 first inserts the root (node 0, which
// the host wrote, with pending = 1 and next_node = 1). `stop()` is asked before
// each delete (the GPU's watchdog; the simulator's never stops).
template <Order O, class X, class P, class Stop, class S>
GPULIN_HD void branch_and_bound(X& x, const gheap::HeapView<uint64_t, P>& h, const gheap::Scratch<uint64_t, S>& s,
                                const KnapsackScratch& c, const KnapsackView& v, uint32_t actor, int64_t op_base,
                                Stop&& stop) {
  int64_t op = op_base;
  uint32_t expanded = 0;
  uint32_t* const stash = v.stash + static_cast<uint64_t>(actor) * v.stash_cap;
  uint32_t stashed = 0, made = 0;  // actor-uniform
  if (actor == 0) {
    x.parallel_for(1, [&](uint32_t) {
      const uint32_t bound = static_cast<uint32_t>(bound_of(v, 0, 0, 0));
      if constexpr (O == Order::Profit) v.node_bound[0] = bound;
      c.keys[0] = key_of<O>(bound, 0, 0);
    });
    insert_keys(x, h, s, c.keys, 1, op);
  }
  for (;;) {
    if (stop()) return;
    // A sweep on: wait for it (the paper's GC runs "before the algorithm continues to
    // explore": actors that went on expanding while the best nodes were out of the
    // heap explored up to 6x more nodes in the simulator, and filled 2^20 slots on
    // the GPU, with the profit key).
    if (v.gc_threshold && x.load(v.gc_flag) != 0) {
      x.wait_while_equals(v.gc_flag, 1u);
      continue;
    }
    const uint32_t epoch = x.load(v.epoch);
    const uint32_t pending = x.load(v.pending);
    if (v.gc_threshold && pending > x.load(v.gc_trigger) && x.cas(v.gc_flag, 0u, 1u) == 0) {
      sweep<O>(x, h, s, c, v, stash, stashed, pending, op);
      x.store(v.gc_flag, 0u);
      x.fetch_add(v.epoch, 1);  // the live nodes are back: wake the waiters
      continue;
    }
    x.begin_op(op++);
    const uint32_t m = gheap::run_operation(x, h, s, gheap::kFnDel, c.keys, 0);
    x.end_op();
    if (m == 0) {
      if (pending == 0) break;
      x.wait_while_equals(v.epoch, epoch);
      continue;
    }
    // Expand the batch, a node a thread.
    x.parallel_for(2, [&](uint32_t i) { c.counts[i] = 0; });
    x.parallel_for(m, [&](uint32_t j) {
      const uint64_t key = s.items[j];
      const uint32_t node = static_cast<uint32_t>(key);
      if (bound_at<O>(v, key) <= exec::lane_load(v.best)) return;  // dominated since it was inserted
      exec::lane_fetch_add(c.counts, 1u);
      const uint32_t level = exec::lane_load(v.node_level + node);
      const uint32_t profit = exec::lane_load(v.node_profit + node);
      const uint32_t weight = exec::lane_load(v.node_weight + node);
      // Item `level` taken (when it fits): a feasible selection, maybe the best.
      const bool fits = uint64_t{weight} + v.weight[level] <= v.capacity;
      const uint32_t tp = profit + (fits ? v.profit[level] : 0u), tw = weight + (fits ? v.weight[level] : 0u);
      if (fits) exec::lane_fetch_max(v.best, tp);
      if (level + 1 == v.n) return;  // a leaf: nothing below it
      const uint32_t best = exec::lane_load(v.best);
      const uint64_t taken = fits ? bound_of(v, level + 1, tp, tw) : 0;
      const uint64_t left = bound_of(v, level + 1, profit, weight);
      const auto child = [&](uint32_t p, uint32_t w, uint64_t b) {
        const uint32_t i = exec::lane_fetch_add(c.counts + 1, 1u);
        c.level[i] = level + 1, c.profit[i] = p, c.weight[i] = w, c.bound[i] = static_cast<uint32_t>(b);
      };
      if (fits && taken > best) child(tp, tw, taken);
      if (left > best) child(profit, weight, left);
    });
    expanded += c.counts[0];
    const uint32_t children = c.counts[1];
    // The batch's nodes are read: their slots go to the stash (as many as fit).
    stash_slots(x, s.items, m, stash, stashed, v.stash_cap);
    if (children) {
      made += children;
      insert_children<O>(x, h, s, c, v, stash, stashed, children, op);
    }
    x.fetch_add(v.pending, 0u - m);  // the batch is done
    x.fetch_add(v.epoch, 1);
  }
  x.fetch_add(v.explored, expanded);
  x.fetch_add(v.created, made);
}

}  // namespace gpulin::knapsack
