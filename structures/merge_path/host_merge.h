// The global merge of global_merge.h instantiated on the host: every block's search
// warp, copy warp and consumer warps run as plain loops over lanes, one step (a
// batch, a window) at a time, scheduled greedily: a step whose barrier wait would
// block is put back and another role runs. Roles get as far ahead as the barrier
// protocol lets them (the copy warp refills a stage the moment its last consumer
// arrives; one consumer warp runs ahead of the others), so a missing wait shows up
// as a wrong result. Same windows, same shared-memory layout and placement, same
// barrier protocol as the CUDA kernel: the CPU tests exercise the partitioning and
// tiling logic the GPU runs.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "structures/merge_path/global_merge.h"

namespace gpulin::merge_path {

// The block context on the host. Lanes run one after the other inside each warp step
// (for_each_lane); warp syncs need no work. The "bulk copy engine" copies at once, at
// the earliest moment the GPU's could write, so a stage reused before its readers
// finished shows up as a wrong result. The transaction barriers are checked: a phase
// completes with exactly its arrivals and every announced byte delivered, and every
// wait must find exactly the phase it waits for completed - not an earlier one (it
// would read data not yet there) and not a later one (on the GPU it would wait for
// the wrong phase). Bulk copies must meet the engine's rules (16-byte aligned source
// and destination, a multiple of 16 bytes, inside shared memory).
// Thrown by HostBlock::wait when the phase waited for has not completed yet: the
// step is abandoned (a step waits before it has any other effect) and retried later.
struct WouldBlock {};

template <uint32_t ConsumerThreads>
class HostBlock {
 public:
  // warps: every warp of the block (consumers, search, copy).
  HostBlock(unsigned char* smem, size_t smem_bytes, uint32_t warps)
      : smem_(smem), smem_bytes_(smem_bytes), warps_(warps) {}
  // The warp whose step runs now (its waits are counted per warp).
  void set_warp(uint32_t w) {
    assert(w < warps_);
    warp_ = w;
  }

  // Per-thread values across warp steps: one array per consumer thread.
  template <class T, uint32_t N>
  struct Regs {
    std::vector<T> v = std::vector<T>(static_cast<size_t>(ConsumerThreads) * N);
    T* of(uint32_t t) {
      assert(t < ConsumerThreads);
      return v.data() + static_cast<size_t>(t) * N;
    }
  };
  template <class F>
  void for_each_lane(F&& f) {
    for (uint32_t lane = 0; lane < 32; ++lane) f(lane);
  }
  void warp_sync() {}

  void init_barrier(uint64_t* bar, uint32_t count) {
    BarState& s = state(bar, true);
    s = BarState{};
    s.count = count;
    s.used = true;
    s.waits.assign(warps_, 0);
  }
  void expect_bytes(uint64_t* bar, uint32_t n) { state(bar).pending += n; }
  void bulk_load(void* dst, const void* src, uint32_t n, uint64_t* bar) {
    auto* d = static_cast<unsigned char*>(dst);
    assert(reinterpret_cast<uintptr_t>(dst) % 16 == 0);
    assert(reinterpret_cast<uintptr_t>(src) % 16 == 0);
    assert(n > 0 && n % 16 == 0);
    assert(d >= smem_ && d + n <= smem_ + smem_bytes_);
    std::memcpy(d, src, n);
    BarState& s = state(bar);
    s.pending -= n;
    assert(s.pending >= 0);  // announced before delivered, never more than announced
    bulk_bytes_ += n;
    ++bulk_copies_;
  }
  void arrive(uint64_t* bar) {
    BarState& s = state(bar);
    assert(s.arrivals < s.count);
    if (++s.arrivals == s.count) {
      assert(s.pending == 0);  // the copies have all landed (on the host: at once)
      s.arrivals = 0;
      ++s.completed;
    }
  }
  void wait(uint64_t* bar, uint32_t parity) {
    BarState& s = state(bar);
    const uint64_t phase = s.waits[warp_];  // this warp's waits on this barrier so far
    if (s.completed < phase + 1) throw WouldBlock{};
    assert(s.completed == phase + 1);  // never a later phase
    assert(parity == (phase & 1));
    ++s.waits[warp_];
    step_waits_.push_back(&s.waits[warp_]);
  }
  // A step's waits are undone when a later wait of the same step would block.
  void begin_step() { step_waits_.clear(); }
  void abandon_step() {
    for (uint64_t* w : step_waits_) --*w;
    step_waits_.clear();
  }
  void copy16(void* dst, const void* src) {
    assert(reinterpret_cast<uintptr_t>(dst) % 16 == 0);
    assert(reinterpret_cast<uintptr_t>(src) % 16 == 0);
    std::memcpy(dst, src, 16);
  }

  uint64_t bulk_bytes() const { return bulk_bytes_; }
  uint64_t bulk_copies() const { return bulk_copies_; }

 private:
  struct BarState {
    bool used = false;
    uint32_t count = 0, arrivals = 0;
    int64_t pending = 0;
    uint64_t completed = 0;
    std::vector<uint64_t> waits;  // per warp
  };
  BarState& state(uint64_t* bar, bool init = false) {
    auto* b = reinterpret_cast<unsigned char*>(bar);
    assert(b >= smem_ && b + 8 <= smem_ + smem_bytes_ && (b - smem_) % 8 == 0);
    const size_t i = static_cast<size_t>(b - smem_) / 8;
    assert(i < kMaxBars);
    assert(init || bars_[i].used);
    return bars_[i];
  }
  static constexpr size_t kMaxBars = 64;
  unsigned char* smem_;
  size_t smem_bytes_;
  BarState bars_[kMaxBars];
  std::vector<uint64_t*> step_waits_;
  uint32_t warps_, warp_ = 0;
  uint64_t bulk_bytes_ = 0, bulk_copies_ = 0;
};

// Statistics of one host run (the tests check the traffic is what the algorithm
// claims: each input element brought into shared memory about once).
struct HostMergeStats {
  uint64_t windows = 0;
  uint64_t blocks = 0;
  uint64_t bulk_bytes = 0;
  uint64_t bulk_copies = 0;
};

// Blocks the host run pretends to have when none are asked for (an H100: 132
// multiprocessors, two blocks of the default policy each).
inline constexpr uint64_t kHostDefaultBlocks = 264;

template <class Policy, class Key, class Value, class Comp>
HostMergeStats host_merge_impl(MergeArgs<Key, Value, Comp> args, uint64_t blocks) {
  HostMergeStats st;
  const uint64_t total = args.na + args.nb;
  if (total == 0) return st;
  using L = MergeLayout<Policy, Key, Value>;
  using Block = HostBlock<Policy::consumer_threads>;
  const uint64_t windows = window_count<Policy>(args.na, args.nb);
  args.windows = windows;
  const uint64_t g_count = std::min<uint64_t>(windows, blocks == 0 ? kHostDefaultBlocks : blocks);
  std::unique_ptr<unsigned char[]> raw(new unsigned char[L::bytes + 16]);
  unsigned char* base = raw.get() + (16 - reinterpret_cast<uintptr_t>(raw.get()) % 16) % 16;
  st.windows = windows;
  st.blocks = g_count;
  typename Block::template Regs<Key, Policy::items> out_k;
  typename Block::template Regs<Value, Policy::items> out_v;
  for (uint64_t g = 0; g < g_count; ++g) {
    std::memset(base, 0xA5, L::bytes);  // stale shared memory: reading unloaded slots shows
    constexpr uint32_t C = Policy::consumer_warps;
    Block blk(base, L::bytes, C + 2);
    const MergeSmem<Policy, Key, Value> sm{base};
    init_block(blk, sm);
    const uint64_t w_begin = block_first_window(windows, g_count, g);
    const uint64_t w_end = block_first_window(windows, g_count, g + 1);
    const uint64_t count = w_end - w_begin, batches = batch_count(w_begin, w_end);
    // Runs one step; false if it would block (then it had no effect).
    auto attempt = [&](auto&& step) {
      blk.begin_step();
      try {
        step();
        return true;
      } catch (const WouldBlock&) {
        blk.abandon_step();
        return false;
      }
    };
    uint64_t searched = 0, issued = 0;
    std::vector<uint64_t> consumed(C, 0);
    for (;;) {
      bool progress = false;
      // Copy warp, as far ahead as it can get; then the search warp; then each
      // consumer warp as far as it can get (warp 0 runs ahead of warp 1, ...).
      blk.set_warp(C + 1);
      while (issued < count && attempt([&] { issue_window(blk, args, sm, w_begin, issued); })) {
        ++issued;
        progress = true;
      }
      blk.set_warp(C);
      while (searched < batches && attempt([&] { search_batch(blk, args, sm, w_begin, w_end, searched); })) {
        ++searched;
        progress = true;
      }
      bool done = true;
      for (uint32_t warp = 0; warp < C; ++warp) {
        blk.set_warp(warp);
        while (consumed[warp] < count &&
               attempt([&] { consume_window(blk, args, sm, w_begin, consumed[warp], warp, out_k, out_v); })) {
          ++consumed[warp];
          progress = true;
        }
        done = done && consumed[warp] == count;
      }
      if (done) break;
      if (!progress) throw std::logic_error("host merge: the block's roles deadlocked");
    }
    assert(issued == count && searched == batches);
    st.bulk_bytes += blk.bulk_bytes();
    st.bulk_copies += blk.bulk_copies();
  }
  return st;
}

// out[0, na + nb) = stable merge of sorted a and b under comp, with window size
// Policy::tile and `blocks` blocks (0: kHostDefaultBlocks).
template <class Policy, class Key, class Comp = Less>
HostMergeStats host_merge_keys_policy(const Key* a, uint64_t na, const Key* b, uint64_t nb, Key* out,
                                      Comp comp = Comp(), uint64_t blocks = 0) {
  MergeArgs<Key, NoValue, Comp> args{a, nullptr, na, b, nullptr, nb, out, nullptr, 0, comp};
  return host_merge_impl<Policy>(args, blocks);
}

template <class Key, class Comp = Less>
HostMergeStats host_merge_keys(const Key* a, uint64_t na, const Key* b, uint64_t nb, Key* out, Comp comp = Comp(),
                               uint64_t blocks = 0) {
  return host_merge_keys_policy<typename DefaultMergePolicy<Key, NoValue>::type>(a, na, b, nb, out, comp, blocks);
}

template <class Policy, class Key, class Value, class Comp = Less>
HostMergeStats host_merge_pairs_policy(const Key* a_keys, const Value* a_vals, uint64_t na, const Key* b_keys,
                                       const Value* b_vals, uint64_t nb, Key* out_keys, Value* out_vals,
                                       Comp comp = Comp(), uint64_t blocks = 0) {
  MergeArgs<Key, Value, Comp> args{a_keys, a_vals, na, b_keys, b_vals, nb, out_keys, out_vals, 0, comp};
  return host_merge_impl<Policy>(args, blocks);
}

template <class Key, class Value, class Comp = Less>
HostMergeStats host_merge_pairs(const Key* a_keys, const Value* a_vals, uint64_t na, const Key* b_keys,
                                const Value* b_vals, uint64_t nb, Key* out_keys, Value* out_vals, Comp comp = Comp(),
                                uint64_t blocks = 0) {
  return host_merge_pairs_policy<typename DefaultMergePolicy<Key, Value>::type>(a_keys, a_vals, na, b_keys, b_vals,
                                                                                nb, out_keys, out_vals, comp, blocks);
}

}  // namespace gpulin::merge_path
