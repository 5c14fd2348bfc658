// PARDIJKSTRA (the bucket heap paper §4.1): n rounds, each (1) EXTRACTMIN of the
// least tentative distance, (2) its out-edges relaxed in parallel, (3) the improved
// ones inserted by one BULKUPDATE (at most d of them, d the largest out-degree).
// Written once over the execution context: the rounds run on level 0's actor of the
// parallel bucket heap (structures/bucket_heap/), each operation followed by
// RESOLVE(0); the levels below run their RESOLVEs as actors of their own. Every
// round is two operations (an empty BULKUPDATE when nothing improved), so a run of
// n rounds is exactly 2n operations and each level knows its share in advance.
#pragma once

#include <cstdint>

#include <algorithm>

#include "apps/sssp/graph.h"
#include "structures/bucket_heap/operations.h"
#include "structures/bucket_heap/schedule.h"
#include "structures/exec/block_sort.h"
#include "structures/exec/exclusive_sum_then.h"

namespace gpulin::sssp {

struct GraphView {
  uint32_t n = 0;
  const uint64_t* offsets = nullptr;
  const uint32_t* targets = nullptr;
  const uint32_t* weights = nullptr;
  bool sorted_rows = false;  // every row's targets strictly increasing (the paper's DAGs)
};

// Whether a CSR graph's rows are strictly increasing (no edge twice).
inline bool rows_sorted(uint32_t n, const uint64_t* offsets, const uint32_t* targets) {
  for (uint32_t u = 0; u < n; ++u)
    for (uint64_t e = offsets[u] + 1; e < offsets[u + 1]; ++e)
      if (targets[e] <= targets[e - 1]) return false;
  return true;
}

// The bucket heap PARDIJKSTRA runs on, on the GPU and in the simulator: the fixed
// variant with RESOLVE(0)'s lazy refill and two signal buffers a level
// (structures/bucket_heap/config.h; the explorer's variant "pipelined"). Each
// round takes one element from B_0 and adds few (most relaxed edges improve on
// distances past p_0 and go down), so a full refill would merge all of level 1 to
// pull up one element at nearly every RESOLVE(0); the lazy one does it once in
// about d operations. Without fills, RESOLVE(0) shares only S_1 with RESOLVE(1),
// and with two buffers it no longer waits for it every fourth time.
using PardijkstraPolicy = bucket_heap::Policy<bucket_heap::Variant::Fixed, bucket_heap::Mutant::None,
                                              bucket_heap::Refill::Lazy, bucket_heap::SignalBuffers::Two>;

// Level 0's buffers besides the heap's scratch, for a graph of largest out-degree d.
struct RoundScratch {
  bucket_heap::Element* updates;  // d: the round's BULKUPDATE
  uint64_t* keys;                 // next_pow2(d): the relaxed edges' places, then the sort's work
  bucket_heap::OpsScratch<uint32_t*> ops;  // d words each
};

// The parts of a round, for a probe that times them (gpulin_bench_sssp --profile):
// level 0 calls probe(part) where each part ends, so the time since its previous
// call is that part's. kResolveWait is RESOLVE(0)'s wait for its turn (the level
// below done with the one before), kResolve the RESOLVE itself.
enum RoundPart : uint32_t { kExtractMin, kRelax, kBulkUpdate, kResolveWait, kResolve, kRoundParts };
inline constexpr const char* kRoundPartNames[kRoundParts] = {"EXTRACTMIN", "relax and compact", "BULKUPDATE",
                                                              "RESOLVE(0)'s wait", "RESOLVE(0)"};
// Times nothing (the simulator's runs, and the GPU's unprofiled ones). A probe also
// takes RESOLVE(0)'s steps (structures/bucket_heap/resolve.h), within kResolve.
struct NoRoundProbe {
  GPULIN_HD void operator()(RoundPart) const {}
  GPULIN_HD void operator()(bucket_heap::ResolveMark) const {}
};
// What RESOLVE(0) is handed around it: its wait's end and its own end as round
// parts, its steps as they are.
template <class Probe>
struct ResolveProbe {
  Probe& probe;
  GPULIN_HD void operator()(bool before) const { probe(before ? kResolveWait : kResolve); }
  GPULIN_HD void operator()(bucket_heap::ResolveMark m) const { probe(m); }
};

// Level 0's work: dist (n words, all 0xffffffff) gets the distances from `source`.
// A BULKUPDATE's elements are sorted by value, one per value: a row not sorted (or
// with an edge twice) is sorted and its duplicates dropped first.
template <class X, class P, class Probe = NoRoundProbe>
GPULIN_HD void pardijkstra_rounds(X& x, const bucket_heap::View& h, const GraphView& g, uint32_t source, uint32_t* dist,
                                  const RoundScratch& r, Probe probe = {}) {
  using namespace bucket_heap;
  Element* updates = r.updates;
  const auto& s = r.ops;
  uint32_t k = 0;  // operations so far
  auto op_done = [&] {
    scheduled_resolve<X, P>(x, h, 0, ++k, ResolveProbe<Probe>{probe});
  };
  x.parallel_for(1, [&](uint32_t) { updates[0] = make_element(source, 0); });
  x.store(dist + source, 0u);
  x.begin_op(0);
  bulk_update<X, P>(x, h, updates, 1);
  x.end_op();
  probe(kBulkUpdate);
  op_done();
  for (uint32_t round = 0; round < g.n; ++round) {
    uint32_t u = 0, du = 0;
    x.begin_op(k);
    const bool found = extract_min<X, P>(x, h, &u, &du);
    x.end_op();
    probe(kExtractMin);
    op_done();
    uint32_t m = 0;
    if (found) {
      const uint64_t first = g.offsets[u];
      const auto deg = static_cast<uint32_t>(g.offsets[u + 1] - first);
      // Relax every edge; the improved ones, in target order (the graph's rows are
      // sorted), become the BULKUPDATE: a prefix sum over "improves" places each
      // improved edge among them (exec::exclusive_sum_then: one pass on the GPU, a
      // second through r.keys elsewhere). Level 0's actor alone writes dist. In a
      // row of strictly increasing targets an edge's write of dist meets no other
      // edge's read (each value is taken before its element is placed), so it
      // writes as it places; a row with repeated targets writes only the least
      // distance of each, once they are sorted.
      const auto improves = [&](uint32_t e) -> uint32_t {
        return du + g.weights[first + e] < dist[g.targets[first + e]] ? 1u : 0u;
      };
      m = static_cast<uint32_t>(exec::exclusive_sum_then(x, deg, improves, r.keys, [&](uint32_t e, uint64_t at, uint64_t improved) {
        if (!improved) return;
        const uint32_t v = g.targets[first + e], dv = du + g.weights[first + e];
        updates[at] = make_element(v, dv);
        if (g.sorted_rows) dist[v] = dv;
      }));
      if (!g.sorted_rows) {
        if (m > 1) {
          exec::block_sort(x, updates, m, r.keys, kNoElement);
          // One per value, the least distance (sorted by value, then priority), through
          // r.keys: compact does not work in place.
          x.parallel_for(m, [&](uint32_t i) { s.flags[i] = i == 0 || value_of(updates[i]) != value_of(updates[i - 1]); });
          m = compact(x, updates, m, s, r.keys);
          x.parallel_for(m, [&](uint32_t i) { updates[i] = r.keys[i]; });
        }
        x.parallel_for(m, [&](uint32_t i) { dist[value_of(updates[i])] = prio_of(updates[i]); });
      }
    }
    probe(kRelax);
    x.begin_op(k);
    bulk_update<X, P>(x, h, updates, m);
    x.end_op();
    probe(kBulkUpdate);
    op_done();
  }
}

// The operations a run of n vertices makes (the source's update, then two a round).
GPULIN_HD constexpr uint64_t pardijkstra_ops(uint32_t n) { return 1 + 2 * uint64_t{n}; }

// d is the graph's largest out-degree (the BULKUPDATE size, §4.1); the bucket heap
// gets the levels that hold every vertex and the DELETEs on their way.
inline uint32_t max_out_degree(const Graph& g) {
  uint64_t d = 1;
  for (uint32_t u = 0; u < g.n; ++u) d = std::max(d, g.offsets[u + 1] - g.offsets[u]);
  return static_cast<uint32_t>(d);
}
inline uint32_t pardijkstra_levels(uint32_t n, uint32_t d) {
  uint32_t levels = 1;
  while (bucket_heap::bucket_cap(d, levels - 1) < 2 * uint64_t{n} + d) ++levels;
  return levels;
}

}  // namespace gpulin::sssp
