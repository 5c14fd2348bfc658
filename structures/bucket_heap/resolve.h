// RESOLVE(i), Algorithm 1 of §2.2: empty S_i into B_i (merge, DELETEDUPLICATES, the
// elements past p_i - or past a new p_i when too many stay - merged into S_{i+1}),
// then fill B_i from level i + 1 when it is short (S_{i+1} merged into B_{i+1},
// DELETEDUPLICATES, p_i moved to the priority that fills B_i, those elements pulled
// up, the ones of B_{i+1} past p_{i+1} back to S_{i+1}). It reads and writes levels
// i and i + 1 only; the schedule (schedule.h, and the wait before a fill here)
// keeps adjacent levels off the arrays they share. With two signal buffers a level
// (config.h) "S_i" is the buffer RESOLVE(i)'s k-th empties, "S_{i+1}" the one it
// pushes into. The last level keeps everything (nothing below it) and drops the
// DELETEs that reach it.
#pragma once

#include <cstdint>

#include "structures/bucket_heap/level_ops.h"
#include "structures/bucket_heap/level_signals.h"
#include "structures/bucket_heap/resolve_in_place.h"
#include "structures/bucket_heap/view.h"
#include "structures/exec/private_memory.h"
#include "structures/exec/word_pair.h"

namespace gpulin::bucket_heap {

// Level i's arrays through the context: each transfer one scheduling point. The
// counts are relaxed: a level's arrays pass between the RESOLVEs that touch them
// (and level 0's operations, on the same actor as RESOLVE(0)) by the schedule's
// done words, whose release store and acquire load (schedule.h) order them. A
// context that can load the count and the array in one round trip (the GPU's,
// x.load_counted_block: the array's first elements in flight beside the count,
// up to its room, those past the count dropped) does; the others load the count,
// then the array.
template <class X, class Dst>
GPULIN_HD uint32_t load_array(X& x, Dst dst, Element* src, uint32_t* count, uint64_t room) {
  if constexpr (requires { x.load_counted_block(dst, src, count, room); }) {
    return x.load_counted_block(dst, src, count, room);
  } else {
    const uint32_t n = x.load(count, exec::relaxed);
    x.load_block(dst, src, n);
    return n;
  }
}
template <class X, class Src>
GPULIN_HD void store_array(X& x, Element* dst, uint32_t* count, Src src, uint32_t n, uint64_t cap,
                           const char* overflow) {
  if (n > cap) x.fail(overflow);
  x.store_block(dst, src, n);
  x.store(count, n, exec::relaxed);
}
// Through a scratch slot: a block transfer lands in memory the actor's threads
// share (a thread-local array would hold it in one thread only).
template <class X, class Slot>
GPULIN_HD uint64_t load_threshold(X& x, uint64_t* p, Slot slot) {
  x.load_block(slot, p, 1);
  return *slot;
}
template <class X>
GPULIN_HD void store_threshold(X& x, uint64_t* p, uint64_t v) {
  const uint64_t w[1] = {v};
  x.store_block(p, w, 1);
}

// The steps of a RESOLVE, for a profile that times them (gpulin_bench_sssp
// --profile): resolve() hands its `marks` a ResolveMark where each step ends, when
// they take one (a callable of bool alone, the simulator's checks, takes none).
enum ResolveStep : uint32_t {
  kStepLoad,        // line 1: B_i's and S_i's counts (and, in the simulator, the arrays) loaded
  kStepMergeDedup,  // lines 1-3: merged, DELETEDUPLICATES (and the split at p_i)
  kStepPushDown,    // lines 4-9: p_i kept or moved (SELECT), the rest merged into S_{i+1}
  kStepFillTurn,    // before line 11, two signal buffers: RESOLVE(i+1) in flight done
  kStepFillLoad,    // line 11: B_{i+1} and S_{i+1} loaded (as line 1)
  kStepFillMergeDedup,  // lines 11-12: merged, DELETEDUPLICATES
  kStepFillSelect,  // line 13: the new p_i (SELECT)
  kStepFillSplit,   // lines 14-16: the pulled ones split off and merged into B_i
  kStepFillStore,   // line 17: p_{i+1}'s split, B_{i+1} and S_{i+1} stored
  kStepStore,       // B_i, p_i and S_i's count stored
  kResolveSteps
};
inline constexpr const char* kResolveStepNames[kResolveSteps] = {
    "load",        "merge, dedup", "push down",   "fill: turn",  "fill: load", "fill: merge, dedup",
    "fill: SELECT", "fill: split", "fill: store", "store"};
struct ResolveMark {
  ResolveStep step;
};
template <class Marks>
GPULIN_HD void mark_step(Marks& marks, ResolveStep step) {
  if constexpr (requires { marks(ResolveMark{step}); }) marks(ResolveMark{step});
}
struct NoMarks {};

// A context whose scratch is in the memory the levels' arrays are in, and that
// merges arrays of that memory tile by tile (the GPU's block actors): RESOLVE's
// merges read B_i and S_i where they are, with no copy into the scratch first, and
// a RESOLVE that moves nothing in B_i is done in place (resolve_in_place.h). The
// simulator's context copies them into its actor's private memory.
template <class X>
inline constexpr bool kMergesFromLevels = requires(X& x, Element* p, uint32_t n) { x.merge_tiled(p, n, p, n, p); };
// Where such a context first tries RESOLVE in place: S_i up to a survivor a thread
// of a block of 1024, and B_i of more than a tile or so (below it the merge is a
// tile or two, hardly longer than the try, which is wasted where it cannot).
inline constexpr uint32_t kInPlaceMostSignals = 1024;
inline constexpr uint32_t kInPlaceLeastBucket = 2048;

// B_j and level j's signal buffer `buf` as RESOLVE's merges read them, with their
// counts: where they are, in a context with kMergesFromLevels (one round trip for
// both counts); else copied into `scratch`, B_j then the buffer.
template <class Src>
struct MergeInputs {
  Src b, s;
  uint32_t nb, ns;
};
template <class X, class Scratch>
GPULIN_HD MergeInputs<Scratch> merge_inputs(X& x, const View& h, uint32_t j, uint32_t buf, Scratch scratch) {
  if constexpr (kMergesFromLevels<X>) {
    const exec::WordPair counts = x.load_pair(h.bucket_n + j, h.signal_count(j, buf), exec::relaxed);
    return {h.bucket(j), h.signal(j, buf), counts.first, counts.second};
  } else {
    const uint32_t nb = load_array(x, scratch, h.bucket(j), h.bucket_n + j, bucket_room(h.d, j));
    const uint32_t ns = load_array(x, scratch + nb, h.signal(j, buf), h.signal_count(j, buf), signal_cap(h.d, j));
    return {scratch, scratch + nb, nb, ns};
  }
}

// RESOLVE(i)'s k-th (1-based: which signal buffers it empties and pushes into,
// config.h's SignalBuffers).
template <class X, class P, class Marks = NoMarks>
GPULIN_HD void resolve(X& x, const View& h, uint32_t i, uint32_t k, Marks&& marks = {}) {
  const uint32_t d = h.d;
  const uint32_t own = emptied_buffer<P>(i, k), below = pushed_buffer<P>(k);
  const bool last = i + 1 == h.levels;
  const uint64_t region = scratch_region(d, i), cap = bucket_cap(d, i);
  // The level's scratch: memory only this actor touches, as its private memory.
  const auto r0 = x.private_view(h.scratch_of(i), scratch_for_level(d, i));
  const auto r1 = r0 + region;
  const auto r2 = r1 + region;
  const auto r3 = r2 + region;
  const auto r4 = r3 + region;
  const auto r5 = r4 + region;
  const auto places = r5 + region;  // a partition's 64-bit places (level_ops.h)
  const auto slot = r5 + 2 * region;

  // Lines 1-2: S_i merged into B_i. A context whose scratch is in the memory the
  // level's arrays are in (the GPU's: global memory) merges straight from them, once
  // it has their counts: a copy into the scratch would be two more passes over B_i.
  const auto [from_b, from_s, nb, ns] = merge_inputs(x, h, i, own, r0);
  mark_step(marks, kStepLoad);
  // Lines 3-9: duplicates removed; too many at or below p_i: p_i moves so that B_i
  // is full; the rest (and every DELETE) goes to S_{i+1}. The merge and
  // DELETEDUPLICATES (with the split at p_i above the last level) are one
  // merge_then_partition: the merged array in r1, then one partition of it.
  uint64_t th = load_threshold(x, h.threshold + i, slot);
  uint32_t kept = 0, down = 0;
  auto stay = r2;
  bool stay_in_bucket = false;  // B_i's array is already what it keeps (done in place)
  if (last) {
    kept = merge_then_partition(x, from_b, nb, from_s, ns, r1, DedupWhere<P>{true}, places, r2, r2).first;
    mark_step(marks, kStepMergeDedup);
  } else {
    // Only when more than cap stay does SELECT move p_i, over the survivors merged
    // back into one array (the two parts are its value-sorted subsequences), and the
    // split run again. A count before every split would be one more pass over B_i at
    // every RESOLVE (bench/results/sssp-h200.txt measures both).
    // Where the levels' arrays are in the scratch's memory (the GPU) and S_i is
    // short, the RESOLVEs that move nothing in B_i are done in place
    // (resolve_in_place.h): no pass over B_i, and nothing stored back.
    Parts parts{0, 0};
    bool in_place = false;
    if constexpr (kMergesFromLevels<X>) {
      uint32_t down_n = 0;
      in_place = ns <= kInPlaceMostSignals && nb >= kInPlaceLeastBucket && nb <= cap &&
                 resolve_in_place<X, P>(x, from_b, nb, from_s, ns, th, r1, r4, places, &down_n);
      if (in_place) parts = {nb, down_n};
    }
    if (!in_place) parts = merge_then_partition(x, from_b, nb, from_s, ns, r1, DedupSplitWhere<P>{th}, places, r3, r4);
    mark_step(marks, kStepMergeDedup);
    if (parts.first > cap) {
      const uint32_t n = parts.first + parts.second;
      merge_by_value(x, r3, parts.first, r4, parts.second, r2);
      th = select_rank(x, r2, n, static_cast<uint32_t>(cap));
      parts = split_by(x, r2, n, th, r3, r4, places);
    }
    kept = parts.first;
    down = parts.second;
    stay = r3;
    if constexpr (kMergesFromLevels<X>) {
      if (in_place) stay = h.bucket(i);
      stay_in_bucket = in_place;
    }
    if (down > 0) {
      const uint32_t ns1 = load_array(x, r0, h.signal(i + 1, below), h.signal_count(i + 1, below), signal_cap(d, i + 1));
      merge_by_value(x, r0, ns1, r4, down, r1);
      store_array(x, h.signal(i + 1, below), h.signal_count(i + 1, below), r1, ns1 + down, signal_cap(d, i + 1),
                  "bucket heap: S_{i+1} overflows (RESOLVE(i) pushed down more than it holds)");
    }
  }
  mark_step(marks, kStepPushDown);
  if (kept > cap) x.fail("bucket heap: the last level's bucket overflows");
  // Lines 10-17: B_i short and something below: fill it from level i + 1 (the
  // policy's refill says when B_0 is short and by how much, config.h).
  const uint64_t wanted = last ? 0 : fill_wanted<P>(i, kept, cap);
  if (wanted > 0) {
    // Two signal buffers: the RESOLVE(i+1) that may still run (it empties the
    // other buffer, and writes B_{i+1} and p_{i+1}) finishes first; the next one
    // waits for this one (schedule.h).
    if constexpr (P::buffers == SignalBuffers::Two && P::mutant != Mutant::AdjacentOverlap)
      wait_until_at_least(x, h.done + i + 1, resolve_below_before(k));
    mark_step(marks, kStepFillTurn);
    // Line 11, read as lines 1-2 are.
    const auto [from_b1, from_s1, nb1, ns1] = merge_inputs(x, h, i + 1, below, r0);
    mark_step(marks, kStepFillLoad);
    if (nb1 + ns1 > 0) {
      const uint32_t n1 =
          merge_then_partition(x, from_b1, nb1, from_s1, ns1, r1, DedupWhere<P>{i + 2 == h.levels}, places, r4, r4).first;
      mark_step(marks, kStepFillMergeDedup);
      // Only DELETEs were there (now gone): nothing to pull, p_i stays.
      if (count_staying(x, r4, n1, kNoThreshold) > 0) th = select_rank(x, r4, n1, static_cast<uint32_t>(wanted));
      mark_step(marks, kStepFillSelect);
      const Parts pulled = split_by(x, r4, n1, th, r5, r1, places);  // r5: up to B_i; r1: stays below
      if (pulled.first > 0) {
        merge_by_value(x, stay, kept, r5, pulled.first, r0);  // line 16: no DELETEDUPLICATES after it
        kept += pulled.first;
        stay = r0;
        stay_in_bucket = false;
      }
      mark_step(marks, kStepFillSplit);
      // Line 17: what is past p_{i+1} goes back to S_{i+1} (nothing below the last
      // level: all of it stays in B_{i+1}).
      const uint64_t th1 = load_threshold(x, h.threshold + i + 1, slot);
      const uint32_t rest = pulled.second;
      Parts below_parts{rest, 0};
      auto b1 = r1;
      if (i + 2 < h.levels) {
        below_parts = split_by(x, r1, rest, th1, r5, r2, places);
        b1 = r5;
      }
      store_array(x, h.bucket(i + 1), h.bucket_n + i + 1, b1, below_parts.first, bucket_room(d, i + 1),
                  "bucket heap: B_{i+1} overflows its room");
      store_array(x, h.signal(i + 1, below), h.signal_count(i + 1, below), r2, below_parts.second,
                  signal_cap(d, i + 1), "bucket heap: S_{i+1} overflows (line 17)");
      mark_step(marks, kStepFillStore);
    }
  }
  store_threshold(x, h.threshold + i, th);
  if (stay_in_bucket) x.store(h.bucket_n + i, kept, exec::relaxed);
  else store_array(x, h.bucket(i), h.bucket_n + i, stay, kept, cap, "bucket heap: B_i overflows");
  x.store(h.signal_count(i, own), 0u, exec::relaxed);
  mark_step(marks, kStepStore);
}

}  // namespace gpulin::bucket_heap
