// The global merge (structures/merge_path/global_merge.h) in the simulator: every
// block's warps are fibers on sim/sim_context.h, scheduled by a Strategy. The
// CPU tests (tests/merge_path) and `gpulin explore --structure merge` run the merge
// through here; the GPU runs the same merge_block in structures/merge_path/gpu/merge.cuh's kernel.
//
// Blocks share nothing but the read-only inputs and write disjoint outputs, so a
// merge with more blocks than one run can hold (64 actors) runs its blocks in
// groups, one simulator run each, every run under the same strategy.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/sim_block.h"
#include "sim/sim_context.h"
#include "sim/simulator.h"
#include "sim/strategies/random_strategy.h"
#include "sim/strategy.h"
#include "structures/merge_path/global_merge.h"

namespace gpulin::merge_path {

// What one simulated merge did: the run (the first that did not complete, else the
// last, with the points of all), and the traffic the tests check (each input element
// brought into shared memory about once).
struct SimMergeStats {
  sim::RunResult run;
  uint64_t windows = 0;
  uint64_t blocks = 0;
  uint64_t bulk_bytes = 0;
  uint64_t bulk_copies = 0;
  std::vector<uint64_t> bulk_copies_by_block;  // how the blocks shared the windows
  uint64_t runs = 0;  // simulator runs (0 when the strategy had none left)
  bool completed() const { return run.outcome == sim::Outcome::Completed; }
};

// Blocks a simulated merge has when none are asked for (an H100: 132
// multiprocessors, one block of the default 4-byte policy each).
inline constexpr uint64_t kSimDefaultBlocks = 132;

// Warps of one block: the consumers, the search warp, the copy warp.
template <class Policy>
constexpr uint32_t block_warps() {
  return Policy::consumer_warps + 2;
}

// The blocks a simulated merge of na + nb keys runs with `blocks` asked for (0:
// kSimDefaultBlocks): no more than it has windows.
template <class Policy>
uint64_t sim_merge_blocks(uint64_t na, uint64_t nb, uint64_t blocks) {
  return std::min<uint64_t>(window_count<Policy>(na, nb), blocks == 0 ? kSimDefaultBlocks : blocks);
}

// `begun`: the strategy's run has begun already (the explorer begins each schedule
// itself, explore_histories); then the merge's blocks must fit one simulator run.
template <class Policy, MergeMutant Mutant = MergeMutant::None, class Key, class Value, class Comp>
SimMergeStats sim_merge_impl(MergeArgs<Key, Value, Comp> args, uint64_t blocks, sim::Strategy& strategy,
                             uint64_t max_points, bool begun = false,
                             const sim::memory::MemorySetting& memory = {}) {
  SimMergeStats st;
  const uint64_t total = args.na + args.nb;
  if (total == 0) return st;
  using L = MergeLayout<Policy, Key, Value>;
  constexpr uint32_t W = block_warps<Policy>();
  static_assert(W <= sim::kMaxActors, "a block's warps must fit one simulator run");
  const uint64_t windows = window_count<Policy>(args.na, args.nb);
  args.windows = windows;
  // The scratch in global memory the blocks share the windows through, its counters
  // and flags zero (as merge_dispatch clears them), its splits stale.
  const size_t scratch_bytes = MergeScratch::bytes(windows);
  std::unique_ptr<uint64_t[]> scratch(new uint64_t[(scratch_bytes + 15) / 8]);
  void* scratch_base = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(scratch.get()) + 15) / 16 * 16);
  std::memset(scratch_base, 0x5C, scratch_bytes);
  std::memset(scratch_base, 0, MergeScratch::cleared_bytes(windows));
  args.scratch = MergeScratch::in(scratch_base, windows);
  const uint64_t g_count = sim_merge_blocks<Policy>(args.na, args.nb, blocks);
  st.windows = windows;
  st.blocks = g_count;
  const uint64_t per_run = sim::kMaxActors / W;
  if (begun && g_count > per_run)
    throw std::invalid_argument("a begun merge run holds at most " + std::to_string(sim::kMaxActors) + " warps");
  // Shared memory of the blocks of one run, 16-byte aligned.
  const size_t stride = (L::bytes + 15) / 16 * 16;
  std::unique_ptr<unsigned char[]> raw(new unsigned char[stride * per_run + 16]);
  unsigned char* base = raw.get() + (16 - reinterpret_cast<uintptr_t>(raw.get()) % 16) % 16;
  sim::Simulator sim;
  sim.set_memory_mode(memory);
  // The scratch the blocks share (counters, flags, splits); the inputs are read
  // directly (immutable: no scheduling point), the outputs written directly (each by
  // one thread, read by none during the run).
  sim.set_shared_regions({{scratch_base, scratch_bytes}});
  // The inputs and the output, named (no access of theirs is a scheduling point):
  // the stepper draws them (sim/point_observer.h).
  sim.set_named_regions({sim::memory::range_of(args.a, args.na), sim::memory::range_of(args.b, args.nb),
                         sim::memory::range_of(args.c, total)});
  uint64_t points = 0, stale = 0, outside = 0;
  for (uint64_t first = 0; first < g_count; first += per_run) {
    const uint64_t n = std::min<uint64_t>(per_run, g_count - first);
    std::memset(base, 0xA5, stride * n);  // stale shared memory: reading unloaded slots shows
    std::vector<std::unique_ptr<sim::SimBlock>> blks;
    for (uint64_t i = 0; i < n; ++i) blks.push_back(std::make_unique<sim::SimBlock>(sim, base + i * stride, L::bytes, W));
    const auto actors = static_cast<uint32_t>(n * W);
    if (!begun && !strategy.begin_run(actors)) break;
    st.run = sim.run(
        actors,
        [&](uint32_t a) {
          sim::SimContext x(sim, a, nullptr, sim::WarpPlace{first + a / W, g_count, a % W, blks[a / W].get()});
          merge_block<Policy, Mutant>(x, args, base + (a / W) * stride);
        },
        strategy, max_points);
    ++st.runs;
    points += st.run.points;
    stale += st.run.stale_reads;
    outside += st.run.outside_writes;
    for (const auto& b : blks) {
      st.bulk_bytes += b->bulk_bytes();
      st.bulk_copies += b->bulk_copies();
      st.bulk_copies_by_block.push_back(b->bulk_copies());
    }
    if (!st.completed()) break;
  }
  st.run.points = points;
  st.run.stale_reads = stale;
  st.run.outside_writes = outside;
  return st;
}

// Convenience entries for the tests: random schedules from `seed`, no point budget.
inline constexpr uint64_t kNoPointLimit = ~uint64_t(0);

// out[0, na + nb) = stable merge of sorted a and b under comp, with window size
// Policy::tile and `blocks` blocks (0: kSimDefaultBlocks).
template <class Policy, class Key, class Comp = Less>
SimMergeStats sim_merge_keys_policy(const Key* a, uint64_t na, const Key* b, uint64_t nb, Key* out,
                                    Comp comp = Comp(), uint64_t blocks = 0, uint64_t seed = 1) {
  MergeArgs<Key, NoValue, Comp> args{a, nullptr, na, b, nullptr, nb, out, nullptr, 0, comp};
  sim::RandomStrategy strategy(seed);
  return sim_merge_impl<Policy>(args, blocks, strategy, kNoPointLimit);
}

template <class Key, class Comp = Less>
SimMergeStats sim_merge_keys(const Key* a, uint64_t na, const Key* b, uint64_t nb, Key* out, Comp comp = Comp(),
                             uint64_t blocks = 0, uint64_t seed = 1) {
  return sim_merge_keys_policy<typename DefaultMergePolicy<Key, NoValue>::type>(a, na, b, nb, out, comp, blocks,
                                                                                seed);
}

template <class Policy, class Key, class Value, class Comp = Less>
SimMergeStats sim_merge_pairs_policy(const Key* a_keys, const Value* a_vals, uint64_t na, const Key* b_keys,
                                     const Value* b_vals, uint64_t nb, Key* out_keys, Value* out_vals,
                                     Comp comp = Comp(), uint64_t blocks = 0, uint64_t seed = 1) {
  MergeArgs<Key, Value, Comp> args{a_keys, a_vals, na, b_keys, b_vals, nb, out_keys, out_vals, 0, comp};
  sim::RandomStrategy strategy(seed);
  return sim_merge_impl<Policy>(args, blocks, strategy, kNoPointLimit);
}

template <class Key, class Value, class Comp = Less>
SimMergeStats sim_merge_pairs(const Key* a_keys, const Value* a_vals, uint64_t na, const Key* b_keys,
                              const Value* b_vals, uint64_t nb, Key* out_keys, Value* out_vals, Comp comp = Comp(),
                              uint64_t blocks = 0, uint64_t seed = 1) {
  return sim_merge_pairs_policy<typename DefaultMergePolicy<Key, Value>::type>(a_keys, a_vals, na, b_keys, b_vals,
                                                                              nb, out_keys, out_vals, comp, blocks,
                                                                              seed);
}

}  // namespace gpulin::merge_path
