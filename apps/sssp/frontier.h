// SSSP by an advance/filter frontier loop with the generalized heap (the heap
// paper's §5.7.1): a Gunrock-style label-correcting loop whose active vertices,
// when there are more than a threshold N of them, go through the heap keyed by
// distance, so that the nearest N are explored first and the others wait, often
// to be improved (and their earlier entry dropped) before they are explored. With
// no heap it is the plain loop, the paper's baseline. Written once over the
// execution context: every actor (a thread block on the GPU, a fiber in the
// simulator) takes a share of each step; the steps are separated by a barrier of
// all actors (structures/exec/actor_barrier.h).
//
// A round:
//  1. advance: the frontier F is split among the actors; each thread takes a
//     vertex v and relaxes its out-edges (atomic min on dist); a vertex whose
//     distance fell is appended to the active list A once a round (its mark word
//     holds the last round that appended it). Barrier.
//  2. filter: |A| = 0 and an empty heap: done. Without the heap, or with an empty
//     heap and |A| <= N: F = A. Otherwise a heap round:
//  3. insert A in batches of k, key (dist << 32 | v), batch c by actor c mod P.
//     Barrier.
//  4. delete D = ceil(min(keys in the heap, N rounded up to k) / k) batches: the
//     actors take delete tickets until D are taken. With no insert running, the D
//     deletes return exactly that many keys, so every actor knows the heap's size
//     without reading it. An entry whose distance is no longer its vertex's (the
//     vertex improved after it was inserted, and was queued again) is dropped; the
//     others are the next frontier. Barrier.
// The answer does not depend on the order: it is label-correcting, every vertex
// whose distance falls is explored again, so dist ends as the shortest distances.
#pragma once

#include <cstdint>

#include "apps/sssp/pardijkstra.h"  // GraphView
#include "structures/exec/actor_barrier.h"
#include "structures/exec/lane_atomics.h"
#include "structures/exec/memory_order.h"
#include "structures/gheap/operation.h"

namespace gpulin::sssp {

inline constexpr uint32_t kFrontierCountSlots = 3;  // see frontier_sssp's rotation

struct FrontierView {
  GraphView g;
  uint32_t* dist = nullptr;      // n words: 0 at the source, kUnreached elsewhere
  uint32_t* mark = nullptr;      // n words, all 0: the last round that appended the vertex
  uint32_t* queue[2] = {};       // frontier buffers (frontier_queue_words each); queue[0][0] = the source
  uint32_t* active = nullptr;    // [kFrontierCountSlots]: vertices appended to A in a round, rotating
  uint32_t* popped = nullptr;    // [kFrontierCountSlots]: vertices of the next F taken from the heap, rotating
  uint32_t* tickets = nullptr;   // delete tickets taken, over the whole run
  uint32_t* visited = nullptr;   // frontier vertices explored, summed at each actor's end
  exec::ActorBarrier barrier;
  uint32_t threshold = 0;        // N
  uint64_t heap_capacity = 0;    // keys the heap can hold
  bool with_heap = false;
};

// The run's counters and barrier in one zeroed array of kFrontierWords, the queues
// in one of 2 * queue_cap: the layout the GPU run and the simulator's share.
inline constexpr uint32_t kFrontierWords = 2 * kFrontierCountSlots + 4;
inline FrontierView lay_out_frontier(const GraphView& g, uint32_t* dist, uint32_t* mark, uint32_t* queues,
                                     uint32_t queue_cap, uint32_t* words, uint32_t actors) {
  FrontierView v;
  v.g = g;
  v.dist = dist;
  v.mark = mark;
  v.queue[0] = queues;
  v.queue[1] = queues + queue_cap;
  v.active = words;
  v.popped = words + kFrontierCountSlots;
  v.tickets = words + 2 * kFrontierCountSlots;
  v.visited = v.tickets + 1;
  v.barrier = exec::ActorBarrier{v.tickets + 2, v.tickets + 3, actors};
  return v;
}

// Actor 0's account of the run (every actor's is the same but for the times).
struct FrontierRounds {
  uint32_t rounds = 0, heap_rounds = 0;
  uint64_t heap_ns = 0, compute_ns = 0;  // from the `now` given (0 where it reads no clock)
};

GPULIN_HD inline uint64_t frontier_key(uint32_t dist, uint32_t v) { return uint64_t{dist} << 32 | v; }

// One actor's part of the run. `keys` is the actor's room for one batch (k keys);
// `stop()` is asked at each round's start (the GPU's watchdog), `now()` reads a
// clock in ns for the heap/compute split.
template <class X, class P, class Stop, class Now, class S>
GPULIN_HD FrontierRounds frontier_sssp(X& x, const gheap::HeapView<uint64_t, P>& h, const gheap::Scratch<uint64_t, S>& s,
                                       uint64_t* keys, const FrontierView& v, uint32_t actor, uint32_t actors,
                                       int64_t op_base, Stop&& stop, Now&& now) {
  const uint32_t k = h.k, threads = x.threads();
  const uint32_t batch_cap = (v.threshold + k - 1) / k * k;  // N rounded up to k
  int64_t op = op_base;
  uint32_t f = 0, frontier = 1, visited = 0;  // F is queue[f][0, frontier)
  uint64_t heap_keys = 0;
  uint32_t tickets_before = 0;  // tickets taken before this round (mod 2^32, as the word)
  FrontierRounds out;
  for (uint32_t round = 1;; ++round) {
    if (stop()) break;
    const uint64_t t0 = now();
    uint32_t* const F = v.queue[f];
    uint32_t* const A = v.queue[1 - f];
    uint32_t* const active = v.active + round % kFrontierCountSlots;
    uint32_t* const popped = v.popped + round % kFrontierCountSlots;
    // The next round's counters: last read two barriers ago, next written after
    // this round's last barrier.
    if (actor == 0) {
      x.store(v.active + (round + 1) % kFrontierCountSlots, 0u, exec::relaxed);
      x.store(v.popped + (round + 1) % kFrontierCountSlots, 0u, exec::relaxed);
    }
    // 1. advance: this actor's share of F, a vertex a thread.
    const uint32_t share = (frontier + actors - 1) / actors;
    const uint32_t lo = actor * share < frontier ? actor * share : frontier;
    const uint32_t hi = frontier - lo < share ? frontier : lo + share;
    visited += hi - lo;
    for (uint32_t b = lo; b < hi; b += threads)
      x.parallel_for(hi - b < threads ? hi - b : threads, [&](uint32_t i) {
        const uint32_t u = exec::lane_load(F + b + i), du = exec::lane_load(v.dist + u);
        for (uint64_t e = v.g.offsets[u]; e < v.g.offsets[u + 1]; ++e) {
          const uint32_t w = v.g.targets[e], nd = du + v.g.weights[e];
          if (nd >= exec::lane_load(v.dist + w)) continue;
          if (nd < exec::lane_fetch_min(v.dist + w, nd) && exec::lane_exchange(v.mark + w, round) != round)
            A[exec::lane_fetch_add(active, 1u)] = w;
        }
      });
    exec::arrive_and_wait(x, v.barrier);
    const uint32_t appended = x.load(active);
    const uint64_t t1 = now();
    out.compute_ns += t1 - t0;
    ++out.rounds;
    // 2. filter.
    if (appended == 0 && heap_keys == 0) break;
    if (!v.with_heap || (heap_keys == 0 && appended <= v.threshold)) {
      f = 1 - f, frontier = appended;
      continue;
    }
    ++out.heap_rounds;
    if (heap_keys + appended > v.heap_capacity) {
      x.fail("sssp frontier: the heap is full (more keys than its room: raise --heap-keys)");
      break;
    }
    // 3. insert A, a batch of k an operation.
    for (uint32_t c = actor; uint64_t{c} * k < appended; c += actors) {
      const uint32_t first = c * k, n = appended - first < k ? appended - first : k;
      x.parallel_for(n, [&](uint32_t i) {
        const uint32_t w = exec::lane_load(A + first + i);
        keys[i] = frontier_key(exec::lane_load(v.dist + w), w);
      });
      x.begin_op(op++);
      gheap::run_operation(x, h, s, gheap::kFnIns, keys, n);
      x.end_op();
    }
    heap_keys += appended;
    exec::arrive_and_wait(x, v.barrier);
    // 4. delete the nearest batches into queue[f] (F was read before the first barrier).
    const uint64_t want = heap_keys < batch_cap ? heap_keys : batch_cap;
    const uint64_t deletes = (want + k - 1) / k;
    for (;;) {
      const uint32_t t = x.fetch_add(v.tickets, 1u) - tickets_before;
      if (t >= deletes) break;
      x.begin_op(op++);
      const uint32_t m = gheap::run_operation(x, h, s, gheap::kFnDel, keys, 0);
      x.end_op();
      x.parallel_for(m, [&](uint32_t i) {
        const uint64_t key = s.items[i];
        const uint32_t w = static_cast<uint32_t>(key);
        if (static_cast<uint32_t>(key >> 32) == exec::lane_load(v.dist + w)) F[exec::lane_fetch_add(popped, 1u)] = w;
      });
    }
    tickets_before += static_cast<uint32_t>(deletes) + actors;  // every actor took one ticket past the last
    heap_keys -= want;
    exec::arrive_and_wait(x, v.barrier);
    frontier = x.load(popped);
    out.heap_ns += now() - t1;
  }
  x.fetch_add(v.visited, visited);
  return out;
}

}  // namespace gpulin::sssp
