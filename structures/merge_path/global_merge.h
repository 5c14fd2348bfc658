// GPU Merge Path, the global merge (Green, McColl, Bader, ICS'12, §2), written once
// over the warp-role execution context (structures/exec/context.h) so that the same
// partitioning and windowed merging run as a CUDA kernel (gpu/merge.cuh on
// cuda/cuda_context.cuh, warp scope) and in the simulator, each warp a fiber
// (sim/sim_context.h, driven by structures/merge_path/sim/merge_sim.h), where the CPU tests
// and `gpulin explore --structure merge` check it against std::merge.
//
// The output C = merge(A, B) is cut into windows of `tile` = consumer threads * items
// outputs. The paper's two stages (§2 "Merge Path ... is divided into 2 stages") run
// inside every block, by warps with separate roles, and the blocks share the work
// through the scratch in global memory (MergeScratch), not by a fixed split of the
// path: a block that runs faster (memory is not equally fast for every
// multiprocessor) merges more windows, so all blocks end within about a window of
// each other.
//
//  1. Partitioning (§2.1-2.2), the search warps. Where the cross diagonal d = w * tile
//     of each window boundary w meets the merge path: split(w) = diagonal_split(A, B,
//     d), the number of A elements among the first d outputs, by the regular binary
//     search of §2.2 (approach 2), one lane per diagonal. A search warp takes the next
//     batch of 32 boundaries from a global counter, writes their splits to the
//     scratch and publishes the batch with a flag. Equidistant diagonals give every
//     window the same work (§2.1, Observation 2).
//
//  2. Merging (§2.3), a sliding window in shared memory. The copy warp takes the next
//     window w from a global counter, waits for its corners' batches, and brings the
//     window's A and B sub-arrays (corners split(w), split(w+1)) into a shared-memory
//     stage with sequential reads (§2.5 item 1: the bulk copy engine on the GPU, an
//     immediate copy in the simulator), `stages` windows ahead. Each consumer thread
//     finds its own diagonal t * items inside the window by the same cross-diagonal
//     search, now in shared memory, and merges `items` outputs serially (§2.3 "we let each of the
//     SPs merge several elements"); each warp then writes its part of the window
//     back with sequential, 16-byte writes. The window's top-left corner is the
//     previous window's bottom-right corner. The search and the serial merge are
//     merge_path_core.h's diagonal_split_t / serial_merge_emit, the core the heap's
//     MergeAndSort uses too.
//
// Inside a block the roles hand work over through transaction barriers (mbarriers on
// the GPU), so no block-wide barrier stops the consumers:
//   copy warp --full[s]--> consumer warps,  copy warp <--empty[s]-- consumer warps
// (every consumer thread arrives for itself, after its own accesses: each barrier
// phase orders exactly the accesses it covers); between blocks, search warps hand
// splits to copy warps through the scratch's flags (a release store, an acquire
// wait). When the windows run out the copy warp publishes a last, empty window that
// tells the consumers to stop.
//
// Stability: on equal keys the element of A comes first (the core's convention).
// Any strict weak order `comp` (Less, Greater, ...) may replace `<`.
//
// The context `X` (named `Block` below): structures/exec/context.h, "warp-role
// contexts" - ids, for_each_lane, Regs, warp_sync, copy16, block_sync, the
// transaction barriers (init_barrier, expect_bytes, bulk_load, arrive, wait), and
// the shared words of the scratch (fetch_add, store, load, wait_while_equals).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "structures/exec/memory_order.h"
#include "structures/exec/private_memory.h"
#include "structures/exec/waiting.h"
#include "structures/merge_path/merge_mutant.h"
#include "structures/merge_path/merge_path_core.h"

#if defined(__CUDA_ARCH__)
#define GPULIN_MP_UNROLL _Pragma("unroll")
#define GPULIN_MP_CHECK(cond) ((void)0)
#define GPULIN_MP_FAULT_UNLESS(blk, cond) ((void)0)
#else
#include <cassert>
#define GPULIN_MP_UNROLL
// Simulator only: the preconditions the bulk-copy engine and the shared-memory
// layout rely on, checked on every window in the CPU tests.
#define GPULIN_MP_CHECK(cond) assert(cond)
// The same for what depends on values other actors published (a window's
// corners): under the ptx memory mode a weakened ordering can make them stale, so
// the run ends as a fault, not the process.
#define GPULIN_MP_FAULT_UNLESS(blk, cond) \
  if (!(cond)) blk.fail("merge path: " #cond " does not hold (a window from stale corners?)")
#endif

namespace gpulin::merge_path {

// Descending order (stable: on equal keys A first, as with Less).
struct Greater {
  template <class T>
  GPULIN_HD bool operator()(const T& a, const T& b) const { return b < a; }
};

// Marker for "no values" (merge_keys).
struct NoValue {};

// Consumer threads per block (whole warps), outputs per consumer thread (a window,
// or tile, is their product), shared-memory stages (windows in flight), and the
// resident blocks per multiprocessor the register budget is cut for
// (__launch_bounds__; 1: no cut). Each block also has a search warp and a copy warp.
template <int ConsumerThreads, int Items, int Stages = 2, int MinBlocks = 1>
struct MergePolicy {
  static_assert(ConsumerThreads % 32 == 0 && ConsumerThreads > 0, "whole warps");
  static_assert(Items >= 1 && Stages >= 1, "at least one item and one stage");
  static constexpr uint32_t consumer_threads = ConsumerThreads;
  static constexpr uint32_t consumer_warps = ConsumerThreads / 32;
  static constexpr uint32_t threads = ConsumerThreads + 64;  // + search warp + copy warp
  static constexpr uint32_t items = Items;
  static constexpr uint32_t tile = ConsumerThreads * Items;
  static constexpr uint32_t stages = Stages;
  static constexpr int min_blocks = MinBlocks;
};

// Hopper (sm_90) defaults, chosen with gpulin_bench_merge --policies on an H100 and
// an H200 (bench/merge/README.md). 4-byte keys: 16 consumer warps, 10752 outputs a
// window, two stages, one block a multiprocessor (about 130 KB of shared memory), the
// fastest on the H100 and within 1 % of the fastest on the H200. The wider elements
// keep the H200's choice (12 warps, two blocks a multiprocessor). Larger windows
// amortise each thread's diagonal search over more outputs; odd `items` keeps the
// threads' shared-memory writes free of bank conflicts (stride `items` words).
template <class Key, class Value>
struct DefaultMergePolicy {
  static constexpr bool pairs = !std::is_same_v<Value, NoValue>;
  static constexpr size_t bytes = sizeof(Key) + (pairs ? sizeof(Value) : 0);
  using type = std::conditional_t<(bytes <= 4), MergePolicy<512, 21, 2, 1>,
                                  std::conditional_t<(bytes <= 8), MergePolicy<384, 11, 2, 2>, MergePolicy<384, 7, 2, 2>>>;
};

template <class T, class U>
GPULIN_HD constexpr T mp_min(T a, U b) { return a < static_cast<T>(b) ? a : static_cast<T>(b); }

GPULIN_HD constexpr uint64_t round_up(uint64_t x, uint64_t m) { return (x + m - 1) / m * m; }

// Number of windows of the merge of na + nb elements.
template <class Policy>
GPULIN_HD constexpr uint64_t window_count(uint64_t na, uint64_t nb) {
  return (na + nb + Policy::tile - 1) / Policy::tile;
}

// Partitioning, one cross diagonal (§2.1-2.2): the number of A elements among the
// first min(w * tile, na + nb) outputs. split(0) = 0, split(W) = na.
template <class Policy, class Key, class Comp>
GPULIN_HD uint64_t window_split(const Key* a, uint64_t na, const Key* b, uint64_t nb, uint64_t w, Comp comp) {
  const uint64_t diag = mp_min(w * Policy::tile, na + nb);
  return diagonal_split(a, na, b, nb, diag, comp);
}

// What one window merges, as the copy warp published it with the data (shared
// memory; slots are element indices into the stage arrays). c0 == kNoWindow: the
// windows have run out, the consumers stop.
struct WindowDesc {
  uint64_t c0;                // the window's first output
  uint32_t la, lb;            // elements of A and of B in the window (la + lb <= tile)
  uint32_t slot_a, slot_b;    // stage slot of the window's first A / first B key
  uint32_t vslot_a, vslot_b;  // the same for values (pairs)
};
inline constexpr uint64_t kNoWindow = ~uint64_t(0);

inline constexpr uint32_t kBatch = 32;  // window boundaries searched at once (one per lane)

// The merge's scratch in global memory (the temp storage of merge.h's API), for W
// windows: two counters and a flag per batch of kBatch boundaries, all zero when the
// merge starts (merge_dispatch clears them before the launch), then the splits of
// boundaries 0 .. W, each written once by a search warp before its batch's flag.
struct MergeScratch {
  static constexpr uint32_t kNextWindow = 0;  // the next window a copy warp takes
  static constexpr uint32_t kNextBatch = 1;   // the next batch a search warp takes
  static constexpr uint32_t kFlags = 2;       // flag of batch b: word kFlags + b, 1 once published
  GPULIN_HD static uint64_t batches(uint64_t windows) { return (windows + 1 + kBatch - 1) / kBatch; }
  GPULIN_HD static uint64_t cleared_bytes(uint64_t windows) { return 4 * (kFlags + batches(windows)); }
  GPULIN_HD static uint64_t splits_offset(uint64_t windows) { return (cleared_bytes(windows) + 15) / 16 * 16; }
  GPULIN_HD static uint64_t bytes(uint64_t windows) { return splits_offset(windows) + 8 * (windows + 1); }
  uint32_t* words = nullptr;   // counters, then flags
  uint64_t* splits = nullptr;  // split(w) for w in [0, W]
  // The scratch in `base` (16-byte aligned, bytes(windows) long).
  GPULIN_HD static MergeScratch in(void* base, uint64_t windows) {
    return {static_cast<uint32_t*>(base),
            reinterpret_cast<uint64_t*>(static_cast<unsigned char*>(base) + splits_offset(windows))};
  }
};

// Shared-memory layout of one block (bytes from a 16-byte aligned base).
template <class Policy, class Key, class Value>
struct MergeLayout {
  static constexpr bool pairs = !std::is_same_v<Value, NoValue>;
  static_assert(16 % sizeof(Key) == 0, "key size must divide 16");
  static_assert(!pairs || 16 % sizeof(Value) == 0, "value size must divide 16");
  static constexpr uint32_t ek = 16 / sizeof(Key);                 // keys per 16 bytes
  static constexpr uint32_t ev = pairs ? 16 / sizeof(Value) : 1;  // values per 16 bytes
  static constexpr uint32_t e = ek > ev ? ek : ev;
  static constexpr uint32_t tile = Policy::tile;
  static constexpr uint32_t stages_n = Policy::stages;
  static constexpr uint32_t warps = Policy::consumer_warps;
  static constexpr uint32_t warp_outputs = 32 * Policy::items;
  static_assert(tile % e == 0 && warp_outputs % e == 0, "windows and warp slices of whole 16-byte vectors");
  // A stage holds A's window, then B's, each shifted by its 16-byte phase and
  // rounded up to 16 bytes: at most tile + 2 * (2e - 2) slots (place_range). The
  // slot after B's range is still inside the stage or the memory after it (another
  // stage or the warp buffers): the serial merge's read past the end stays in bounds.
  static constexpr uint32_t cap = tile + 4 * e;

  static constexpr size_t align16(size_t x) { return (x + 15) / 16 * 16; }
  // Transaction barriers: full[s], empty[s] per stage.
  static constexpr size_t full = 0;
  static constexpr size_t empty = full + 8 * stages_n;
  static constexpr size_t desc = align16(empty + 8 * stages_n);
  static constexpr size_t stage_k_bytes = align16(cap * sizeof(Key));
  static constexpr size_t stage_v_bytes = pairs ? align16(cap * sizeof(Value)) : 0;
  static constexpr size_t stage_bytes = stage_k_bytes + stage_v_bytes;
  static constexpr size_t stages = align16(desc + stages_n * sizeof(WindowDesc));
  // Per consumer warp: its slice of a window's outputs, for the store.
  static constexpr size_t wbuf_k_bytes = align16(warp_outputs * sizeof(Key));
  static constexpr size_t wbuf_v_bytes = pairs ? align16(warp_outputs * sizeof(Value)) : 0;
  static constexpr size_t wbuf_bytes = wbuf_k_bytes + wbuf_v_bytes;
  static constexpr size_t wbufs = stages + stages_n * stage_bytes;
  static constexpr size_t bytes = wbufs + warps * wbuf_bytes;
};

// Where a window's range [x0, x0 + len) of one input array goes in a stage, and how
// it gets there. Slots are chosen so that a 16-byte aligned global address lands on
// a 16-byte aligned slot: the aligned part of the range (widened to whole 16-byte
// vectors, but never past the array's own aligned interior) is one bulk copy; the
// elements outside that interior (fewer than `E` at each end of the array, so only
// in windows touching the array's ends) are copied one by one.
struct Placement {
  uint32_t slot0;            // slot of element x0
  uint32_t end;              // first slot after this range's region
  uint64_t bulk_lo, bulk_hi;  // bulk-copied elements (empty if bulk_lo >= bulk_hi)
  uint64_t e0_lo, e0_hi;      // element-wise head
  uint64_t e1_lo, e1_hi;      // element-wise tail
};

template <class T>
GPULIN_HD Placement place_range(const T* base, uint64_t total, uint64_t x0, uint64_t len, uint32_t region) {
  constexpr uint64_t E = 16 / sizeof(T);
  const uint64_t q = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(base)) / sizeof(T);
  GPULIN_MP_CHECK(reinterpret_cast<uintptr_t>(base) % sizeof(T) == 0);
  const uint64_t x1 = x0 + len;
  const uint64_t phase = (q + x0) % E;  // elements between x0 and the 16-byte boundary below it
  Placement p;
  p.slot0 = static_cast<uint32_t>(region + phase);
  p.end = static_cast<uint32_t>(region + round_up(phase + len, E));
  // The array's aligned interior: whole vectors [al_lo, al_hi).
  const uint64_t head = (E - q % E) % E;
  const uint64_t al_lo = head < total ? head : total;
  const uint64_t al_hi = al_lo + (total - al_lo) / E * E;
  uint64_t lo = (x0 >= phase) ? x0 - phase : al_lo;
  if (lo < al_lo) lo = al_lo;
  uint64_t hi = x1 + (E - (q + x1) % E) % E;
  if (hi > al_hi) hi = al_hi;
  if (len == 0) lo = hi = x0;
  p.bulk_lo = lo;
  p.bulk_hi = hi;
  p.e0_lo = x0;
  p.e0_hi = mp_min(x1, lo);
  if (p.e0_hi < p.e0_lo) p.e0_hi = p.e0_lo;
  p.e1_lo = lo > hi ? lo : hi;
  if (p.e1_lo < x0) p.e1_lo = x0;
  if (p.e1_lo < p.e0_hi) p.e1_lo = p.e0_hi;
  p.e1_hi = x1;
  if (p.e1_hi < p.e1_lo) p.e1_hi = p.e1_lo;
  GPULIN_MP_CHECK(p.e0_hi - p.e0_lo < E && p.e1_hi - p.e1_lo < E);
  GPULIN_MP_CHECK(lo >= hi || (lo + region + phase >= x0 && region + phase + hi - x0 <= p.end));
  return p;
}

// Loads one placed range into a stage: the bulk part asynchronously on `bar`, the
// element-wise ends directly (the copy thread; fewer than 16 bytes at each end).
template <class Block, class Stage, class T>
GPULIN_HD void load_placed(Block& blk, Stage stage, const T* src, uint64_t x0, const Placement& p, uint64_t* bar) {
  if (p.bulk_lo < p.bulk_hi)
    blk.bulk_load(stage + (p.slot0 + p.bulk_lo - x0), src + p.bulk_lo,
                  static_cast<uint32_t>((p.bulk_hi - p.bulk_lo) * sizeof(T)), bar);
  constexpr uint32_t E = 16 / sizeof(T);
  T head[E] = {}, tail[E] = {};  // loads first, then stores: the few reads overlap
  GPULIN_MP_UNROLL
  for (uint32_t i = 0; i + 1 < E; ++i) {
    if (p.e0_lo + i < p.e0_hi) head[i] = src[p.e0_lo + i];
    if (p.e1_lo + i < p.e1_hi) tail[i] = src[p.e1_lo + i];
  }
  GPULIN_MP_UNROLL
  for (uint32_t i = 0; i + 1 < E; ++i) {
    if (p.e0_lo + i < p.e0_hi) stage[p.slot0 + (p.e0_lo + i - x0)] = head[i];
    if (p.e1_lo + i < p.e1_hi) stage[p.slot0 + (p.e1_lo + i - x0)] = tail[i];
  }
}

template <class P>
GPULIN_HD uint64_t bulk_bytes(const P& p, size_t elem) {
  return p.bulk_lo < p.bulk_hi ? (p.bulk_hi - p.bulk_lo) * elem : 0;
}

// The inputs and outputs of one merge, as the kernels and the host driver see them.
template <class Key, class Value, class Comp>
struct MergeArgs {
  const Key* a;
  const Value* av;  // values of A (pairs; else unused)
  uint64_t na;
  const Key* b;
  const Value* bv;
  uint64_t nb;
  Key* c;
  Value* cv;
  uint64_t windows;
  Comp comp;
  MergeScratch scratch = {};  // global; its counters and flags zero at the start
};

// Typed views of one block's shared memory. The barriers are plain words (the
// context's barrier operations take them); the data the warps hand one another
// (descriptors, stages, write buffers) is reached through `data`, the context's
// view of the same memory (X::Private<unsigned char>: the bytes themselves on the
// GPU; in the simulator a pointer whose every access is checked for races between
// the block's threads).
using exec::private_cast;  // the simulator's pointers have their own, found by argument-dependent lookup

template <class Policy, class Key, class Value, class Bytes>
struct MergeSmem {
  using L = MergeLayout<Policy, Key, Value>;
  unsigned char* base;
  Bytes data;  // == base
  GPULIN_HD uint64_t* full(uint32_t s) const { return reinterpret_cast<uint64_t*>(base + L::full) + s; }
  GPULIN_HD uint64_t* empty(uint32_t s) const { return reinterpret_cast<uint64_t*>(base + L::empty) + s; }
  GPULIN_HD auto desc(uint32_t s) const { return private_cast<WindowDesc>(data + L::desc) + s; }
  GPULIN_HD auto stage_k(uint32_t s) const { return private_cast<Key>(data + (L::stages + s * L::stage_bytes)); }
  GPULIN_HD auto stage_v(uint32_t s) const {
    return private_cast<Value>(data + (L::stages + s * L::stage_bytes + L::stage_k_bytes));
  }
  GPULIN_HD auto wbuf_k(uint32_t warp) const { return private_cast<Key>(data + (L::wbufs + warp * L::wbuf_bytes)); }
  GPULIN_HD auto wbuf_v(uint32_t warp) const {
    return private_cast<Value>(data + (L::wbufs + warp * L::wbuf_bytes + L::wbuf_k_bytes));
  }
};

// One thread, before any role starts: the transaction barriers.
template <class Policy, class Block, class Key, class Value, class Bytes>
GPULIN_HD void init_block(Block& blk, MergeSmem<Policy, Key, Value, Bytes> sm) {
  for (uint32_t s = 0; s < Policy::stages; ++s) {
    blk.init_barrier(sm.full(s), 1);                           // copy thread's arrival + bytes
    blk.init_barrier(sm.empty(s), Policy::consumer_threads);  // every consumer thread's
  }
}

// Search warp (§2.1-2.2): takes batches of kBatch boundaries until none is left;
// lane j finds the split of boundary 32 b + j with the core's diagonal search over
// global memory and writes it to the scratch; then the batch's flag goes up (the
// store's release orders every lane's split before it).
template <class Policy, class Block, class Key, class Value, class Comp>
GPULIN_HD void search_batches(Block& blk, const MergeArgs<Key, Value, Comp>& p) {
  const uint64_t batches = MergeScratch::batches(p.windows);
  for (;;) {
    // The counter only hands out numbers: relaxed (the flag carries the order).
    const uint64_t b = blk.fetch_add(p.scratch.words + MergeScratch::kNextBatch, 1u, exec::relaxed);
    if (b >= batches) return;
    blk.for_each_lane([&](uint32_t lane) {
      const uint64_t bound = b * kBatch + lane;
      if (bound <= p.windows)
        blk.thread_store(p.scratch.splits + bound, window_split<Policy>(p.a, p.na, p.b, p.nb, bound, p.comp));
    });
    blk.store(p.scratch.words + MergeScratch::kFlags + b, 1u);
  }
}

// A window the copy warp took, with its corners (w == kNoWindow: none was left).
struct TakenWindow {
  uint64_t w = kNoWindow;
  uint64_t a0 = 0, a1 = 0;  // split(w), split(w + 1)
};

// Copy warp: the next window from the scratch's counter, once the batches holding
// its two corners are published (an acquire of each flag, then the splits; only the
// leader, which acquired, reads them).
template <class Block, class Key, class Value, class Comp>
GPULIN_HD TakenWindow take_window(Block& blk, const MergeArgs<Key, Value, Comp>& p) {
  TakenWindow t;
  const uint64_t w = blk.fetch_add(p.scratch.words + MergeScratch::kNextWindow, 1u, exec::relaxed);
  if (w >= p.windows) return t;
  auto wait_published = [&](uint64_t b) {
    uint32_t* flag = p.scratch.words + MergeScratch::kFlags + b;
    // exec::holding: the copy warp holds the stages its consumers wait behind, so
    // it re-reads without sleeping (a wait happens only at the start, while the
    // first batches are searched). The load that sees the flag up is the acquire
    // the splits are read under: a wait orders nothing. The flag is nearly always
    // up already; written as an `if` around the wait, that path is one load on the
    // GPU and runs faster than a `while` (bench/results/merge-h200.txt).
    if (blk.load(flag) == 0) {
      do blk.wait_while_equals(flag, 0u, exec::holding);
      while (blk.load(flag) == 0);
    }
  };
  wait_published(w / kBatch);
  if ((w + 1) / kBatch != w / kBatch) wait_published((w + 1) / kBatch);
  t.w = w;
  if (blk.leader()) {  // the lane whose acquire saw the flags (and the one that issues the window)
    t.a0 = blk.thread_load(p.scratch.splits + w);
    t.a1 = blk.thread_load(p.scratch.splits + w + 1);
  }
  return t;
}

// Copy warp, the block's k-th window `t` (already taken): waits for a free stage,
// publishes the window in stage k % stages: the descriptor, the bulk copies and the
// element-wise ends (the leader issues them), then the arrival that completes the
// stage's phase once the bytes have landed. With no window left it publishes the
// consumers' stop instead.
template <class Policy, MergeMutant Mutant = MergeMutant::None, class Block, class Key, class Value, class Comp,
          class Bytes>
GPULIN_HD void issue_window(Block& blk, const MergeArgs<Key, Value, Comp>& p, MergeSmem<Policy, Key, Value, Bytes> sm,
                            uint64_t k, const TakenWindow& t) {
  using L = MergeLayout<Policy, Key, Value>;
  constexpr bool pairs = L::pairs;
  constexpr uint64_t tile = Policy::tile;
  constexpr uint32_t S = Policy::stages;
  const uint32_t s = static_cast<uint32_t>(k % S);
  if (k >= S) blk.wait(sm.empty(s), static_cast<uint32_t>((k / S - 1) & 1));  // window k - S consumed
  if (!blk.leader()) return;
  uint64_t* bar = sm.full(s);
  if (t.w == kNoWindow) {
    WindowDesc stop{};
    stop.c0 = kNoWindow;
    sm.desc(s)[0] = stop;
    blk.arrive(bar);
    return;
  }
  const uint64_t a0 = t.a0, a1 = t.a1;

  const uint64_t total = p.na + p.nb;
  const uint64_t c0 = t.w * tile;
  const uint64_t c1 = mp_min(c0 + tile, total);
  uint64_t la = a1 - a0, lb = (c1 - c0) - la;
  const uint64_t bb0 = c0 - a0;
  if constexpr (Mutant == MergeMutant::WindowOverrun) {
    if (lb > 0 && a1 < p.na) ++la, --lb;  // A[a1] belongs to the next window
  }
  GPULIN_MP_FAULT_UNLESS(blk, a0 <= a1 && a1 <= p.na && bb0 + lb <= p.nb && la + lb <= tile);
  const Placement pa = place_range(p.a, p.na, a0, la, 0);
  const Placement pb = place_range(p.b, p.nb, bb0, lb, pa.end);
  GPULIN_MP_FAULT_UNLESS(blk, pb.end <= L::cap);
  WindowDesc d{c0, static_cast<uint32_t>(la), static_cast<uint32_t>(lb), pa.slot0, pb.slot0, 0, 0};
  uint64_t bytes = bulk_bytes(pa, sizeof(Key)) + bulk_bytes(pb, sizeof(Key));
  Placement va{}, vb{};
  if constexpr (pairs) {
    va = place_range(p.av, p.na, a0, la, 0);
    vb = place_range(p.bv, p.nb, bb0, lb, va.end);
    GPULIN_MP_FAULT_UNLESS(blk, vb.end <= L::cap);
    d.vslot_a = va.slot0;
    d.vslot_b = vb.slot0;
    bytes += bulk_bytes(va, sizeof(Value)) + bulk_bytes(vb, sizeof(Value));
  }
  sm.desc(s)[0] = d;
  blk.expect_bytes(bar, static_cast<uint32_t>(bytes));
  load_placed(blk, sm.stage_k(s), p.a, a0, pa, bar);
  load_placed(blk, sm.stage_k(s), p.b, bb0, pb, bar);
  if constexpr (pairs) {
    load_placed(blk, sm.stage_v(s), p.av, a0, va, bar);
    load_placed(blk, sm.stage_v(s), p.bv, bb0, vb, bar);
  }
  blk.arrive(bar);  // releases the descriptor and the element-wise ends with the phase
}

// Stores n contiguous elements from a warp's buffer to global memory with the warp:
// 16-byte vectors when the destination allows, the rest element by element.
template <class Block, class T, class Src>
GPULIN_HD void store_slice(Block& blk, T* dst, Src src, uint32_t n) {
  constexpr uint32_t E = 16 / sizeof(T);
  const bool vec = reinterpret_cast<uintptr_t>(dst) % 16 == 0;
  const uint32_t nv = vec ? n / E : 0;
  blk.for_each_lane([&](uint32_t lane) {
    for (uint32_t v = lane; v < nv; v += 32) blk.copy16(dst + v * E, src + v * E);
    for (uint32_t j = nv * E + lane; j < n; j += 32) dst[j] = src[j];
  });
}

// Consumer warp `warp`, the block's k-th window (§2.3): every lane finds its diagonal
// in the window, merges `items` outputs into registers and hands the stage back; the
// warp passes its outputs through its buffer and stores its slice of the window.
// False: the copy warp published the stop, there is no k-th window.
template <class Policy, MergeMutant Mutant = MergeMutant::None, class Block, class Key, class Value, class Comp,
          class Bytes>
GPULIN_HD bool consume_window(Block& blk, const MergeArgs<Key, Value, Comp>& p, MergeSmem<Policy, Key, Value, Bytes> sm,
                              uint64_t k, uint32_t warp,
                              typename Block::template Regs<Key, Policy::items>& out_k,
                              typename Block::template Regs<Value, Policy::items>& out_v) {
  using L = MergeLayout<Policy, Key, Value>;
  constexpr bool pairs = L::pairs;
  constexpr uint32_t items = Policy::items;
  constexpr uint32_t S = Policy::stages;
  const uint32_t s = static_cast<uint32_t>(k % S);
  blk.wait(sm.full(s), static_cast<uint32_t>((k / S) & 1));

  const WindowDesc d = sm.desc(s)[0];
  if (d.c0 == kNoWindow) return false;
  const uint32_t n = d.la + d.lb;
  const auto sk = sm.stage_k(s);
  const auto sv = sm.stage_v(s);
  const auto sa = sk + d.slot_a;
  const auto sb = sk + d.slot_b;
  blk.for_each_lane([&](uint32_t lane) {
    if constexpr (Mutant == MergeMutant::EarlyRelease) blk.arrive(sm.empty(s));
    const uint32_t t = warp * 32 + lane;
    const uint32_t d0 = mp_min(t * items, n);
    const uint32_t count = mp_min(items, n - d0);
    const uint32_t i = diagonal_split_t<uint32_t>(sa, d.la, sb, d.lb, d0, p.comp);
    Key* ok = out_k.of(t);
    Value* ov = out_v.of(t);
    // The stage (and the shared memory after it) is readable one slot past the end
    // of A's and of B's range: the serial merge may skip its reload bounds check.
    serial_merge_emit<items, true>(sa, d.la, i, sb, d.lb, d0 - i, count, p.comp,
                             [&](uint32_t j, const Key& key, bool from_a, uint32_t pos) {
                               ok[j] = key;
                               if constexpr (pairs) ov[j] = sv[from_a ? d.vslot_a + pos : d.vslot_b + pos];
                             });
    if constexpr (Mutant != MergeMutant::EarlyRelease)
      blk.arrive(sm.empty(s));  // this thread is done with stage s (release: its reads come first)
  });

  // This warp's slice of the window: outputs [warp * 32 * items, + 32 * items).
  const uint32_t first = mp_min(warp * L::warp_outputs, n);
  const uint32_t len = mp_min(L::warp_outputs, n - first);
  const auto wk = sm.wbuf_k(warp);
  const auto wv = sm.wbuf_v(warp);
  blk.for_each_lane([&](uint32_t lane) {
    const uint32_t t = warp * 32 + lane;
    const uint32_t d0 = mp_min(t * items, n);
    const uint32_t count = mp_min(items, n - d0);
    const Key* ok = out_k.of(t);
    const Value* ov = out_v.of(t);
    GPULIN_MP_UNROLL
    for (uint32_t j = 0; j < items; ++j) {
      if (j < count) {
        wk[d0 - first + j] = ok[j];
        if constexpr (pairs) wv[d0 - first + j] = ov[j];
      }
    }
  });
  if constexpr (Mutant != MergeMutant::NoWarpSync) blk.warp_sync();  // the buffer's writes before its reads
  const uint64_t c0 = d.c0 + first;
  store_slice(blk, p.c + c0, wk, len);
  if constexpr (pairs) store_slice(blk, p.cv + c0, wv, len);
  blk.warp_sync();  // the buffer is rewritten for the next window
  return true;
}

// One block of the merge (§2), the whole kernel body. Thread 0 initialises the
// transaction barriers before any role starts (the block's only block-wide
// barrier); then warps 0 .. C-1 merge (consumers), warp C searches window boundaries
// (partitioning), warp C+1 copies windows into shared memory; search and copy warps
// take their work from args.scratch until none is left. `smem` is
// MergeLayout::bytes, 16-byte aligned. `Mutant` is a bug injection for the explorer
// (merge_mutant.h); the GPU kernels use the default.
template <class Policy, MergeMutant Mutant = MergeMutant::None, exec::SharedWords Block, class Key, class Value, class Comp>
  requires exec::ActorIds<Block> && exec::WarpLanes<Block> && exec::BlockBarriers<Block>
GPULIN_HD void merge_block(Block& blk, MergeArgs<Key, Value, Comp> args, unsigned char* smem) {
  using L = MergeLayout<Policy, Key, Value>;
  const MergeSmem<Policy, Key, Value, typename Block::template Private<unsigned char>> sm{
      smem, blk.private_view(smem, L::bytes)};
  if (blk.first_thread()) {
    init_block(blk, sm);
    blk.publish_barrier_init();
  }
  blk.block_sync();
  const uint32_t warp = blk.warp();
  if (warp == Policy::consumer_warps) {
    search_batches<Policy>(blk, args);
  } else if (warp == Policy::consumer_warps + 1) {
    // The next window is taken before its stage is free: the counter's and the
    // flags' round trips overlap the consumers' merging.
    for (uint64_t k = 0;; ++k) {
      const TakenWindow t = take_window(blk, args);
      issue_window<Policy, Mutant>(blk, args, sm, k, t);
      if (t.w == kNoWindow) break;
    }
  } else {
    typename Block::template Regs<Key, Policy::items> out_k;
    typename Block::template Regs<Value, Policy::items> out_v;
    for (uint64_t k = 0; consume_window<Policy, Mutant>(blk, args, sm, k, warp, out_k, out_v); ++k) {
    }
  }
}

}  // namespace gpulin::merge_path
